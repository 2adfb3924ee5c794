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

/** A card as the table may name it: face up (board, burn, dead, tabled) or named by a ruling. */
const namedCard = z.object({ face: z.string().nullable(), deck: z.string().nullable(), uid: z.string() });

export const publicCard = z.union([
  namedCard,
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

/** A pot on the table: what BUILD_SIDE_POTS lists, and what the showdown view starts from. */
const potLine = z.object({
  pot: z.number().int().describe('0 the main pot, then the side pots by level, lowest first'),
  amount: z.number().nullable().describe('the pot before the rake; null when an amount is unknown'),
  eligible: z.array(z.number().int()).describe('the players still in the hand who paid up to its level'),
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
  amount: z
    .number()
    .nullable()
    .optional()
    .describe('RETURN_UNCALLED: the part no one called (null: an amount it depends on is unknown)'),
  pots: z.array(potLine).optional().describe('BUILD_SIDE_POTS: every pot, main pot first'),
  ranking: z
    .array(z.array(z.number().int()))
    .optional()
    .describe('SHOWDOWN_RANKING: the tabled hands best first, tied seats together'),
  hands: z.record(z.string(), z.enum(HAND_CATEGORIES)).optional().describe('SHOWDOWN_RANKING: tabled hands'),
});

/** A pot settled: it names the tabled hands' categories only, never a card, so it is public as it is. */
export const publicAward = z.object({
  kind: z.literal('award'),
  at: z.number().int().describe('sequence number of the event that settled the pot'),
  ...potLine.shape,
  winners: z.array(z.number().int()),
  shares: z.record(z.string(), z.number()).nullable(),
  hands: z.record(z.string(), z.enum(HAND_CATEGORIES)).describe('tabled hands only'),
  rule: z.string(),
  seats: z.array(z.number().int()).describe('the winners'),
  steps: z.array(step).describe('none: an award has no procedure'),
});

export const publicOutputSchema = z.discriminatedUnion('kind', [publicIncident, publicPrompt, publicAward]);

const street = z.enum(['preflop', 'flop', 'turn', 'river']);

/** A tabled hand: its cards are public once its seat has tabled them (RULINGS.md "Privacy"). */
const tabledHand = z.object({
  cards: z.array(namedCard).describe('the hole cards the seat tabled (dealer: shown)'),
  hand: z
    .object({
      category: z.enum(HAND_CATEGORIES),
      name: text.describe('as a French and an English card room say it: “Full aux rois par les sept”'),
    })
    .nullable()
    .describe('its best five with the board; null while fewer than three board cards are out'),
});

/** A pot at the showdown, with its award once it is settled. */
const showdownPot = potLine.extend({
  award: z
    .object({
      winners: z.array(z.number().int()),
      shares: z
        .record(z.string(), z.number())
        .nullable()
        .describe('what each winner gets, the rake taken; null when an amount is unknown'),
      odd: z
        .record(z.string(), z.number())
        .nullable()
        .describe('the odd chips: what a winner gets over the smallest share'),
      rake: z.number().nullable().describe('the house’s cut of this pot (0 without a rake)'),
    })
    .nullable()
    .describe('null until the pot is settled: no winner is named before it'),
});

/**
 * The showdown as the dealer reads it, from the moment the last round closed (or an all-in showdown or
 * an award came). It names no untabled card and no hand but a tabled one, and no one who "would have won".
 */
const showdown = z.object({
  order: z
    .array(z.number().int())
    .nullable()
    .describe('SHOW_ORDER: the seats in the order they show; null when no order applies'),
  faceUp: z.boolean().describe('ALL_IN_SHOWDOWN: every hand is turned face up, in no order'),
  pots: z.array(showdownPot).describe('main pot first; empty when the pots cannot be layered'),
  ranking: z
    .array(z.array(z.number().int()))
    .nullable()
    .describe('SHOWDOWN_RANKING (no pot can be layered): the tabled hands best first, tied seats together'),
  pushed: z.boolean().describe('every pot was pushed to its winners'),
});

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
  betweenHands: z
    .boolean()
    .describe(
      'no hand in play (the table machine’s between-hands tag): seats are marked, the next hand started',
    ),
  street: street.nullable(),
  hand: z.number().int().nullable(),
  button: z.number().int().nullable(),
  blinds: z.object({ sb: z.number().int().nullable(), bb: z.number().int() }).nullable(),
  seats: z.array(
    z.object({
      seat: z.number().int(),
      cards: z.number().int().describe('hole cards on the seat, counted, never named'),
      status: z
        .enum(['in-hand', 'folded', 'all-in', 'mucked'])
        .describe('mucked: still in the hand, its cards thrown in the muck untabled'),
      faceUp: z
        .array(namedCard)
        .optional()
        .describe('hole cards an incident named to the table (exposed, flashed, boxed), before any tabling'),
      tabled: tabledHand.optional().describe('only once the seat has tabled its hand'),
    }),
  ),
  board: z.array(publicCard),
  burn: z.array(publicCard),
  dead: z.array(publicCard).describe('exposed and killed cards out of play'),
  pot: z.number().describe('what the pot sensor counts (0 without one)'),
  showdown: showdown.nullable(),
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
