import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../../src/config/config.js';
import { registryFromConfig } from '../../../src/config/decks.js';
import { ConfigError } from '../../../src/config/problems.js';
import { FACES } from '../../../src/domain/cards.js';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function file(name: string, text: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'croupier-config-'));
  folders.push(folder);
  const path = join(folder, name);
  await writeFile(path, text);
  return path;
}

describe('the config', () => {
  it('runs on its defaults: a ten-seat table, the embedded broker and HTTP on loopback, no devices', () => {
    expect(parseConfig({})).toMatchObject({
      table: { id: 'table-1', seats: 10, profile: 'main-event-2014', orderWindowMs: 300 },
      http: { host: '127.0.0.1', port: 8080 },
      mqtt: { embedded: { host: '127.0.0.1', port: 1883 }, privateDelayMs: 1_800_000 },
      devices: { rfid: [], keypad: [], chips: [], shuffler: [] },
    });
  });

  it('names each bad key and what is wrong, in the file', async () => {
    const path = await file(
      'croupier.yaml',
      [
        'table: { id: "table 1", seats: 12, profile: wsop }',
        'mqtt: { url: "http://broker" }',
        'devices:',
        '  rfid: [{ id: rfid-1, link: { path: /dev/ttyACM0 } }, { id: rfid-1, link: { path: /dev/ttyACM1 } }]',
        'colour: green',
      ].join('\n'),
    );
    const error = await loadConfig(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message.split('\n')).toEqual([
      `${path}: table.id: a table id is 1 to 32 letters, digits, "-" or "_" (it names MQTT topics)`,
      `${path}: table.seats: Too big: expected number to be <=10`,
      `${path}: table.profile: Invalid option: expected one of "main-event-2014"|"french-casino"|"tda-2007"|"tda-2024"`,
      `${path}: mqtt.url: a broker URL looks like mqtt://broker.casino.lan:1883`,
      `${path}: devices: two devices share an id`,
      `${path}: Unrecognized key: "colour"`,
    ]);
  });

  it('splits pots in chips of 1 and takes no rake unless told; a cash table sets both', () => {
    expect(parseConfig({}).table).toMatchObject({ chipUnit: 1 });
    expect(parseConfig({}).table.rake).toBeUndefined();
    const cash = parseConfig({ table: { chipUnit: 5, rake: { percent: 5, cap: 300 } } }).table;
    expect(cash).toMatchObject({ chipUnit: 5, rake: { percent: 5, cap: 300 } });
    expect(() => parseConfig({ table: { chipUnit: 0 } })).toThrow('table.chipUnit: Too small');
    expect(() => parseConfig({ table: { rake: { percent: 120, cap: 300 } } })).toThrow('table.rake.percent');
    expect(() => parseConfig({ table: { rake: { percent: 5 } } })).toThrow('table.rake.cap');
  });

  it('wants the reordering window at least as long as a card reader’s round', () => {
    const reader = {
      id: 'rfid-1',
      link: { path: '/dev/ttyACM0' },
      inventoryPeriodMs: 400,
      goneGraceMs: 1000,
    };
    expect(() => parseConfig({ table: { orderWindowMs: 300 }, devices: { rfid: [reader] } })).toThrow(
      'table.orderWindowMs: must be at least every card reader’s inventoryPeriodMs: reads of one round may come in any order',
    );
    expect(
      parseConfig({ table: { orderWindowMs: 400 }, devices: { rfid: [reader] } }).table.orderWindowMs,
    ).toBe(400);
  });

  it('says when the file is missing or is not YAML', async () => {
    await expect(loadConfig('/nonexistent/croupier.yaml')).rejects.toThrow(
      /\/nonexistent\/croupier.yaml: cannot read the config: ENOENT/,
    );
    await expect(loadConfig(await file('bad.yaml', 'table: [1, 2'))).rejects.toThrow(
      /bad.yaml: not YAML or JSON/,
    );
  });

  it('registers simulated decks and decks listed in a file, refusing a short list', async () => {
    const list = FACES.map((_, i) => (0x04a00000 + i).toString(16).toUpperCase().padStart(8, '0'));
    const good = await file('C.txt', `# deck C, in face order\n${list.join('\n')}\n`);
    const registry = await registryFromConfig({ A: 'simulated', C: good });
    expect(registry.decks().sort()).toEqual(['A', 'C']);
    expect(registry.lookup(list[0] ?? '')).toMatchObject({ face: FACES[0], deck: 'C' });
    const short = await file('D.txt', list.slice(0, 51).join('\n'));
    await expect(registryFromConfig({ D: short })).rejects.toThrow(/decks.D: deck D: expected 52 tag UIDs/);
  });
});
