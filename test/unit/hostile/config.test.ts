import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { configDocument, configText, SAMPLE_CONFIG } from '../../../fuzz/config.js';
import { generatedInputs, refusalOf } from '../../../fuzz/harness.js';
import { parseConfig, parseConfigText } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/config/problems.js';
import { MAX_ALIAS_EXPANSION } from '../../../src/config/yaml.js';

function refusal(parse: () => unknown): string {
  return refusalOf(parse, ConfigError) ?? 'accepted';
}

describe('config loader: hostile input', () => {
  it('takes the sample the fuzzer starts from, as a document and as YAML', () => {
    expect(configDocument.check(SAMPLE_CONFIG)).toBe('accepted');
    expect(configText.check(Buffer.from(stringify(SAMPLE_CONFIG)))).toBe('accepted');
  });

  it('takes or refuses, with a ConfigError naming the key, every generated document', () => {
    fc.assert(
      fc.property(
        generatedInputs(configDocument),
        (document) => configDocument.check(document) !== undefined,
      ),
      {
        numRuns: 500,
      },
    );
  });

  it('does the same for every generated YAML or JSON text', () => {
    fc.assert(
      fc.property(generatedInputs(configText), (text) => configText.check(text) !== undefined),
      {
        numRuns: 100,
      },
    );
  });

  it('refuses seats, zones and ports out of range, naming each key', () => {
    const config = {
      table: { seats: 11 },
      http: { port: 65_536 },
      devices: {
        chips: [{ id: 'chips-1', zones: ['bet:11', 'pot'] }],
        rfid: [{ id: 'rfid-1', antennas: { 256: 'board', 3: 'seat:11' } }],
      },
    };
    expect(refusal(() => parseConfig(config)).split('\n')).toEqual([
      'table.seats: Too big: expected number to be <=10',
      'http.port: Too big: expected number to be <=65535',
      'devices.rfid.0.antennas.3: "seat:11" is no zone: use seat:1 to seat:10, board, burn or muck',
      'devices.rfid.0.antennas.256: an antenna index is 0 to 255',
      'devices.chips.0.zones: a bet zone is bet:1 to bet:10',
    ]);
  });

  it('refuses an alias bomb at once: a list of pucks aliased by a hundred readers', () => {
    // Once 183 kB like this took seconds and a ConfigError of two million lines.
    const pucks = Array.from({ length: 20_000 }, (_, i) => `P${(0x04000000 + i).toString(16)}`).join(', ');
    const readers = Array.from({ length: 99 }, (_, i) => `    - { id: rfid-${i}, pucks: *p }`);
    const text = [`x: &p [${pucks}]`, 'devices:', '  rfid:', ...readers].join('\n');
    expect(refusal(() => parseConfigText(text, 'croupier.yaml'))).toBe(
      `croupier.yaml: not YAML or JSON: its aliases expand it past ${text.length + MAX_ALIAS_EXPANSION} values (an alias bomb?)`,
    );
  });

  it('lists ten problems at most, each cut short, and counts the rest', () => {
    const pucks = Array.from({ length: 500 }, (_, i) => `not a uid ${i}`);
    const lines = refusal(() => parseConfig({ devices: { rfid: [{ id: 'rfid-1', pucks }] } })).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('devices.rfid.0.pucks.0: a tag UID is 4 to 10 bytes in hex');
    expect(lines.at(-1)).toBe('and 490 more problems');
    // Once the whole 20,000-character key, on a log line.
    expect(refusal(() => parseConfig({ ['k'.repeat(20_000)]: 1 }))).toMatch(
      /^Unrecognized key: "k+… \(20020 characters\)$/,
    );
  });
});
