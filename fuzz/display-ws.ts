import type { Duplex, Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { displayHost } from '../simulators/display-host.js';
import { initialSnapshot, type SourceEvent } from '../src/controller/pipeline.js';
import { DISPLAY_ACTIONS } from '../src/display/protocol.js';
import { registerDisplay } from '../src/display/server.js';
import { PROFILES } from '../src/rules/index.js';
import { clearReason, holds, printable, type Target } from './harness.js';
import { hostileChunks, OPCODES } from './ws-frames.js';

/**
 * The display's WebSocket (`/ws` in src/display/server.ts) in process, through @fastify/websocket's
 * `injectWS`: a screen connects, is greeted, then writes hostile frames (ws-frames.ts) on its socket.
 * The display takes nothing on the socket (its touches are POSTs), so every complete message must close
 * the connection with a reason, and every broken frame must be refused by the WebSocket layer: closed,
 * its error a WebSocket protocol error (anything else is a handler that threw), its close code one of
 * RFC 6455's for a refusal. An input that ends in the middle of a frame leaves the screen waiting for
 * the rest (accepted, so far). The server must then greet the next screen, and take the dealer's touch
 * (a POST) that follows the garbage.
 *
 * Nothing here is timed: the bytes cross in-memory streams, and the server has answered within a few
 * turns of the event loop or not at all.
 */

export interface WsInput {
  /** What the client writes on its socket once the server has greeted it, chunk by chunk. */
  chunks: Buffer[];
  /** Then the dealer touches the screen (a POST): it must reach the table. */
  touch: boolean;
}

/** The share of inputs followed by a touch: an HTTP request costs as much as the rest of an input. */
const TOUCHES = 0.1;

/**
 * The codes ws refuses a broken frame with (RFC 6455 section 7.4.1: protocol error, invalid data, too big),
 * or 1006 when @fastify/websocket's error handler cut the socket before the close frame left.
 */
const PROTOCOL_REFUSALS = new Set([1002, 1006, 1007, 1009]);
/** No close frame came: the socket was cut. */
const DROPPED = 1006;
/** A close frame without a code. */
const NO_STATUS = 1005;
/** A code a client may close with, which the server echoes (RFC 6455 section 7.4). */
const isCloseCode = (code: number) =>
  (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
/** The display's own refusal: its screens send nothing. */
export const POSTS_ONLY = 'the display sends its touches as POSTs';
/**
 * How many turns of the event loop bytes take to cross the in-memory streams and be answered, plus as many
 * per 16 KiB chunk: nothing here waits on I/O or a timer, so these are counts of hops, not times.
 */
const TURNS = 8;
const TURNS_PER_CHUNK = 4;
/** A refused screen's close frame, or the end of its socket, takes a few more. */
const CLOSE_TURNS = 50;

/** What the server logs at error level (the socket errors @fastify/websocket logs), kept; the rest dropped. */
function keptErrors(errors: Display['errors']): FastifyBaseLogger {
  const keep = (logged: unknown) => {
    const { message, code } = logged instanceof Error ? (logged as Error & { code?: unknown }) : {};
    errors.push({ message: message ?? String(logged), code });
  };
  const drop = () => undefined;
  const log: FastifyBaseLogger = {
    level: 'error',
    fatal: keep,
    error: keep,
    warn: drop,
    info: drop,
    debug: drop,
    trace: drop,
    silent: drop,
    child: () => log,
  };
  return log;
}

interface Display {
  server: FastifyInstance;
  inputs: SourceEvent[];
  /** Errors logged by the server: @fastify/websocket logs each socket's error there. */
  errors: { message: string; code: unknown }[];
  /** Refusals the display reported through its `refused` option. */
  counted: string[];
}

let display: Promise<Display> | undefined;
/** What the server threw where nothing catches it (a socket's event handler): croupier would die of it. */
let uncaught: { error: unknown } | undefined;

/** One display server for the run, on the initial table, its log read back for the socket errors. */
function displayServer(): Promise<Display> {
  display ??= (async () => {
    const errors: Display['errors'] = [];
    process.on('uncaughtException', (error) => {
      uncaught ??= { error };
    });
    const server = Fastify({ loggerInstance: keptErrors(errors) });
    const inputs: SourceEvent[] = [];
    const counted: string[] = [];
    const snapshot = initialSnapshot({ seats: 10, profile: PROFILES['main-event-2014'] });
    await registerDisplay(server, displayHost(snapshot, { inputs, refused: counted }));
    await server.ready();
    return { server, inputs, errors, counted };
  })();
  return display;
}

/** Turns the event loop until `done`, or `turns` times; whether it is done. */
async function settled(done: () => boolean, turns = TURNS): Promise<boolean> {
  for (let turn = 0; turn < turns && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
  return done();
}

/** The server's frames as they reach the client's socket (unmasked: RFC 6455 section 5.2). */
class ServerFrames {
  readonly texts: string[] = [];
  pongs = 0;
  close: { code: number; reason: string } | undefined;
  #pending = Buffer.alloc(0);

  receive(chunk: Buffer): void {
    this.#pending = Buffer.concat([this.#pending, chunk]);
    for (;;) {
      const bytes = this.#pending;
      if (bytes.length < 2) return;
      const short = (bytes[1] ?? 0) & 0x7f;
      const start = short === 126 ? 4 : short === 127 ? 10 : 2;
      if (bytes.length < start) return;
      const length =
        short === 126 ? bytes.readUInt16BE(2) : short === 127 ? Number(bytes.readBigUInt64BE(2)) : short;
      if (bytes.length < start + length) return;
      const payload = bytes.subarray(start, start + length);
      const opcode = (bytes[0] ?? 0) & 0x0f;
      if (opcode === OPCODES.text) this.texts.push(payload.toString());
      if (opcode === OPCODES.pong) this.pongs++;
      if (opcode === OPCODES.close) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : NO_STATUS;
        this.close = { code, reason: payload.subarray(2).toString() };
      }
      this.#pending = bytes.subarray(start + length);
    }
  }
}

interface Screen {
  /** The server's end of the connection. */
  socket: WebSocket;
  /** The client's socket: what it writes there reaches the server as is, frames or not. */
  raw: Writable;
  frames: ServerFrames;
}

/** A screen connected and greeted (hello, then the table's state), or a violation. */
async function greetedScreen(server: FastifyInstance): Promise<Screen> {
  const frames = new ServerFrames();
  let raw: Writable | undefined;
  await server.injectWS(
    '/ws',
    {},
    {
      onOpen: (client) => {
        // injectWS's client owns its in-memory socket: the raw bytes go there, past the client's framing, and
        // the server's come back there, read here as they are.
        const socket = (client as unknown as { _socket: Duplex })._socket;
        socket.on('data', (chunk: Buffer) => frames.receive(chunk));
        raw = socket;
        // A server's refusal may cut the socket under the client: not the client's concern here.
        client.on('error', () => undefined);
      },
    },
  );
  // The server's end of this connection: the one open (those of earlier screens are closing or closed).
  const socket = [...server.websocketServer.clients].find((client) => client.readyState === client.OPEN);
  holds(socket !== undefined && raw !== undefined, 'a screen could not connect');
  await settled(() => frames.texts.length >= 2);
  const greetings = frames.texts.map((text) => (JSON.parse(text) as { type: string }).type).join();
  holds(greetings === 'hello,state', `a new screen was greeted with ${greetings || 'nothing'}`);
  return { socket, raw, frames };
}

/** What the display made of what a screen wrote. */
export interface ScreenAnswer {
  /** The server ended the connection: its close frame's code and reason (1006: cut without one). */
  closed: { code: number; reason: string } | undefined;
  /** Whole messages the WebSocket layer decoded, as the display's handler heard them. */
  messages: number;
  /** Pings answered. */
  pongs: number;
  /** The WebSocket protocol errors the server refused frames for (ws's codes, `WS_ERR_…`). */
  refusals: string[];
  /** Refusals the display reported (its `refused` option, which /healthz counts). */
  counted: number;
}

/** A screen connects, is greeted, writes `chunks` on its socket, and leaves: what the display answered. */
export async function screenAnswer(chunks: readonly Buffer[]): Promise<ScreenAnswer> {
  const { server, errors, counted } = await displayServer();
  const { socket, raw, frames } = await greetedScreen(server);
  errors.length = 0;
  counted.length = 0;
  let messages = 0;
  socket.on('message', () => messages++);
  for (const chunk of chunks) raw.write(chunk);
  const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const ended = await settled(
    () => socket.readyState !== socket.OPEN,
    TURNS + Math.ceil(size / 16_384) * TURNS_PER_CHUNK,
  );
  // Ended: the server's close frame comes, or the socket is cut (1006, no close frame).
  if (ended)
    await settled(() => frames.close !== undefined || socket.readyState === socket.CLOSED, CLOSE_TURNS);
  // The screen leaves: its socket dropped, as a TCP connection would be (injectWS's in-memory pair does
  // not carry a client's drop to the server).
  socket.terminate();
  if (uncaught) {
    const { error } = uncaught;
    uncaught = undefined;
    throw error;
  }
  // A socket error the server did not handle reaches the log; a frame it refused is counted with its code.
  for (const { message } of errors) holds(false, `the socket failed unhandled: ${message}`);
  const refusals = counted.flatMap(
    (reason) => /^a screen's WebSocket frame refused \((\w+)\)/.exec(reason)?.[1] ?? [],
  );
  for (const code of refusals) holds(code.startsWith('WS_ERR_'), `the socket failed: ${code}`);
  const closed = ended ? (frames.close ?? { code: DROPPED, reason: '' }) : undefined;
  for (const reason of counted) clearReason(reason, 'display refused');
  return { closed, messages, pongs: frames.pongs, refusals, counted: counted.length };
}

/** The dealer touches the screen (a POST), from the Pi itself unless `from` says: whether it reached the table. */
export async function touchTaken(from = '127.0.0.1'): Promise<boolean> {
  const { server, inputs } = await displayServer();
  const before = inputs.length;
  const taken = await server.inject({ method: 'POST', url: DISPLAY_ACTIONS.confirm, remoteAddress: from });
  return taken.statusCode === 202 && inputs.length === before + 1;
}

export const displayWs: Target<WsInput> = {
  name: 'display-ws',
  family: 'display-ws',
  generate: (rand) => ({ chunks: hostileChunks(rand), touch: rand() < TOUCHES }),
  async check({ chunks, touch }) {
    const { closed, messages, refusals } = await screenAnswer(chunks);
    const { code, reason } = closed ?? { code: 0, reason: '' };
    if (messages > 0) {
      // A screen sends nothing: its first message is refused, with the display's reason.
      holds(code === 1003 && reason === POSTS_ONLY, `a message the display did not refuse (${code})`);
    } else if (refusals.length > 0) {
      holds(PROTOCOL_REFUSALS.has(code) && reason === '', `${refusals[0]} refused with ${code} "${reason}"`);
    } else if (closed) {
      // No refusal: the client's own close frame, echoed, or a ping flood cut (1006).
      holds(code === DROPPED || code === NO_STATUS || isCloseCode(code), `closed with ${code}`);
    }
    if (touch) holds(await touchTaken(), 'the dealer’s touch after it was lost');
    return messages > 0 || refusals.length > 0 ? 'refused' : 'accepted';
  },
  show: ({ chunks, touch }) =>
    `${chunks.map((chunk) => printable(chunk)).join(' + ')}${touch ? ', then a touch' : ''}`,
};
