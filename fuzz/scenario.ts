import { ScenarioError } from '../src/scenario/errors.js';
import { loadScenario, parseScenarioText } from '../src/scenario/load.js';
import { loaded, printable, type Target } from './harness.js';
import { hostileJsonText, hostileVariant } from './json.js';
import { pick, type Rand } from './mutate.js';
import { hostileYaml } from './yaml.js';

/**
 * The scenario parser (src/scenario/load.ts): `loadScenario` on documents (a small scenario with one
 * place made hostile: out-of-range seats and zones, unknown events and keys, bad cards, time running
 * backwards, wrong types) and `parseScenarioText` on YAML and JSON texts (mutated, alias bombs, deep
 * nesting). Each is a scenario or a ScenarioError naming the place; anything else thrown is a crash.
 */

const HAND = { 'hand.start': { button: 6, players: [1, 2, 6], blinds: [50, 100], deck: 'A' } };

export const SAMPLE_SCENARIOS: readonly unknown[] = [
  {
    name: 'a premature flop card',
    profile: 'main-event-2014',
    table: { seats: 6, orderWindowMs: 300 },
    decks: ['A', 'B'],
    events: [
      { t: 0, ...HAND },
      { t: 400, card: { zone: 'seat:1', card: 'As' } },
      { gone: { zone: 'seat:1', card: 'As' } },
      { action: { seat: 2, act: 'raise', amount: 300 } },
      { chips: { zone: 'bet:2', amount: 300 } },
      { card: { zone: 'board', card: 'B:Kh#2' } },
    ],
    expect: [{ at: 5, incident: 'PREMATURE_FLOP', ruling: 'PREMATURE_RESHUFFLE_NO_BURN', seats: [2] }],
  },
  {
    name: 'devices and the dealer',
    profile: 'tda-2007',
    table: { seats: 10 },
    decks: ['A'],
    events: [
      { shuffler: { state: 'ready', deck: 'A', count: 52, faceUp: ['Qd'], extra: ['?:04A1B2C3'] } },
      { t: 100, button: { seat: 10 } },
      { dealer: { input: 'exposed', zone: 'seat:2', card: 'Th', by: 'player' } },
      { device: { device: 'rfid-1', status: 'offline', detail: 'link down' } },
      { dealer: { input: 'floor-decision', value: 'misdeal', supervisor: 'Marie' } },
    ],
    expect: [{ prompt: 'ALL_IN_SHOWDOWN', seats: [1, 2] }],
  },
];

/** A scenario with one place hostile, in its events as often as in its header. */
function hostileDocument(rand: Rand): unknown {
  const sample = pick(rand, SAMPLE_SCENARIOS) as { events: unknown[] };
  if (rand() < 0.5) return hostileVariant(rand, sample);
  return { ...sample, events: hostileVariant(rand, sample.events) };
}

export const scenarioDocument: Target<unknown> = {
  name: 'scenario-document',
  family: 'scenario',
  generate: hostileDocument,
  check: (document) => loaded(() => loadScenario(document, 'fuzz.yaml'), ScenarioError, 'scenario refused'),
  show: (document) => printable(JSON.stringify(document) ?? String(document)),
};

export const scenarioText: Target<Buffer> = {
  name: 'scenario-text',
  family: 'scenario',
  generate: (rand) =>
    rand() < 0.5 ? hostileJsonText(rand, SAMPLE_SCENARIOS) : hostileYaml(rand, SAMPLE_SCENARIOS),
  check: (text) =>
    loaded(() => parseScenarioText(text.toString('utf8'), 'fuzz.yaml'), ScenarioError, 'scenario refused'),
  show: (text) => printable(text),
};
