import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { NEVER } from 'rxjs';
import { type FloorRoutesOptions, registerFloorRoutes } from '../src/display/floor-routes.js';
import { FLOOR_ACTIONS } from '../src/display/protocol.js';
import { hashSecret } from '../src/supervisor/credentials.js';
import { FloorDesk } from '../src/supervisor/desk.js';
import { clearReason, holds, printable, type Target } from './harness.js';
import { hostileJsonText } from './json.js';
import { between, pick, type Rand, randomBytes } from './mutate.js';

/**
 * The display's floor API (src/display/floor-routes.ts): hostile bodies on each route (broken JSON, wrong
 * types, unknown keys, `__proto__`, deep nesting, bodies over the limit, wrong content types), each
 * followed by a supervisor's valid decision, which must reach the table. A request is answered below 400,
 * or refused with a 4xx naming why; a 5xx is a route that threw.
 *
 * Two targets. `floor-routes` calls the routes' handlers in process, as registerFloorRoutes declares them,
 * on JSON bodies decoded by Fastify's own JSON parser with the server's settings: fast, it takes most
 * inputs. `floor-http` sends a sample through Fastify's `inject` (slow), content types, URLs and the body
 * limit included, and checks that the handlers in process answered each JSON body as the server did.
 *
 * The desk is locked before the run (one wrong PIN, `maxFailures` 1), so a well-formed PIN costs no
 * scrypt check: the run measures the routes, not the hash.
 */

const PIN = '2468';
const ROUTES = Object.values(FLOOR_ACTIONS);
const SAMPLES = [{ pin: '1234' }, { token: 'tok', decision: 'void' }, { token: 'tok' }];
const JSON_TYPE = 'application/json';
const CONTENT_TYPES = [JSON_TYPE, 'text/plain', 'application/json; charset=latin1', 'x/y', ''];

export interface HttpInput {
  url: string;
  contentType: string;
  body: Buffer;
}

/** How the server answered a request: its status, and why when it refused. */
interface Answer {
  status: number;
  reason?: unknown;
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

interface Floor {
  server: FastifyInstance;
  /** The same routes' handlers, called in process. */
  handlers: ReadonlyMap<string, Handler>;
  token: string;
  inputs: unknown[];
  refusals: string[];
}

let floor: Promise<Floor> | undefined;

/** The handlers registerFloorRoutes declares, by path, for calls in process. */
function declaredHandlers(options: FloorRoutesOptions): Map<string, Handler> {
  const handlers = new Map<string, Handler>();
  const recorder = {
    post: (url: string, handler: Handler) => handlers.set(url, handler),
    addHook: () => undefined,
  };
  registerFloorRoutes(recorder as unknown as FastifyInstance, options);
  return handlers;
}

/** One server for the run, and its handlers in process: signed in once, then locked against every PIN. */
function floorServer(): Promise<Floor> {
  floor ??= (async () => {
    const desk = new FloorDesk([{ name: 'Marie', pin: await hashSecret(PIN) }], {
      now: () => 0,
      maxFailures: 1,
      sessionMs: Number.MAX_SAFE_INTEGER,
      lockoutMs: Number.MAX_SAFE_INTEGER,
    });
    const signedIn = await desk.signIn({ pin: PIN });
    if (!('signedIn' in signedIn)) throw new Error('the supervisor could not sign in');
    await desk.signIn({ pin: '0000' });
    const server = Fastify();
    const inputs: unknown[] = [];
    const refusals: string[] = [];
    const options: FloorRoutesOptions = {
      desk,
      badges: NEVER,
      input: (event) => inputs.push(event),
      now: () => 42,
      refused: (_, reason) => refusals.push(reason),
      broadcast: () => undefined,
      recentHands: () => [],
    };
    registerFloorRoutes(server, options);
    await server.ready();
    return { server, handlers: declaredHandlers(options), token: signedIn.signedIn.token, inputs, refusals };
  })();
  return floor;
}

/** Why a 4xx says it refused: the route's `error`, Fastify's `message`, or the desk's `refused`. */
function refusalOf(payload: unknown): unknown {
  if (payload === null || typeof payload !== 'object') return undefined;
  const { error, message, refused } = payload as Record<string, unknown>;
  return typeof refused === 'string' ? refused : (message ?? error);
}

/** A JSON body on one of the routes: what the handlers in process take. */
const inProcess = ({ url, contentType }: HttpInput): boolean =>
  contentType === JSON_TYPE && ROUTES.some((route) => route === url);

/** A request through Fastify's `inject`: the whole server. */
async function injected({ server }: Floor, { url, contentType, body }: HttpInput): Promise<Answer> {
  const headers = contentType ? { 'content-type': contentType } : {};
  const response = await server.inject({ method: 'POST', url, headers, payload: body });
  const status = response.statusCode;
  return status >= 400 ? { status, reason: refusalOf(JSON.parse(response.body)) } : { status };
}

/**
 * A JSON body decoded as the server decodes it (its body limit, its JSON parser and poisoning settings),
 * then given to the route's handler, as Fastify calls it, with a reply that keeps the status and payload.
 */
async function handled({ server, handlers }: Floor, { url, body }: HttpInput): Promise<Answer> {
  const { bodyLimit, onProtoPoisoning, onConstructorPoisoning } = server.initialConfig;
  if (body.length > (bodyLimit ?? 0)) return { status: 413, reason: 'Request body is too large' };
  const parse = server.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  const parsed = await new Promise<{ ok: true; value: unknown } | { ok: false; error: Error }>((resolve) =>
    parse({} as FastifyRequest, body.toString('utf8'), (error, value) =>
      resolve(error ? { ok: false, error } : { ok: true, value }),
    ),
  );
  if (!parsed.ok) return { status: 400, reason: parsed.error.message };
  const handler = handlers.get(url);
  if (!handler) throw new Error(`no route ${url}`);
  const reply = { status: 200, payload: undefined as unknown };
  const fake = {
    code(status: number) {
      reply.status = status;
      return fake;
    },
    send(payload?: unknown) {
      reply.payload = payload;
      return fake;
    },
  };
  await handler({ body: parsed.value } as FastifyRequest, fake as unknown as FastifyReply);
  return reply.status >= 400 ? { status: reply.status, reason: refusalOf(reply.payload) } : reply;
}

/** The answer's properties: no 5xx, a refusal says why, and so does every refusal the routes reported. */
function judged(floor: Floor, { status, reason }: Answer): 'accepted' | 'refused' {
  if (status >= 500) throw new Error(`HTTP ${status}: ${String(reason).slice(0, 200)}`);
  if (status >= 400) clearReason(reason, `HTTP ${status}`);
  for (const refusal of floor.refusals) clearReason(refusal, 'floor refused');
  return status < 400 ? 'accepted' : 'refused';
}

/** The supervisor's valid decision after the hostile request: it must reach the table. */
async function decisionTaken(floor: Floor, answer: (input: HttpInput) => Promise<Answer>): Promise<void> {
  const before = floor.inputs.length;
  const body = Buffer.from(JSON.stringify({ token: floor.token, decision: 'continue' }));
  const { status } = await answer({ url: FLOOR_ACTIONS.decide, contentType: JSON_TYPE, body });
  holds(status === 202 && floor.inputs.length === before + 1, 'the valid decision after it was lost');
}

const jsonBody = (rand: Rand): Buffer => hostileJsonText(rand, SAMPLES);

export const floorRoutes: Target<HttpInput> = {
  name: 'floor-routes',
  family: 'display-http',
  generate: (rand) => ({ url: pick(rand, ROUTES), contentType: JSON_TYPE, body: jsonBody(rand) }),
  async check(input) {
    const current = await floorServer();
    current.refusals.length = 0;
    const verdict = judged(current, await handled(current, input));
    await decisionTaken(current, (request) => handled(current, request));
    return verdict;
  },
  show: ({ url, body }) => `POST ${url} ${printable(body)}`,
};

export const floorHttp: Target<HttpInput> = {
  name: 'floor-http',
  family: 'display-http',
  generate(rand) {
    const body = rand() < 0.002 ? randomBytes(rand, between(rand, 1_048_577, 1_200_000)) : jsonBody(rand);
    return {
      url: rand() < 0.97 ? pick(rand, ROUTES) : pick(rand, ['/api/floor/', '/api/floor/sign-in/..', '/%ff']),
      contentType: rand() < 0.8 ? JSON_TYPE : pick(rand, CONTENT_TYPES),
      body,
    };
  },
  async check(input) {
    const current = await floorServer();
    current.refusals.length = 0;
    const answer = await injected(current, input);
    const verdict = judged(current, answer);
    if (inProcess(input)) {
      const { status } = await handled(current, input);
      holds(
        status === answer.status,
        `the handlers in process answered ${status}, the server ${answer.status}`,
      );
    }
    await decisionTaken(current, (request) => injected(current, request));
    return verdict;
  },
  show: ({ url, contentType, body }) =>
    `POST ${url} (${contentType || 'no content type'}) ${printable(body)}`,
};
