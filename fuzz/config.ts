import { parseConfig, parseConfigText } from '../src/config/config.js';
import { ConfigError } from '../src/config/problems.js';
import { loaded, printable, type Target } from './harness.js';
import { hostileJsonText, hostileVariant } from './json.js';
import { between, pick, type Rand } from './mutate.js';
import { hostileYaml } from './yaml.js';

/**
 * The config loader (src/config/config.ts): `parseConfig` on documents (a full config with one part made
 * hostile: wrong types, out-of-range seats and ports, unknown keys and devices, bad zones and UIDs,
 * `__proto__`), and `parseConfigText` on YAML and JSON texts (mutated, alias bombs, deep nesting).
 * Each is a config or a ConfigError naming what is wrong; anything else thrown is a crash.
 */

const HASH = `scrypt:${'a'.repeat(22)}:${'b'.repeat(43)}`;
const USB = { vendorId: '1209', productId: '0001' };

export const SAMPLE_CONFIG = {
  table: { id: 'table-7', seats: 9, profile: 'french-casino', orderWindowMs: 250, blinds: [25, 50] },
  decks: { A: 'simulated', B: 'simulated' },
  http: { host: '0.0.0.0', port: 8080 },
  mqtt: {
    embedded: { host: '127.0.0.1', port: 1883 },
    users: [{ username: 'floor-1', password: HASH, role: 'floor' }],
    privateDelayMs: 1_800_000,
  },
  devices: {
    rfid: [
      {
        id: 'rfid-1',
        link: { path: '/dev/ttyACM0' },
        antennas: { 0: 'seat:1', 1: 'seat:9', 10: 'board', 11: 'burn', 12: 'muck' },
        pucks: ['B0770B0770'],
        inventoryPeriodMs: 250,
      },
    ],
    keypad: [
      { id: 'keypad-1', usb: USB, keys: { Numpad1: 'digit:1', NumpadEnter: 'enter', F13: 'call-floor' } },
      { id: 'badge-1', usb: USB, mode: 'badge', reportId: 1 },
    ],
    chips: [{ id: 'chips-1', zones: ['bet:1', 'bet:9', 'pot', 'tray'], stableMs: 300 }],
    shuffler: [{ id: 'shuffler-1', link: { path: '/dev/ttyUSB0', baudRate: 9600 } }],
  },
  supervisors: [{ name: 'Marie', pin: HASH, badge: HASH }],
  display: { language: 'en' },
  journal: { path: '/var/lib/croupier/journal.db', keepDays: 30, keepRecords: 100_000 },
  log: { level: 'warn' },
};

/** Each part of the sample alone, so that variants of a small config come up too. */
const SAMPLES: unknown[] = [
  SAMPLE_CONFIG,
  ...Object.entries(SAMPLE_CONFIG).map(([key, value]) => ({ [key]: value })),
  {},
];

/** A document one or two places hostile, deep in the devices as often as at the top. */
function hostileDocument(rand: Rand): unknown {
  let document = hostileVariant(rand, pick(rand, SAMPLES));
  for (let i = between(rand, 0, 1); i > 0; i--) document = hostileVariant(rand, document);
  return document;
}

export const configDocument: Target<unknown> = {
  name: 'config-document',
  family: 'config',
  generate: hostileDocument,
  check: (document) => loaded(() => parseConfig(document), ConfigError, 'config refused'),
  show: (document) => printable(JSON.stringify(document) ?? String(document)),
};

export const configText: Target<Buffer> = {
  name: 'config-text',
  family: 'config',
  generate: (rand) => (rand() < 0.5 ? hostileJsonText(rand, SAMPLES) : hostileYaml(rand, SAMPLES)),
  check: (text) =>
    loaded(() => parseConfigText(text.toString('utf8'), 'croupier.yaml'), ConfigError, 'config refused'),
  show: (text) => printable(text),
};
