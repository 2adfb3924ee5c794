import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import { z } from 'zod';
import { describeIssues } from '../config/problems.js';
import type { SourceEvent } from '../domain/events.js';
import { FLOOR_DECISIONS } from '../domain/events.js';
import type { HaltClearing } from '../outputs/health.js';
import type { FloorDesk } from '../supervisor/desk.js';
import { type DisplayMessage, FLOOR_ACTIONS, PIN, type RecentHand } from './protocol.js';

export interface FloorRoutesOptions {
  desk: FloorDesk;
  /** Badge UIDs read by a keypad in badge mode. */
  badges: Observable<string>;
  input(event: SourceEvent): void;
  now(): number;
  /** A sign-in or a floor action refused, with why (never the PIN or badge). */
  refused(source: string, reason: string): void;
  broadcast(message: DisplayMessage): void;
  /** The last hands' incidents, newest first, from the journal. */
  recentHands(limit: number): RecentHand[];
  /**
   * A signed-in supervisor clears the table's halt (`JournaledTable.clearHalt`); without it there is
   * no halt to clear.
   */
  clearHalt?(supervisor: string): HaltClearing;
}

const token = z.string().min(1).max(64);
const BODIES = {
  signIn: z.strictObject({ pin: z.string().regex(PIN, 'a PIN is 4 to 12 digits') }),
  decide: z.strictObject({ token, decision: z.enum(FLOOR_DECISIONS) }),
  signOut: z.strictObject({ token }),
  recentHands: z.strictObject({ token }),
  clearHalt: z.strictObject({ token }),
};

/** How many past hands a supervisor reviews on the display. */
const RECENT_HANDS = 10;

const REFUSED_STATUS = { wrong: 401, locked: 423, busy: 429 } as const;

/**
 * The supervisor's actions on the display: sign in with a PIN (or a badge at the keypad), then sign
 * the floor's decision. Each decision reaches the table as a dealer input carrying the supervisor's
 * name, so the journal records who did it; so does the clearing of a halt, in its own marker.
 */
export function registerFloorRoutes(server: FastifyInstance, options: FloorRoutesOptions): void {
  const { desk } = options;
  const refuse = (reply: FastifyReply, status: number, reason: string) => {
    options.refused('floor', reason);
    return reply.code(status).send({ error: reason });
  };
  const badges = options.badges.subscribe((badge) => {
    void desk.signIn({ badge }).then((outcome) => {
      if ('signedIn' in outcome) options.broadcast({ type: 'floor', session: outcome.signedIn });
      else options.refused('floor', `badge refused: ${outcome.refused}`);
    });
  });
  server.addHook('onClose', async () => badges.unsubscribe());

  const route = <K extends keyof typeof BODIES>(
    action: K,
    handle: (body: z.output<(typeof BODIES)[K]>, reply: FastifyReply) => Promise<unknown>,
  ) =>
    server.post(FLOOR_ACTIONS[action], async (request, reply) => {
      const body = BODIES[action].safeParse(request.body);
      if (!body.success) return refuse(reply, 400, describeIssues(body.error.issues, '', '; '));
      return handle(body.data as z.output<(typeof BODIES)[K]>, reply);
    });

  route('signIn', async ({ pin }, reply) => {
    const outcome = await desk.signIn({ pin });
    if ('signedIn' in outcome) return reply.send(outcome.signedIn);
    options.refused('floor', `PIN refused: ${outcome.refused}`);
    return reply.code(REFUSED_STATUS[outcome.refused]).send(outcome);
  });
  route('decide', async ({ token, decision }, reply) => {
    const supervisor = desk.who(token);
    if (supervisor === null) return refuse(reply, 401, 'no supervisor signed in (or the session ended)');
    options.input({ type: 'dealer', t: options.now(), input: 'floor-decision', value: decision, supervisor });
    return reply.code(202).send({ taken: decision, supervisor });
  });
  route('recentHands', async ({ token }, reply) => {
    if (desk.who(token) === null) return refuse(reply, 401, 'no supervisor signed in (or the session ended)');
    return reply.send(options.recentHands(RECENT_HANDS));
  });
  route('clearHalt', async ({ token }, reply) => {
    const supervisor = desk.who(token);
    if (supervisor === null) return refuse(reply, 401, 'no supervisor signed in (or the session ended)');
    const outcome = options.clearHalt?.(supervisor) ?? {
      refused: 'not-halted',
      error: 'the table is not halted',
    };
    if ('refused' in outcome) {
      options.refused('floor', `halt clearing refused: ${outcome.error}`);
      return reply.code(409).send({ code: outcome.refused, error: outcome.error });
    }
    return reply.code(202).send({ taken: 'clear-halt', supervisor });
  });
  route('signOut', async ({ token }, reply) => {
    desk.signOut(token);
    return reply.code(204).send();
  });
}
