import Fastify, { type FastifyInstance } from 'fastify';
import { NEVER } from 'rxjs';
import { registerFloorRoutes } from '../src/display/floor-routes.js';
import { FLOOR_ACTIONS } from '../src/display/protocol.js';
import { hashSecret } from '../src/supervisor/credentials.js';
import { FloorDesk } from '../src/supervisor/desk.js';
import { clearReason, holds, printable, type Target } from './harness.js';
import { hostileJsonText } from './json.js';
import { between, pick, randomBytes } from './mutate.js';

/**
 * The display's floor API (src/display/floor-routes.ts) through Fastify's `inject`: hostile bodies on
 * each route (broken JSON, wrong types, unknown keys, `__proto__`, deep nesting, bodies over the limit,
 * wrong content types), each followed by a supervisor's valid decision, which must reach the table. A
 * request is answered below 400, or refused with a 4xx naming why; a 5xx is a route that threw.
 *
 * The desk is locked before the run (one wrong PIN, `maxFailures` 1), so a well-formed PIN costs no
 * scrypt check: the run measures the routes, not the hash. Inject is slow: this target takes fewer inputs.
 */

const PIN = '2468';
const ROUTES = Object.values(FLOOR_ACTIONS);
const SAMPLES = [{ pin: '1234' }, { token: 'tok', decision: 'void' }, { token: 'tok' }];
const CONTENT_TYPES = ['application/json', 'text/plain', 'application/json; charset=latin1', 'x/y', ''];

export interface HttpInput {
  url: string;
  contentType: string;
  body: Buffer;
}

interface Floor {
  server: FastifyInstance;
  token: string;
  inputs: unknown[];
  refusals: string[];
}

let floor: Promise<Floor> | undefined;

/** One server for the run: signed in once, then locked against every PIN. */
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
    registerFloorRoutes(server, {
      desk,
      badges: NEVER,
      input: (event) => inputs.push(event),
      now: () => 42,
      refused: (_, reason) => refusals.push(reason),
      broadcast: () => undefined,
      recentHands: () => [],
    });
    await server.ready();
    return { server, token: signedIn.signedIn.token, inputs, refusals };
  })();
  return floor;
}

/** Why a 4xx says it refused: the route's `error`, Fastify's `message`, or the desk's `refused`. */
function refusalOf(body: string): unknown {
  const parsed: unknown = JSON.parse(body);
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { error, message, refused } = parsed as Record<string, unknown>;
  return typeof refused === 'string' ? refused : (message ?? error);
}

export const floorHttp: Target<HttpInput> = {
  name: 'floor-http',
  family: 'display-http',
  generate(rand) {
    const body =
      rand() < 0.002
        ? randomBytes(rand, between(rand, 1_048_577, 1_200_000))
        : hostileJsonText(rand, SAMPLES);
    return {
      url: rand() < 0.97 ? pick(rand, ROUTES) : pick(rand, ['/api/floor/', '/api/floor/sign-in/..', '/%ff']),
      contentType: rand() < 0.8 ? 'application/json' : pick(rand, CONTENT_TYPES),
      body,
    };
  },
  async check({ url, contentType, body }) {
    const { server, token, inputs, refusals } = await floorServer();
    refusals.length = 0;
    const headers = contentType ? { 'content-type': contentType } : {};
    const response = await server.inject({ method: 'POST', url, headers, payload: body });
    if (response.statusCode >= 500)
      throw new Error(`HTTP ${response.statusCode}: ${response.body.slice(0, 200)}`);
    if (response.statusCode >= 400) clearReason(refusalOf(response.body), `HTTP ${response.statusCode}`);
    for (const reason of refusals) clearReason(reason, 'floor refused');
    const before = inputs.length;
    const decision = await server.inject({
      method: 'POST',
      url: FLOOR_ACTIONS.decide,
      payload: { token, decision: 'continue' },
    });
    holds(
      decision.statusCode === 202 && inputs.length === before + 1,
      'the valid decision after it was lost',
    );
    return response.statusCode < 400 ? 'accepted' : 'refused';
  },
  show: ({ url, contentType, body }) =>
    `POST ${url} (${contentType || 'no content type'}) ${printable(body)}`,
};
