import { z } from 'zod';
import { chipUnitSchema, levelSchema, rakeSchema } from '../config/config.js';
import type { CardRef } from '../domain/cards.js';
import type { DeckRegistry, ScenarioDeck } from '../domain/deck-registry.js';
import {
  ACTS,
  DEALER_INPUTS,
  DEVICE_ROLES,
  type DeviceStatus,
  type DomainEvent,
  type DomainEventType,
  FLOOR_DECISIONS,
  levelOf,
  roleOrLegacyIdRule,
  SHUFFLER_STATES,
} from '../domain/events.js';
import { MAX_SEATS, SEAT_STATUSES } from '../domain/seats.js';
import type { ChipZone, Zone } from '../domain/zones.js';
import { identify } from '../normaliser/identify.js';
import { PROFILE_IDS, profileById } from '../rules/index.js';
import { STEP_TEXTS } from '../rules/step-texts.js';
import {
  INCIDENTS,
  type IncidentCode,
  PROMPTS,
  type PromptCode,
  RULINGS,
  type RulingCode,
} from '../rules/types.js';
import { describeIssue, show } from './errors.js';
import type { CardNotation } from './notation.js';

/** `settle` is the clock's, never written in a scenario. */
export type ScenarioEventType = Exclude<DomainEventType, 'settle'>;

/** An event as a scenario item describes it: its type is the item's key, `t` and `seq` its place in the file. */
export type EventBody<T extends ScenarioEventType = ScenarioEventType> = T extends ScenarioEventType
  ? Omit<Extract<DomainEvent, { type: T }>, 'type' | 't' | 'seq'>
  : never;

interface ExpectationBase {
  at?: number;
  seats?: number[];
}
export interface IncidentExpectation extends ExpectationBase {
  kind: 'incident';
  incident: IncidentCode;
  ruling: RulingCode;
  cards?: CardRef[];
  /** The procedure's steps the sensors ticked and those the dealer confirmed, over the rest of the file. */
  steps?: StepsExpectation;
}
/** Step codes of the incident's procedure, each list compared as a set where the file gives it. */
export interface StepsExpectation {
  sensed?: string[];
  confirmed?: string[];
}
/** The hand a NEXT_HAND prompt started, as far as the file gives it. */
export interface HandExpectation {
  button?: number;
  sb?: number | null;
  bb?: number;
  players?: number[];
  blinds?: [number, number];
}
export interface PromptExpectation extends ExpectationBase, HandExpectation {
  kind: 'prompt';
  prompt: PromptCode;
}
/** A pot the file expects awarded (DESIGN.md: an item with `pot` and no `incident`). */
export interface AwardExpectation {
  kind: 'award';
  at?: number;
  pot: number;
  winners: number[];
  amount?: number | null;
  shares?: Record<number, number> | null;
}
export type Expectation = IncidentExpectation | PromptExpectation | AwardExpectation;

const DEVICE_STATUSES = ['online', 'offline', 'fault'] as const satisfies readonly DeviceStatus['status'][];

const DECK_ID = /^[A-Za-z0-9_-]+$/;
const MIN_SEATS = 2;
const DEFAULT_ORDER_WINDOW_MS = 300;

function isPrompt(code: string): code is PromptCode {
  return (PROMPTS as readonly string[]).includes(code);
}

/** The object without its undefined fields: an expectation lists only what the file gives. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Reports each repeated item of a list (the same `key`) at its index. */
function distinct<T>(label: (value: T) => string, key: (value: T) => unknown = (value) => value) {
  return (list: readonly T[], ctx: z.core.$RefinementCtx<T[]>): void => {
    const keys = list.map(key);
    list.forEach((value, i) => {
      if (keys.indexOf(keys[i]) < i) {
        ctx.addIssue({ code: 'custom', path: [i], message: `${label(value)} is listed twice`, input: value });
      }
    });
  };
}

/** A deck id or a back colour: letters, digits, - and _ (no `:` or `#`, which card codes use). */
const label = (what: string) =>
  z.string().regex(DECK_ID, {
    error: (issue) => `${show(issue.input)} is not ${what} (letters, digits, - and _)`,
  });
const deckId = label('a deck id');

const namedDeck = z.strictObject({ id: deckId, back: label('a back colour') });

/** A deck is read by the schema of the form it is written in, so that its error is that form's own. */
const deckEntry = z.unknown().transform((entry, ctx): string | ScenarioDeck => {
  if (typeof entry !== 'string' && !z.core.util.isPlainObject(entry)) {
    ctx.addIssue({
      code: 'custom',
      message: `${show(entry)} is not a deck (an id, or { id, back })`,
      input: entry,
    });
    return z.NEVER;
  }
  const result = (typeof entry === 'string' ? deckId : namedDeck).safeParse(entry, { error: describeIssue });
  if (result.success) return result.data;
  for (const { path, message, input } of result.error.issues) {
    ctx.addIssue({ code: 'custom', path, message, input });
  }
  return z.NEVER;
});

/** The id of a `decks` entry, whichever form it is written in. */
export function deckIdOf(deck: string | ScenarioDeck): string {
  return typeof deck === 'string' ? deck : deck.id;
}

/** The part of a scenario read before its events: the table the events are judged against. */
export const documentSchema = z.strictObject({
  name: z.string().min(1),
  profile: z.string().transform((id, ctx) => {
    const profile = profileById(id);
    if (profile) return profile;
    ctx.addIssue({
      code: 'custom',
      message: `${show(id)} is not a profile (${PROFILE_IDS.join(', ')})`,
      input: id,
    });
    return z.NEVER;
  }),
  table: z.strictObject({
    seats: z.int().min(MIN_SEATS).max(MAX_SEATS),
    orderWindowMs: z.number().nonnegative().default(DEFAULT_ORDER_WINDOW_MS),
    levels: z.array(levelSchema).optional(),
    chipUnit: chipUnitSchema.optional(),
    rake: rakeSchema.optional(),
  }),
  decks: z
    .array(deckEntry)
    .min(1)
    .superRefine((decks, ctx) => {
      distinct((entry) => `deck ${deckIdOf(entry)}`, deckIdOf)(decks, ctx);
      // Plain ids alternate two backs that have no name: a named back cannot be one of them.
      const plain = typeof decks[0] === 'string';
      const other = decks.findIndex((entry) => (typeof entry === 'string') !== plain);
      if (other >= 0) {
        const message = 'either every deck is a plain id or every deck is { id, back }, not both';
        ctx.addIssue({ code: 'custom', path: [other], message, input: decks[other] });
      }
    }),
  events: z.array(z.unknown()),
  expect: z.array(z.unknown()).default([]),
});

/** The table a scenario's events are judged against. */
export interface TableContext {
  seats: number;
  /** The scenario's decks, as listed (the registry holds them too, but lists them at a cost). */
  decks: readonly string[];
  registry: DeckRegistry;
  notation: CardNotation;
  /** Number of events in the file, so an expectation cannot point past the last one. */
  eventCount: number;
}

/**
 * The scenario being read. The schemas below are built once (building them cost more than reading a small
 * scenario) and zod hands a schema no context of its own: they read the table from here, which
 * `againstTable` sets around one synchronous read.
 */
let current: TableContext | undefined;

/** Runs `read` with the schemas judging against `table`. */
export function againstTable<T>(table: TableContext, read: () => T): T {
  const outer = current;
  current = table;
  try {
    return read();
  } finally {
    current = outer;
  }
}

function table(): TableContext {
  if (current === undefined) throw new Error('a scenario schema ran outside againstTable');
  return current;
}

const seatError = (n: number) => `seat ${n} is out of range (table has ${table().seats} seats)`;
const seat = z
  .int()
  .refine((n) => n >= 1 && n <= table().seats, { error: (issue) => seatError(Number(issue.input)) });

/** `seat:N`/`bet:N` for seat N of the table, or one of the named zones. */
const zone = <P extends string, Named extends string>(prefix: P, named: readonly Named[]) =>
  z.string().transform((text, ctx): Named | `${P}:${number}` => {
    if ((named as readonly string[]).includes(text)) return text as Named;
    const digits = text.startsWith(`${prefix}:`) ? text.slice(prefix.length + 1) : '';
    const n = Number(digits);
    const problem = !/^[1-9][0-9]*$/.test(digits)
      ? `${show(text)} is not a zone (${prefix}:1-${prefix}:${table().seats}, ${named.join(', ')})`
      : n > table().seats
        ? seatError(n)
        : undefined;
    // The digits are as the zone is written (no leading zero): the text is the zone.
    if (problem === undefined) return text as `${P}:${number}`;
    ctx.addIssue({ code: 'custom', message: problem, input: text });
    return z.NEVER;
  });
const cardZone: z.ZodType<Zone, unknown> = zone('seat', ['board', 'burn', 'muck']);
const chipZone: z.ZodType<ChipZone, unknown> = zone('bet', ['pot', 'tray']);

// A copy deck is known to the table as the deck it plays as (`DeckRegistry.registerDeck`).
const deck = z
  .string()
  .refine((id) => table().decks.includes(id), {
    error: (issue) => `deck ${show(issue.input)} is not in decks (${table().decks.join(', ')})`,
  })
  .transform((id) => table().registry.playsAs(id) ?? id);
const amount = z.number().nonnegative();
const uid = z.string().transform((code, ctx) => {
  const resolved = table().notation.uidOf(code);
  if ('uid' in resolved) return resolved.uid;
  ctx.addIssue({ code: 'custom', message: resolved.error, input: code });
  return z.NEVER;
});
// Cards outside a tag read (dealer input, shuffler lists, expectations) still go through the registry.
const card = uid.transform((tag) => table().registry.lookup(tag));
const cards = z.array(card);

const tagRead = z
  .strictObject({ zone: cardZone, card: uid })
  .transform((read) => identify(table().registry, { uid: read.card, zone: read.zone }));

/**
 * Schemas of event bodies, judged against the table of the scenario being read (`againstTable`). The event
 * is made of the body by the loader, not by a transform here: zod's transforms of whole objects cost more
 * than all the checks of a body.
 */
export const eventSchemas: { [T in ScenarioEventType]: z.ZodType<EventBody<T>, unknown> } = {
  'hand.start': z
    .strictObject({
      button: seat,
      players: z
        .array(seat)
        .min(2)
        .superRefine(distinct((player) => `seat ${player}`)),
      blinds: z.tuple([amount, amount]),
      ante: amount.optional(),
      deck: deck.optional(),
      sb: seat.nullable().optional(),
      bb: seat.optional(),
      allIn: z.array(seat).optional(),
    })
    .superRefine((hand, ctx) => {
      for (const blind of ['sb', 'bb'] as const) {
        const blindSeat = hand[blind];
        if (blindSeat != null && !hand.players.includes(blindSeat)) {
          ctx.addIssue({
            code: 'custom',
            path: [blind],
            message: `seat ${blindSeat} is not one of the players`,
          });
        }
      }
      for (const [i, allInSeat] of (hand.allIn ?? []).entries()) {
        if (!hand.players.includes(allInSeat)) {
          ctx.addIssue({
            code: 'custom',
            path: ['allIn', i],
            message: `seat ${allInSeat} is not one of the players`,
          });
        }
      }
    }),
  'card.seen': tagRead,
  'card.gone': tagRead,
  shuffler: z.strictObject({
    state: z.enum(SHUFFLER_STATES),
    deck: deck.optional().transform((id) => id ?? null),
    count: z.int().nonnegative().optional(),
    faceUp: cards.default([]),
    missing: cards.default([]),
    extra: cards.default([]),
  }),
  button: z.strictObject({ seat }),
  chips: z.strictObject({ zone: chipZone, amount }),
  action: z.strictObject({ seat, act: z.enum(ACTS), amount: amount.optional() }),
  dealer: z
    .strictObject({
      input: z.enum(DEALER_INPUTS),
      zone: cardZone.optional(),
      card: card.optional(),
      by: z.enum(['dealer', 'player']).optional(),
      value: z.string().optional(),
      supervisor: z.string().min(1).max(64).optional(),
    })
    .refine((input) => input.input !== 'floor-decision' || FLOOR_DECISIONS.some((v) => v === input.value), {
      message: `a floor decision needs value: ${FLOOR_DECISIONS.join(' | ')}`,
      path: ['value'],
    })
    .refine((input) => input.input !== 'level' || levelOf(input.value) !== null, {
      message: 'a level needs value: sb/bb or sb/bb/ante (e.g. 100/200/25)',
      path: ['value'],
    }),
  // An item names the device and may give its role; without one the role is read from the name by the
  // rule that reads journals of earlier versions (`roleOrLegacyIdRule`: `rfid…` is a card reader).
  device: z
    .strictObject({
      device: z.string().min(1),
      role: z.enum(DEVICE_ROLES).optional(),
      status: z.enum(DEVICE_STATUSES),
      detail: z.string().optional(),
    })
    .transform((device) => {
      const role = roleOrLegacyIdRule(device);
      return role === undefined ? device : { ...device, role };
    }),
  seat: z.strictObject({ seat, status: z.enum(SEAT_STATUSES), name: z.string().max(40).optional() }),
};

const codeError = (what: string) => ({
  error: (issue: { input: unknown }) => `${show(issue.input)} is not ${what} (see RULINGS.md)`,
});

const stepCode = z.string().refine((code) => Object.hasOwn(STEP_TEXTS, code), {
  error: (issue) => `${show(issue.input)} is not a step code (see src/rules/step-texts.ts)`,
});
/**
 * `steps: { sensed: [...], confirmed: [...] }`: of the incident's procedure, the steps that went on by
 * what the sensors showed, and those a `dealer: confirm` moved on from, each list the whole of it
 * (a step missing from `sensed` did not tick itself). A step in neither was never done.
 */
const stepsSchema = z
  .strictObject({
    sensed: z.array(stepCode).superRefine(distinct(show)).optional(),
    confirmed: z.array(stepCode).superRefine(distinct(show)).optional(),
  })
  .superRefine(({ sensed = [], confirmed = [] }, ctx) => {
    for (const [i, code] of confirmed.entries()) {
      if (sensed.includes(code)) {
        const message = `${show(code)} is in sensed and in confirmed: a step is done once`;
        ctx.addIssue({ code: 'custom', path: ['confirmed', i], message, input: code });
      }
    }
  });
/** Schema of an expectation, judged against the scenario being read (`againstTable`). */
export const expectationSchema: z.ZodType<Expectation, unknown> = z
  .strictObject({
    at: z
      .int()
      .nonnegative()
      .refine((at) => at < table().eventCount, {
        error: (issue) => `there is no event ${show(issue.input)} (the file has ${table().eventCount})`,
      })
      .optional(),
    // ALL_IN_SHOWDOWN is accepted as an incident too: the catalogue lists it among them.
    incident: z.enum([...INCIDENTS, ...PROMPTS], codeError('an incident code')).optional(),
    prompt: z.enum(PROMPTS, codeError('a prompt code')).optional(),
    ruling: z.enum(RULINGS, codeError('a ruling code')).optional(),
    seats: z.array(seat).optional(),
    cards: cards.optional(),
    steps: stepsSchema.optional(),
    button: seat.optional(),
    sb: seat.nullable().optional(),
    bb: seat.optional(),
    players: z.array(seat).optional(),
    blinds: z.tuple([amount, amount]).optional(),
    pot: z.int().nonnegative().optional(),
    winners: z.array(seat).min(1).optional(),
    amount: amount.nullable().optional(),
    shares: z.record(z.string().regex(/^\d+$/), amount).nullable().optional(),
  })
  .transform(({ incident, prompt, ruling, pot, winners, amount, shares, ...rest }, ctx): Expectation => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message, input: rest });
      return z.NEVER;
    };
    const awardGiven = [winners, amount, shares].some((value) => value !== undefined);
    if (pot !== undefined || awardGiven) {
      const others = Object.entries(rest).filter(([key, value]) => key !== 'at' && value !== undefined);
      if (incident !== undefined || prompt !== undefined || ruling !== undefined || others.length > 0)
        return fail('an award names its pot, winners, amount, shares and at only');
      if (pot === undefined || winners === undefined) return fail('an award needs its pot and winners');
      const seatShares = shares && Object.fromEntries(Object.entries(shares).map(([k, v]) => [Number(k), v]));
      return definedOnly({ kind: 'award', at: rest.at, pot, winners, amount, shares: seatShares });
    }
    const code = incident ?? prompt;
    if (code === undefined || (incident !== undefined && prompt !== undefined)) {
      return fail('needs either incident or prompt');
    }
    const { button, sb, bb, players, blinds, ...report } = rest;
    const hand = { button, sb, bb, players, blinds };
    const handGiven = Object.values(hand).some((value) => value !== undefined);
    if (isPrompt(code)) {
      if (ruling !== undefined || rest.cards !== undefined) {
        return fail('a prompt has no ruling and no cards');
      }
      if (rest.steps !== undefined)
        return fail("a prompt's steps are not followed: only an incident has steps");
      if (handGiven && code !== 'NEXT_HAND') return fail('only a NEXT_HAND prompt names a hand');
      return definedOnly({ kind: 'prompt', prompt: code, ...report, ...hand });
    }
    if (handGiven) return fail('an incident names no button, blinds or players');
    if (ruling === undefined) return fail(`${code} needs a ruling`);
    return { kind: 'incident', incident: code, ruling, ...report };
  });
