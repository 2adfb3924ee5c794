import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { chipSensorsConfigSchema } from '../../devices/chip-sensors/manifest.js';
import { hidKeypadConfigSchema } from '../../devices/hid-keypad/manifest.js';
import { rfidReaderConfigSchema } from '../../devices/rfid-reader/manifest.js';
import { shufflerConfigSchema } from '../../devices/shuffler/manifest.js';
import { PROFILE_IDS } from '../rules/index.js';
import { HASHED_SECRET } from '../supervisor/credentials.js';
import { ConfigError, parseSection } from './problems.js';
import { parseYamlDocument } from './yaml.js';

/**
 * croupier's config file (YAML or JSON). Every key has a default but the devices: with no file at all the
 * controller runs a table with no hardware (the demo adds simulated devices). A bad value names its key.
 */

const host = z.string().min(1).describe('an address to listen on; 127.0.0.1 keeps it on the Pi');
const port = z.number().int().min(0).max(65_535);

const hashedSecret = z
  .string()
  .regex(HASHED_SECRET, 'a hash printed by `croupier hash-secret` (scrypt:…), never the secret itself');

const isLoopback = (address: string) =>
  address === 'localhost' || address === '::1' || address.startsWith('127.');

const deviceIds = (devices: readonly { id: string }[]) =>
  new Set(devices.map((d) => d.id)).size === devices.length;

/** Supervisors and dealers: a name for the record, and a PIN and/or badge as `croupier hash-secret` prints it. */
const roster = (who: string) =>
  z
    .array(
      z
        .strictObject({
          name: z.string().min(1).max(64),
          pin: hashedSecret.optional(),
          badge: hashedSecret.optional(),
        })
        .refine((s) => s.pin !== undefined || s.badge !== undefined, `${who} needs a pin or a badge`),
    )
    .default([]);

/** One blind level of a schedule (a scenario's `table.levels` too). */
export const levelSchema = z.strictObject({
  blinds: z
    .tuple([z.number().int().min(0), z.number().int().min(1)])
    .refine(([sb, bb]) => sb <= bb, 'the small blind is not more than the big blind'),
  ante: z.number().int().min(0).default(0),
  minutes: z
    .number()
    .positive()
    .max(24 * 60),
});

/** The smallest chip in play: pots are split in whole ones (a scenario's `table.chipUnit` too). */
export const chipUnitSchema = z.int().positive();

/** A cash game's house cut from each pot (RULINGS.md "Pots and showdown"; a scenario's `table.rake` too). */
export const rakeSchema = z.strictObject({
  percent: z.number().min(0).max(100),
  cap: z.number().nonnegative(),
});

export const configSchema = z
  .strictObject({
    table: z
      .strictObject({
        id: z
          .string()
          .regex(
            /^[A-Za-z0-9_-]{1,32}$/,
            'a table id is 1 to 32 letters, digits, "-" or "_" (it names MQTT topics)',
          )
          .default('table-1'),
        seats: z.number().int().min(2).max(10).default(10),
        profile: z.enum(PROFILE_IDS).default('main-event-2014'),
        orderWindowMs: z.number().int().min(0).max(2000).default(300),
        /** Small and big blind of the hands the display starts. */
        blinds: z
          .tuple([z.number().int().min(0), z.number().int().min(1)])
          .refine(([sb, bb]) => sb <= bb, 'the small blind is not more than the big blind')
          .default([50, 100]),
        /** The blind schedule, timed from the first hand; each level applies from the next hand on. */
        levels: z.array(levelSchema).optional(),
        chipUnit: chipUnitSchema.default(1),
        /** None by default: a tournament table takes no rake. */
        rake: rakeSchema.optional(),
      })
      .default({
        id: 'table-1',
        seats: 10,
        profile: 'main-event-2014',
        orderWindowMs: 300,
        blinds: [50, 100],
        chipUnit: 1,
      }),
    /**
     * Registered decks: `simulated` for the simulators' tags, or a file listing the deck's 52 tag UIDs in
     * face order (2s…As, 2h…Ah, 2d…Ad, 2c…Ac), as the card maker ships them or a scan made them.
     */
    decks: z
      .record(
        z.string().regex(/^[A-Za-z0-9]{1,8}$/, 'a deck id is 1 to 8 letters or digits'),
        z.string().min(1),
      )
      .refine((decks) => Object.keys(decks).length > 0, 'register at least one deck')
      .default({ A: 'simulated', B: 'simulated' }),
    http: z.strictObject({ host: host.default('127.0.0.1'), port: port.default(8080) }).default({
      host: '127.0.0.1',
      port: 8080,
    }),
    mqtt: z
      .strictObject({
        /** An external broker (`mqtt://…`, `mqtts://…`); without it croupier runs its own on `embedded`. */
        url: z
          .string()
          .regex(/^(mqtts?|wss?):\/\/[^\s]+$/, 'a broker URL looks like mqtt://broker.casino.lan:1883')
          .optional(),
        embedded: z
          .strictObject({
            host: host.default('127.0.0.1'),
            port: port.default(1883),
            /** TLS for the embedded broker: PEM files. */
            tls: z.strictObject({ cert: z.string().min(1), key: z.string().min(1) }).optional(),
          })
          .default({ host: '127.0.0.1', port: 1883 }),
        /**
         * Who may use the broker besides croupier (embedded: enforced by croupier; external: `croupier
         * mqtt-acl` writes the Mosquitto ACL). With users listed, every client must sign in.
         */
        users: z
          .array(
            z
              .strictObject({
                username: z
                  .string()
                  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a username is 1 to 64 letters, digits, ".", "-" or "_"'),
                password: hashedSecret,
                role: z.enum(['device', 'floor', 'surveillance']),
                device: z.string().min(1).optional(),
              })
              .refine((user) => (user.role === 'device') === (user.device !== undefined), {
                message: 'a device user names its device (device: <id>), and only a device user does',
                path: ['device'],
              }),
          )
          .default([]),
        username: z.string().min(1).optional(),
        password: z.string().min(1).optional(),
        /** How long `private/events` waits before publishing a hand's hole cards. */
        privateDelayMs: z
          .number()
          .int()
          .min(0)
          .default(30 * 60_000),
      })
      .default({ embedded: { host: '127.0.0.1', port: 1883 }, users: [], privateDelayMs: 30 * 60_000 })
      .refine((mqtt) => mqtt.url !== undefined || isLoopback(mqtt.embedded.host) || mqtt.users.length > 0, {
        message:
          'an embedded broker reachable beyond loopback needs mqtt.users: no client may connect unknown',
        path: ['embedded', 'host'],
      }),
    devices: z
      .strictObject({
        rfid: z.array(rfidReaderConfigSchema).default([]),
        keypad: z.array(hidKeypadConfigSchema).default([]),
        chips: z.array(chipSensorsConfigSchema).default([]),
        shuffler: z.array(shufflerConfigSchema).default([]),
      })
      .refine((devices) => deviceIds(Object.values(devices).flat()), 'two devices share an id')
      .default({ rfid: [], keypad: [], chips: [], shuffler: [] }),
    /**
     * Who may sign floor-only actions (overrule a ruling, void a hand, enter the floor's decision): a PIN
     * typed on the display or a badge read by a keypad in badge mode, each stored as the hash that
     * `croupier hash-secret` prints, never in clear.
     */
    supervisors: roster('a supervisor'),
    /**
     * Who may sign in as the dealer of a down (issue 20): a PIN on the display or a badge at the keypad,
     * hashed as the supervisors' are. The public state and the journal then carry the dealer's name.
     */
    dealers: roster('a dealer'),
    display: z
      .strictObject({
        language: z.enum(['fr', 'en']).default('fr').describe('the display’s language at start'),
        /**
         * Where the dealer's touches may come from besides the Pi itself (its kiosk is on loopback): the
         * addresses of touch panels on the network. Any other client may watch the display, not drive it.
         */
        dealerAddresses: z.array(z.ipv4().or(z.ipv6())).default([]),
      })
      .default({ language: 'fr', dealerAddresses: [] }),
    /**
     * The journal: every event written ahead of the table, for recovery after a power cut and for game
     * recall. On the Pi, a path on durable storage (`/var/lib/croupier/journal.db`).
     */
    journal: z
      .strictObject({
        path: z.string().min(1).default('croupier-journal.db'),
        /** Whole hands older than this, or beyond this many records, are rotated out; the chain stays whole. */
        keepDays: z.number().int().min(1).default(90),
        keepRecords: z.number().int().min(10_000).default(5_000_000),
        /** The whole hash chain is walked again this long after each walk ends (the first at start). */
        verifyEveryMs: z.number().int().min(1000).default(3_600_000),
      })
      .default({
        path: 'croupier-journal.db',
        keepDays: 90,
        keepRecords: 5_000_000,
        verifyEveryMs: 3_600_000,
      }),
    log: z
      .strictObject({ level: z.enum(['debug', 'info', 'warn', 'error']).default('info') })
      .default({ level: 'info' }),
    /** `croupier floor`: the floor supervisors' service for every table of the card room (issue 20). */
    floor: z
      .strictObject({
        /** Its page is for the floor's tablets: 0.0.0.0 serves them on the casino's network. */
        host: host.default('127.0.0.1'),
        port: port.default(8090),
        /** The tables it shows: their ids, or `+` for every table on the broker (one service per pit). */
        tables: z
          .array(z.string().regex(/^([A-Za-z0-9_-]{1,32}|\+)$/, 'a table id, or + for every table'))
          .min(1)
          .default(['+']),
        /** Its statistics per table and dealer down (SQLite). */
        stats: z.string().min(1).default('croupier-floor.db'),
        /** The MQTT 5 shared subscription the room's floor services count the statistics through, once. */
        statsGroup: z
          .string()
          .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a group name is 1 to 64 letters, digits, "-" or "_"')
          .default('croupier-floor'),
        /** How long a supervisor stays signed in on a tablet. */
        sessionMinutes: z.number().int().min(1).max(720).default(30),
      })
      .default({
        host: '127.0.0.1',
        port: 8090,
        tables: ['+'],
        stats: 'croupier-floor.db',
        statsGroup: 'croupier-floor',
        sessionMinutes: 30,
      }),
  })
  // Reads of a board that reports no rounds are settled on the window: one shorter than a round would
  // judge two reads of one round in the order the board happened to report them.
  .refine(
    ({ table, devices }) => devices.rfid.every((reader) => reader.inventoryPeriodMs <= table.orderWindowMs),
    {
      message:
        'must be at least every card reader’s inventoryPeriodMs: reads of one round may come in any order',
      path: ['table', 'orderWindowMs'],
    },
  );

export type CroupierConfig = z.output<typeof configSchema>;

/** Validates a parsed config object. */
export function parseConfig(input: unknown, where = ''): CroupierConfig {
  return parseSection(configSchema, input ?? {}, where);
}

/** Reads and validates a config file; any problem is a ConfigError naming the file and the key. */
export async function loadConfig(file: string): Promise<CroupierConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the config: ${(error as Error).message}`);
  }
  return parseConfigText(text, file);
}

/** Validates a config file's text (YAML or JSON); any problem is a ConfigError naming `file` and the key. */
export function parseConfigText(text: string, file: string): CroupierConfig {
  let input: unknown;
  try {
    input = parseYamlDocument(text, 100);
  } catch (error) {
    throw new ConfigError(`${file}: not YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  try {
    return parseConfig(input);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      error.message
        .split('\n')
        .map((line) => `${file}: ${line}`)
        .join('\n'),
    );
  }
}
