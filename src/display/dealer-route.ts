import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { describeIssues } from '../config/problems.js';
import type { SignIn } from '../supervisor/desk.js';
import { DISPLAY_ACTIONS, PIN } from './protocol.js';

export type DealerSignIn = { dealer: string } | Extract<SignIn, { refused: unknown }>;

const body = z.strictObject({ pin: z.string().regex(PIN, 'a PIN is 4 to 12 digits') });

const REFUSED_STATUS = { wrong: 401, locked: 423, busy: 429 } as const;

/**
 * A dealer signs in for their down with their PIN on the table's screen (a badge at the keypad does it
 * too, in the controller): the public state and the journal then carry their name.
 */
export function registerDealerSignIn(
  server: FastifyInstance,
  { signIn, refused }: { signIn(pin: string): Promise<DealerSignIn>; refused(reason: string): void },
): void {
  server.post(DISPLAY_ACTIONS.dealerSignIn, async (request, reply) => {
    const parsed = body.safeParse(request.body);
    if (!parsed.success) {
      const error = `a dealer's sign-in refused: ${describeIssues(parsed.error.issues, '', '; ')}`;
      refused(error);
      return reply.code(400).send({ error });
    }
    const outcome = await signIn(parsed.data.pin);
    if ('dealer' in outcome) return reply.send(outcome);
    refused(`dealer PIN refused: ${outcome.refused}`);
    return reply.code(REFUSED_STATUS[outcome.refused]).send(outcome);
  });
}
