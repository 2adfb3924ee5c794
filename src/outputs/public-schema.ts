import { z } from 'zod';
import { HAND_CATEGORIES } from '../domain/hand-rank.js';
import { SEAT_STATUSES } from '../domain/seats.js';
import { INCIDENTS, PROMPTS, RULINGS } from '../rules/types.js';

/**
 * The public view's shapes as schemas: the MQTT API's payloads (AsyncAPI is generated from them) and
 * the display's messages. Nothing here can carry a hole card's identity: see `public.ts`.
 */

const text = z.object({ fr: z.string(), en: z.string() });

const step = z.object({
  code: z.string().describe('stable step code, e.g. COLLECT_CARDS'),
  text,
  check: z.string().optional().describe('how sensors can see the step done; absent: the dealer confirms it'),
});

export const publicCard = z.union([
  z.object({ face: z.string().nullable(), deck: z.string().nullable(), uid: z.string() }),
  z.object({ hidden: z.literal(true) }).describe('a card face down on a seat: never named'),
]);

export const publicIncident = z.object({
  kind: z.literal('incident'),
  at: z.number().int().describe('sequence number of the event the incident is about'),
  incident: z.enum(INCIDENTS),
  ruling: z.enum(RULINGS),
  seats: z.array(z.number().int()),
  cards: z.array(publicCard),
  rule: z.string().describe('profile and article, e.g. main-event-2014 §III.e'),
  floor: z.boolean().describe('the procedure happens under the floor’s eye'),
  reason: text.optional(),
  steps: z.array(step),
});

export const publicPrompt = z.object({
  kind: z.literal('prompt'),
  at: z.number().int(),
  prompt: z.enum(PROMPTS),
  seats: z.array(z.number().int()),
  rule: z.string(),
  steps: z.array(step),
  button: z
    .number()
    .int()
    .optional()
    .describe('NEXT_HAND: the hand started, with the fields of its hand.start'),
  sb: z.number().int().nullable().optional().describe('NEXT_HAND: null when no one owes the small blind'),
  bb: z.number().int().optional(),
  players: z.array(z.number().int()).optional(),
  blinds: z.tuple([z.number(), z.number()]).optional(),
  ante: z.number().optional(),
  deck: z.string().optional(),
  posted: z.array(z.number().int()).optional().describe('NEXT_HAND: newcomers who put the big blind in'),
});

/** A pot settled: it names the tabled hands' categories only, never a card, so it is public as it is. */
export const publicAward = z.object({
  kind: z.literal('award'),
  at: z.number().int().describe('sequence number of the event that settled the pot'),
  pot: z.number().int().describe('0 the main pot, then the side pots by level, lowest first'),
  amount: z.number().nullable().describe('the pot before the rake; null when an amount is unknown'),
  eligible: z.array(z.number().int()),
  winners: z.array(z.number().int()),
  shares: z.record(z.string(), z.number()).nullable(),
  hands: z.record(z.string(), z.enum(HAND_CATEGORIES)).describe('tabled hands only'),
  rule: z.string(),
  seats: z.array(z.number().int()).describe('the winners'),
  steps: z.array(step).describe('none: an award has no procedure'),
});

export const publicOutputSchema = z.discriminatedUnion('kind', [publicIncident, publicPrompt, publicAward]);

const street = z.enum(['preflop', 'flop', 'turn', 'river']);

/**
 * What the controller says beside the machine's state, for the floor (issue 20): the profile, the
 * dealer of the down, since when the open incident or the dealer's call has waited and which supervisor
 * answered it, and the devices' health. Each is absent where the controller has nothing to say.
 */
export const tableExtras = z.object({
  profile: z.string().optional().describe('the rule profile the table plays'),
  dealer: z
    .object({
      name: z.string(),
      since: z.number().int().describe('when they signed in (ms since the epoch)'),
      afterHand: z
        .number()
        .int()
        .describe('the hand count at sign-in: the hands numbered above it are theirs'),
    })
    .optional()
    .describe('the dealer of the down, signed in at the table'),
  call: z
    .object({
      key: z.string().describe('names the open incident or dealer’s call: `<hand>:<at>` or `<hand>:floor`'),
      since: z.number().int().describe('when the table first showed it (ms since the epoch)'),
      coming: z
        .object({ supervisor: z.string(), at: z.number().int() })
        .optional()
        .describe('the supervisor who answered “on my way”, and when'),
    })
    .optional()
    .describe('the open incident or the dealer’s call, as the floor answers it'),
  devices: z
    .array(
      z.object({
        id: z.string(),
        kind: z.string(),
        status: z.enum(['online', 'offline', 'fault', 'unknown']),
      }),
    )
    .optional()
    .describe('the table’s devices and their health'),
});

export const publicStateSchema = z.object({
  phase: z.enum(['idle', 'dealing', 'betting', 'showdown', 'ended', 'void', 'floor']),
  street: street.nullable(),
  hand: z.number().int().nullable(),
  button: z.number().int().nullable(),
  blinds: z.object({ sb: z.number().int().nullable(), bb: z.number().int() }).nullable(),
  seats: z.array(
    z.object({
      seat: z.number().int(),
      cards: z.number().int().describe('hole cards on the seat, counted, never named'),
      status: z.enum(['in-hand', 'folded', 'all-in']),
    }),
  ),
  board: z.array(publicCard),
  burn: z.array(publicCard),
  dead: z.array(publicCard).describe('exposed and killed cards out of play'),
  pot: z.number(),
  incident: publicIncident.extend({ step: z.number().int() }).nullable(),
  seating: z
    .array(
      z.object({
        seat: z.number().int(),
        status: z.enum(SEAT_STATUSES),
        name: z.string().optional(),
      }),
    )
    .describe('seats the dealer marked between hands: who is seated, away, gone or waiting to come in'),
  level: z
    .object({ blinds: z.tuple([z.number(), z.number()]), ante: z.number() })
    .describe('the blind level in force for the next hand'),
  nextHand: z
    .object({
      button: z.number().int(),
      sb: z.number().int().nullable(),
      bb: z.number().int(),
      players: z.array(z.number().int()),
      blinds: z.tuple([z.number(), z.number()]),
      ante: z.number().optional(),
      posted: z.array(z.number().int()).optional(),
      rule: z.string(),
    })
    .nullable()
    .describe('the hand `next-hand` would start now, while no hand is in play; null without two players'),
  ...tableExtras.shape,
});
