import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Observable } from 'rxjs';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { describeIssues } from '../config/problems.js';
import { SEAT_STATUSES } from '../domain/seats.js';
import { JournalError } from '../journal/errors.js';
import type { TableHalt } from '../outputs/health.js';
import { publicOutput, publicState, type TableExtrasSource } from '../outputs/public.js';
import type { NextHand } from '../table/next-hand.js';
import type { TableSnapshot, TableUpdate } from '../table/update.js';
import { PACKAGE_ROOT } from '../version.js';
import { type DealerSignIn, registerDealerSignIn } from './dealer-route.js';
import { type FloorRoutesOptions, registerFloorRoutes } from './floor-routes.js';
import { DISPLAY_ACTIONS, DISPLAY_STATE, type DisplayDevice, type DisplayMessage } from './protocol.js';

export interface DisplayOptions extends Omit<FloorRoutesOptions, 'broadcast'> {
  hello: Omit<Extract<DisplayMessage, { type: 'hello' }>, 'type'>;
  updates: Observable<TableUpdate>;
  /** Why the table does not play, or null while it does (`JournaledTable.halts`). */
  halts?: Observable<TableHalt | null>;
  /** Where the table stands now, for a display that connects between two events. */
  snapshot(): TableSnapshot;
  /** The table's devices as `/healthz` reports them (the controller's health tracker). */
  health: { devices(): DisplayDevice[] };
  /** The hand the dealer's "next hand" touch would start at `t`, from where the table stands. */
  nextHand(snapshot: TableSnapshot, t: number): NextHand | null;
  /** Whether a dealer's touch from this address is taken (`touch-policy.ts`). */
  mayTouch(ip: string): boolean;
  /** The dealer of the down and the supervisor on the way to the open call (the controller's crew). */
  extras?: TableExtrasSource;
  /** A dealer's PIN: their down starts, or why not. */
  signInDealer?(pin: string): Promise<DealerSignIn>;
}

/** A seat touch's body: a seat of the table, its status, a name the display may show. */
const seatTouch = (seats: number) =>
  z.strictObject({
    seat: z.number().int().min(1).max(seats),
    status: z.enum(SEAT_STATUSES),
    name: z.string().trim().max(40).optional().describe('"" clears the name'),
  });

/** A refusal's `code` lets the screen say it in its own language; `error` says it to a person. */
const HAND_IN_PLAY = { code: 'hand-in-play', error: 'a hand is in play' } as const;

/** No hand in play: none yet, or the last one over or void. */
function between(snapshot: TableSnapshot): boolean {
  return snapshot.hasTag('between-hands');
}

const DEALER_TOUCHES: ReadonlySet<string> = new Set([
  DISPLAY_ACTIONS.confirm,
  DISPLAY_ACTIONS.callFloor,
  DISPLAY_ACTIONS.nextHand,
  DISPLAY_ACTIONS.seat,
  DISPLAY_ACTIONS.dealerSignIn,
]);

/** The built page (`npm run build:display`); without it the display says how to build it. */
const PAGE = join(PACKAGE_ROOT, 'dist/display');

/**
 * The dealer display's server side: the page, a WebSocket on `/ws` that sends the public state (and each
 * incident as it is ruled) to every screen, and the dealer's touches as POSTs. Everything sent is the
 * public view: no hole card's identity leaves here.
 */
export async function registerDisplay(server: FastifyInstance, options: DisplayOptions): Promise<void> {
  const refused = (reason: string) => options.refused('display', reason);
  await server.register(fastifyWebsocket, {
    options: { maxPayload: 4096 },
    // A broken frame (bad UTF-8, oversized, a protocol error) is counted and its screen cut off.
    errorHandler: (error, socket) => {
      const code = (error as { code?: unknown }).code;
      refused(
        `a screen's WebSocket frame refused (${typeof code === 'string' ? code : 'error'}): ${error.message}`,
      );
      socket.terminate();
    },
  });
  if (existsSync(join(PAGE, 'index.html'))) {
    await server.register(fastifyStatic, { root: PAGE });
  } else {
    server.get('/', async (_, reply) =>
      reply.code(503).type('text/plain').send('the display is not built: run npm run build:display'),
    );
  }
  const screens = new Set<WebSocket>();
  const send = (socket: WebSocket, message: DisplayMessage) => socket.send(JSON.stringify(message));
  const stateMessage = (snapshot: TableSnapshot): DisplayMessage => {
    const state = publicState(snapshot);
    const devices = options.health.devices();
    if (!options.extras) return { type: 'state', state, devices };
    const { dealer, call } = options.extras.of(state);
    return { type: 'state', state, devices, crew: { ...(dealer && { dealer }), ...(call && { call }) } };
  };

  const broadcast = (text: string) => {
    for (const socket of screens) socket.send(text);
  };
  registerFloorRoutes(server, { ...options, broadcast: (message) => broadcast(JSON.stringify(message)) });
  /** Why the table stopped, while it is: every screen says so until a supervisor clears it. */
  let halt: DisplayMessage | null = null;
  let lastState = '';
  const screening = options.updates.subscribe({
    next: ({ outputs, snapshot }) => {
      // The state first: the screen draws an incident's alert from it; the outputs then (a prompt is
      // shown with the hand the state names).
      const state = JSON.stringify(stateMessage(snapshot));
      if (state !== lastState) broadcast(state);
      lastState = state;
      for (const output of outputs)
        broadcast(JSON.stringify({ type: 'output', output: publicOutput(output) }));
    },
    error: (error: unknown) => {
      // A journal's message names the file and the trouble, never a card; anything else stays in the log.
      const detail = error instanceof JournalError ? error.message : 'internal error: see the log';
      halt = { type: 'halt', detail };
      broadcast(JSON.stringify(halt));
    },
  });
  const halting = options.halts?.subscribe((stopped) => {
    if (stopped) {
      halt = {
        type: 'halt',
        detail: stopped.detail,
        clearable: stopped.clearable,
        ...(stopped.record && { record: stopped.record.id }),
      };
      broadcast(JSON.stringify(halt));
    } else if (halt) {
      // Cleared: every screen starts over, as on a new connection (a hello clears its halt).
      halt = null;
      broadcast(JSON.stringify({ type: 'hello', ...options.hello }));
      lastState = JSON.stringify(stateMessage(options.snapshot()));
      broadcast(lastState);
    }
  });
  // A dealer signed in, a supervisor on the way: the screens say it at once.
  const crewing = options.extras?.changed.subscribe(() => {
    const state = JSON.stringify(stateMessage(options.snapshot()));
    if (state !== lastState) broadcast(state);
    lastState = state;
  });
  server.addHook('onClose', async () => crewing?.unsubscribe());
  server.addHook('onClose', async () => halting?.unsubscribe());
  server.addHook('onClose', async () => screening.unsubscribe());

  // The same public state as a plain GET: the table, the open incident, its procedure and current step.
  server.get(DISPLAY_STATE, async () => stateMessage(options.snapshot()));

  server.get('/ws', { websocket: true }, (socket) => {
    screens.add(socket);
    socket.on('close', () => screens.delete(socket));
    // A screen sends nothing over the socket: its touches are POSTs.
    socket.once('message', () => {
      refused('a screen sent a message on /ws: its touches are POSTs');
      socket.close(1003, 'the display sends its touches as POSTs');
    });
    send(socket, { type: 'hello', ...options.hello });
    send(socket, stateMessage(options.snapshot()));
    if (halt) send(socket, halt);
  });

  // The dealer's touches drive the table: taken from the table's own screen only.
  server.addHook('onRequest', async (request, reply) => {
    if (
      request.method !== 'POST' ||
      !DEALER_TOUCHES.has(request.routeOptions.url ?? '') ||
      options.mayTouch(request.ip)
    )
      return;
    refused(`a dealer's touch from ${request.ip} refused: not the table's screen`);
    return reply.code(403).send({ error: "the dealer's touches are taken from the table's own screen only" });
  });
  for (const [path, input] of [
    [DISPLAY_ACTIONS.confirm, 'confirm'],
    [DISPLAY_ACTIONS.callFloor, 'call-floor'],
  ] as const) {
    server.post(path, async (_, reply) => {
      options.input({ type: 'dealer', t: options.now(), input });
      return reply.code(202).send({ taken: input });
    });
  }
  if (options.signInDealer) registerDealerSignIn(server, { signIn: options.signInDealer, refused });
  server.post(DISPLAY_ACTIONS.nextHand, async (_, reply) => {
    const snapshot = options.snapshot();
    if (!between(snapshot)) return reply.code(409).send(HAND_IN_PLAY);
    const t = options.now();
    const hand = options.nextHand(snapshot, t);
    if (hand === null) {
      return reply.code(409).send({ code: 'too-few-players', error: 'fewer than two players are seated' });
    }
    // The table starts the hand itself, by the rules: the same event replays to the same hand.
    options.input({ type: 'dealer', t, input: 'next-hand' });
    return reply.code(202).send({ taken: 'next-hand', button: hand.button });
  });
  server.post(DISPLAY_ACTIONS.seat, async (request, reply) => {
    const parsed = seatTouch(options.hello.seats).safeParse(request.body);
    if (!parsed.success) {
      const error = `a seat touch refused: ${describeIssues(parsed.error.issues, '', '; ')}`;
      refused(error);
      return reply.code(400).send({ code: 'bad-seat', error });
    }
    if (!between(options.snapshot())) return reply.code(409).send(HAND_IN_PLAY);
    options.input({ type: 'seat', t: options.now(), ...parsed.data });
    return reply.code(202).send({ taken: 'seat', seat: parsed.data.seat });
  });
}
