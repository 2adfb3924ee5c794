import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { describeIssues } from '../config/problems.js';
import { NO_JSON_SCHEMA } from '../controller/http.js';
import { PIN } from '../display/protocol.js';
import type { MqttStatus } from '../io/mqtt.js';
import { PACKAGE_ROOT } from '../version.js';
import { FLOOR_API, type FloorMessage } from './protocol.js';
import type { Room } from './room.js';
import { type FloorStats, statsCsv } from './stats.js';
import type { FloorSupervisors } from './supervisors.js';

export interface FloorServerOptions {
  host: string;
  port: number;
  hello: Omit<Extract<FloorMessage, { type: 'hello' }>, 'type'>;
  room: Room;
  supervisors: FloorSupervisors;
  stats: FloorStats;
  broker: Observable<MqttStatus>;
  /** Sends a command to a table (QoS 1): resolves once the broker has it. */
  publish(topic: string, payload: string): Promise<void>;
  refused(source: string, reason: string): void;
  /** What `/healthz` says: the broker link first. */
  health(): object;
}

/** The built page (`npm run build:floor`). */
const PAGE = join(PACKAGE_ROOT, 'dist/floor');

/** A tablet this far behind (its socket's unsent bytes) is cut off: it reconnects and gets the room anew. */
const MAX_BUFFERED = 4 * 2 ** 20;

const token = z.string().min(1).max(64);
const BODIES = {
  signIn: z.union([
    z.strictObject({ pin: z.string().regex(PIN, 'a PIN is 4 to 12 digits') }),
    z.strictObject({ badge: z.string().min(4).max(64) }),
  ]),
  signOut: z.strictObject({ token }),
  answer: z.strictObject({
    token,
    table: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'a table id'),
    call: z.string().min(1).max(64),
  }),
};

const REFUSED_STATUS = { wrong: 401, locked: 423, busy: 429 } as const;

/**
 * The floor's HTTP side: the page for the tablets, a WebSocket on `/ws` that gives each the room and
 * then every tile that changes, the JSON API, and a supervisor's sign-in and answers.
 */
export async function startFloorServer(
  options: FloorServerOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = Fastify({ logger: false, schemaController: { compilersFactory: NO_JSON_SCHEMA } });
  const { room, supervisors } = options;
  await server.register(fastifyWebsocket, {
    options: { maxPayload: 1024 },
    errorHandler: (error, socket) => {
      options.refused('page', `a page's WebSocket frame refused: ${error.message}`);
      socket.terminate();
    },
  });
  if (existsSync(join(PAGE, 'index.html'))) await server.register(fastifyStatic, { root: PAGE });
  else
    server.get('/', async (_, reply) =>
      reply.code(503).type('text/plain').send('the floor page is not built: run npm run build:floor'),
    );

  const pages = new Set<WebSocket>();
  const broadcast = (message: FloorMessage) => {
    const text = JSON.stringify(message);
    for (const page of pages) {
      if (page.bufferedAmount > MAX_BUFFERED) {
        options.refused('page', 'a tablet fell too far behind: cut off, it reconnects');
        page.terminate();
      } else page.send(text);
    }
  };
  const changes = room.changes.subscribe(broadcast);
  let broker: MqttStatus['state'] = 'connecting';
  const linking = options.broker.subscribe((status) => {
    const state = status.state === 'closed' ? 'offline' : status.state;
    if (state === broker) return;
    broker = state;
    broadcast({ type: 'broker', state });
  });
  server.addHook('onClose', async () => {
    changes.unsubscribe();
    linking.unsubscribe();
  });

  server.get('/ws', { websocket: true }, (socket) => {
    pages.add(socket);
    socket.on('close', () => pages.delete(socket));
    socket.once('message', () => {
      options.refused('page', 'a page sent a message on /ws: its actions are POSTs');
      socket.close(1003, 'the floor page sends its actions as POSTs');
    });
    for (const message of [
      { type: 'hello', ...options.hello },
      { type: 'broker', state: broker },
      { type: 'room', tiles: room.tiles() },
    ] as FloorMessage[])
      socket.send(JSON.stringify(message));
  });

  server.get('/healthz', async () => options.health());
  server.get(FLOOR_API.tables, async () => room.tables());
  server.get(FLOOR_API.incidents, async () => room.calls());
  server.get(FLOOR_API.stats, async () => options.stats.downs());
  server.get(FLOOR_API.statsCsv, async (_, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="croupier-floor.csv"')
      .send(statsCsv(options.stats.downs())),
  );

  const refuse = (reply: FastifyReply, status: number, reason: string) => {
    options.refused('floor', reason);
    return reply.code(status).send({ error: reason });
  };
  const route = <K extends keyof typeof BODIES>(
    action: K,
    handle: (body: z.output<(typeof BODIES)[K]>, reply: FastifyReply) => Promise<unknown>,
  ) =>
    server.post(FLOOR_API[action], async (request, reply) => {
      const body = BODIES[action].safeParse(request.body);
      if (!body.success) return refuse(reply, 400, describeIssues(body.error.issues, '', '; '));
      return handle(body.data as z.output<(typeof BODIES)[K]>, reply);
    });

  route('signIn', async (credential, reply) => {
    const outcome = await supervisors.signIn(credential);
    if ('signedIn' in outcome) return reply.send(outcome.signedIn);
    options.refused('floor', `${'pin' in credential ? 'PIN' : 'badge'} refused: ${outcome.refused}`);
    return reply.code(REFUSED_STATUS[outcome.refused]).send(outcome);
  });
  route('signOut', async ({ token }, reply) => {
    supervisors.signOut(token);
    return reply.code(204).send();
  });
  route('answer', async ({ token, table, call }, reply) => {
    const command = supervisors.onMyWay(token, table, call);
    if (command === null) return refuse(reply, 401, 'no supervisor signed in (or the session ended)');
    try {
      await options.publish(command.topic, command.payload);
    } catch (error) {
      return refuse(reply, 503, `the broker did not take the answer: ${(error as Error).message}`);
    }
    return reply.code(202).send({ taken: 'on-my-way', table, call, supervisor: supervisors.who(token) });
  });

  await listen(server, options);
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { url: `http://${options.host}:${port}`, close: () => server.close() };
}

async function listen(
  server: FastifyInstance,
  { host, port }: { host: string; port: number },
): Promise<void> {
  try {
    await server.listen({ host, port });
  } catch (error) {
    throw new Error(`the floor's HTTP server cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
}
