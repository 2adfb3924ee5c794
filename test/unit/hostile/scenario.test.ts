import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generatedInputs, refusalOf } from '../../../fuzz/harness.js';
import { SAMPLE_SCENARIOS, scenarioDocument, scenarioText } from '../../../fuzz/scenario.js';
import { MAX_ALIAS_EXPANSION } from '../../../src/config/yaml.js';
import { ScenarioError } from '../../../src/scenario/errors.js';
import { loadScenario, parseScenarioText } from '../../../src/scenario/load.js';

function refusal(text: string): string {
  return refusalOf(() => parseScenarioText(text, 'hostile.yaml'), ScenarioError) ?? 'accepted';
}

const [SAMPLE] = SAMPLE_SCENARIOS;
const sampleYaml = stringify(SAMPLE);

describe('scenario parser: hostile input', () => {
  it('loads the samples the fuzzer starts from', () => {
    for (const sample of SAMPLE_SCENARIOS) expect(scenarioDocument.check(sample)).toBe('accepted');
    expect(scenarioText.check(Buffer.from(sampleYaml))).toBe('accepted');
  });

  it('loads or refuses, with a ScenarioError naming the place, every generated document', () => {
    fc.assert(
      fc.property(
        generatedInputs(scenarioDocument),
        (document) => scenarioDocument.check(document) !== undefined,
      ),
      {
        numRuns: 300,
      },
    );
  });

  it('does the same for every generated YAML or JSON text', () => {
    fc.assert(
      fc.property(generatedInputs(scenarioText), (text) => scenarioText.check(text) !== undefined),
      {
        numRuns: 100,
      },
    );
  });

  it('refuses seats and zones off the table, naming the place', () => {
    const events = (event: string) =>
      sampleYaml.replace(/events:\n(?:.*\n)*?expect:/, `events:\n  - ${event}\nexpect:`);
    expect(refusal(events('{ card: { zone: "seat:7", card: As } }'))).toBe(
      'hostile.yaml: events[0].card.zone: seat 7 is out of range (table has 6 seats)',
    );
    expect(refusal(events('{ chips: { zone: "bet:0", amount: 5 } }'))).toBe(
      'hostile.yaml: events[0].chips.zone: "bet:0" is not a zone (bet:1-bet:6, pot, tray)',
    );
    expect(refusal(events('{ action: { seat: 99999999999999999999, act: fold } }'))).toBe(
      'hostile.yaml: events[0].action.seat: must be at most 9007199254740991, got 100000000000000000000',
    );
  });

  it('refuses an alias bomb at once: a long list aliased many times', () => {
    // Once 2,000 aliases to a list of 50,000 cards: the schemas walked 100 million of them for minutes.
    const text = [
      'name: bomb',
      'profile: main-event-2014',
      'table: { seats: 6 }',
      'decks: [A]',
      'events:',
      `  - { shuffler: &s { state: ready, faceUp: [${Array(50_000).fill('As').join(',')}] } }`,
      ...Array<string>(2000).fill('  - { shuffler: *s }'),
    ].join('\n');
    const started = performance.now();
    expect(refusal(text)).toBe(
      `hostile.yaml: its aliases expand it past ${text.length + MAX_ALIAS_EXPANSION} values (an alias bomb?)`,
    );
    // Not a timing assertion: a bound on the work, far from the minutes it took.
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('refuses a billion laughs, an alias inside its own anchor and nesting past the stack, with a reason', () => {
    const laughs = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (const [i, name] of [...'bcdefghi'].entries())
      laughs.push(`${name}: &${name} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`);
    expect(refusal(laughs.join('\n'))).toMatch(
      /^hostile.yaml: Excessive alias count indicates a resource exhaustion attack/,
    );
    expect(refusal('events: &e [ *e ]')).toMatch(/its aliases expand it past \d+ values/);
    const nesting = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(refusal(`events: ${nesting}`)).toMatch(
      /^hostile.yaml: Maximum call stack size exceeded at line 1/,
    );
    // As JSON it is read by JSON.parse, which has no such limit, and refused as a document.
    expect(refusal(nesting)).toBe('hostile.yaml: expected a mapping, got a list');
  });

  it('cuts what it quotes of a hostile value or key', () => {
    const key = 'k'.repeat(20_000);
    const unknownKey = refusalOf(
      () => loadScenario({ ...(SAMPLE as object), [key]: 1 }, 'hostile.yaml'),
      ScenarioError,
    );
    expect(unknownKey).toMatch(/^hostile.yaml: unknown field "k+… \(20002 characters\)$/);
    expect(refusal(sampleYaml.replace('profile: main-event-2014', `profile: ${key}`))).toMatch(
      /^hostile.yaml: profile: "k+… \(20002 characters\) is not a profile \(/,
    );
  });
});
