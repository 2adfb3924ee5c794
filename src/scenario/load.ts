import { z } from 'zod';
import type { Rake } from '../domain/award-split.js';
import type { CardRef } from '../domain/cards.js';
import { DeckRegistry, RegistryError } from '../domain/deck-registry.js';
import type { DomainEvent } from '../domain/events.js';
import type { RuleProfile } from '../rules/types.js';
import type { TableConfig } from '../table/reduce.js';
import type { Level } from '../table/state.js';
import { describeIssue, ScenarioError, show } from './errors.js';
import { CardNotation } from './notation.js';
import {
  againstTable,
  deckIdOf,
  documentSchema,
  type EventBody,
  type Expectation,
  eventSchemas,
  expectationSchema,
  type ScenarioEventType,
} from './schema.js';
import { parseScenarioDocument } from './text.js';

export type { Expectation } from './schema.js';

/** A scenario file made ready to replay: its events are the domain events live sensors would have produced. */
export interface Scenario {
  name: string;
  profile: RuleProfile;
  table: { seats: number; orderWindowMs: number; levels?: Level[]; chipUnit?: number; rake?: Rake };
  /** The table the events are replayed at: seats, rulebook, window, level schedule, deck rotation. */
  config: TableConfig;
  /** The ids of the scenario's decks, as listed. */
  decks: string[];
  registry: DeckRegistry;
  events: DomainEvent[];
  expect: Expectation[];
  /** A card in the scenario's notation (`As`, `B:As`, `As#2`, `?:04A1B2C3`). */
  codeOf(card: CardRef): string;
}

/** Short forms of event keys; every other key is a domain event type. */
const SHORT_FORMS: ReadonlyMap<string, ScenarioEventType> = new Map([
  ['card', 'card.seen'],
  ['gone', 'card.gone'],
]);
const EVENT_KEYS = [...Object.keys(eventSchemas), ...SHORT_FORMS.keys()].join(', ');
/** Time between two events when an item gives no `t`. */
const DEFAULT_STEP_MS = 500;
const ITEM = z.record(z.string(), z.unknown());
const TIME = z.number().nonnegative();

/** Reads a YAML or JSON scenario. */
export function parseScenarioText(text: string, fileName: string): Scenario {
  return loadScenario(parseScenarioDocument(text, fileName), fileName);
}

/** Validates a parsed scenario document; a malformed one throws a `ScenarioError` naming the place. */
export function loadScenario(input: unknown, fileName: string): Scenario {
  const read = <T>(schema: z.ZodType<T, unknown>, value: unknown, path: readonly PropertyKey[]): T => {
    // The error map makes every parse several times slower: it only words a refusal, so it is only
    // given once there is one.
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const explained = schema.safeParse(value, { error: describeIssue });
    const issue = (explained.success ? result : explained).error.issues[0];
    throw new ScenarioError(fileName, [...path, ...(issue?.path ?? [])], issue?.message ?? 'invalid');
  };

  const doc = read(documentSchema, input, []);
  const decks = doc.decks.map(deckIdOf);
  let registry: DeckRegistry;
  try {
    registry = DeckRegistry.forScenario(doc.decks);
  } catch (error) {
    if (error instanceof RegistryError) throw new ScenarioError(fileName, ['decks'], error.message);
    throw error;
  }
  const notation = new CardNotation(registry);
  const table = {
    seats: doc.table.seats,
    decks,
    registry,
    notation,
    eventCount: doc.events.length,
  };

  let t = -DEFAULT_STEP_MS;
  const event = (item: unknown, seq: number): DomainEvent => {
    const path = ['events', seq];
    // zod copies a mapping as it checks it: it is asked only to word a refusal.
    const fields = z.core.util.isPlainObject(item) ? item : read(ITEM, item, path);
    const keys = Object.keys(fields).filter((key) => key !== 't');
    const unknown = keys.find((key) => !Object.hasOwn(eventSchemas, SHORT_FORMS.get(key) ?? key));
    if (unknown !== undefined) {
      throw new ScenarioError(fileName, path, `unknown event ${show(unknown)} (one of ${EVENT_KEYS})`);
    }
    const key = keys[0];
    if (key === undefined) throw new ScenarioError(fileName, path, `no event (one of ${EVENT_KEYS})`);
    if (keys.length > 1) {
      throw new ScenarioError(
        fileName,
        path,
        `${keys.map(show).join(' and ')} in one item; an item holds one event`,
      );
    }
    const previous = t;
    t = fields.t === undefined ? t + DEFAULT_STEP_MS : read(TIME, fields.t, [...path, 't']);
    // Reads of one antenna cycle may come out of order; time itself does not run backwards.
    if (t < previous - doc.table.orderWindowMs) {
      throw new ScenarioError(
        fileName,
        [...path, 't'],
        `${t} is earlier than the previous event's ${previous}`,
      );
    }
    const type = (SHORT_FORMS.get(key) ?? key) as ScenarioEventType;
    const body: z.ZodType<EventBody, unknown> = eventSchemas[type];
    // The body is read by its type's schema: together they are that type's event.
    return { type, ...read(body, fields[key], [...path, key]), t, seq } as DomainEvent;
  };

  return againstTable(table, () => ({
    name: doc.name,
    profile: doc.profile,
    table: doc.table,
    config: {
      seats: doc.table.seats,
      profile: doc.profile,
      orderWindowMs: doc.table.orderWindowMs,
      ...(doc.table.levels && { levels: doc.table.levels }),
      ...(doc.table.chipUnit !== undefined && { chipUnit: doc.table.chipUnit }),
      ...(doc.table.rake && { rake: doc.table.rake }),
      // Copies play as their back's first deck: the rotation deals the decks the table tells apart.
      decks: [...new Set(decks.map((id) => registry.playsAs(id) ?? id))],
    },
    decks,
    registry,
    events: doc.events.map(event),
    expect: doc.expect.map((item, i) => read(expectationSchema, item, ['expect', i])),
    codeOf: (card) => notation.codeOf(card),
  }));
}
