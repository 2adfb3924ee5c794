import { YAMLError } from 'yaml';
import { z } from 'zod';
import { parseYamlDocument } from '../config/yaml.js';
import type { CardRef } from '../domain/cards.js';
import { DeckRegistry, RegistryError } from '../domain/deck-registry.js';
import type { DomainEvent } from '../domain/events.js';
import type { RuleProfile } from '../rules/types.js';
import { describeIssue, ScenarioError, show } from './errors.js';
import { CardNotation } from './notation.js';
import {
  documentSchema,
  type EventBody,
  type Expectation,
  type ScenarioEventType,
  tableSchemas,
} from './schema.js';

export type { Expectation } from './schema.js';

/** A scenario file made ready to replay: its events are the domain events live sensors would have produced. */
export interface Scenario {
  name: string;
  profile: RuleProfile;
  table: { seats: number; orderWindowMs: number };
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
/** Time between two events when an item gives no `t`. */
const DEFAULT_STEP_MS = 500;
const ITEM = z.record(z.string(), z.unknown());
const TIME = z.number().nonnegative();

/** Reads a YAML or JSON scenario (JSON is YAML, so one parser serves both). */
export function parseScenarioText(text: string, fileName: string): Scenario {
  let input: unknown;
  try {
    // Scenario files reuse actions through aliases; the limit still stops a "billion laughs" file.
    input = parseYamlDocument(text, 10_000);
  } catch (error) {
    // The parser's message quotes the offending lines: keep its first line, which names the place.
    const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    const message = first.replace(/:$/, '');
    if (error instanceof YAMLError || error instanceof Error) throw new ScenarioError(fileName, [], message);
    throw error;
  }
  return loadScenario(input, fileName);
}

/** Validates a parsed scenario document; a malformed one throws a `ScenarioError` naming the place. */
export function loadScenario(input: unknown, fileName: string): Scenario {
  const read = <T>(schema: z.ZodType<T, unknown>, value: unknown, path: readonly PropertyKey[]): T => {
    const result = schema.safeParse(value, { error: describeIssue });
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    throw new ScenarioError(fileName, [...path, ...(issue?.path ?? [])], issue?.message ?? 'invalid');
  };

  const doc = read(documentSchema, input, []);
  let registry: DeckRegistry;
  try {
    registry = DeckRegistry.forScenario(doc.decks);
  } catch (error) {
    if (error instanceof RegistryError) throw new ScenarioError(fileName, ['decks'], error.message);
    throw error;
  }
  const notation = new CardNotation(registry);
  const schemas = tableSchemas({ seats: doc.table.seats, registry, notation, eventCount: doc.events.length });
  const eventKeys = [...Object.keys(schemas.events), ...SHORT_FORMS.keys()].join(', ');

  let t = -DEFAULT_STEP_MS;
  const events = doc.events.map((item, seq): DomainEvent => {
    const path = ['events', seq];
    const fields = read(ITEM, item, path);
    const keys = Object.keys(fields).filter((key) => key !== 't');
    const unknown = keys.find((key) => !Object.hasOwn(schemas.events, SHORT_FORMS.get(key) ?? key));
    if (unknown !== undefined) {
      throw new ScenarioError(fileName, path, `unknown event ${show(unknown)} (one of ${eventKeys})`);
    }
    const [key, ...more] = keys;
    if (key === undefined) throw new ScenarioError(fileName, path, `no event (one of ${eventKeys})`);
    if (more.length > 0) {
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
    const body: z.ZodType<EventBody, unknown> =
      schemas.events[(SHORT_FORMS.get(key) ?? key) as ScenarioEventType];
    return { ...read(body, fields[key], [...path, key]), t, seq };
  });
  const expect = doc.expect.map((item, i) => read(schemas.expectation, item, ['expect', i]));

  return {
    name: doc.name,
    profile: doc.profile,
    table: doc.table,
    decks: doc.decks,
    registry,
    events,
    expect,
    codeOf: (card) => notation.codeOf(card),
  };
}
