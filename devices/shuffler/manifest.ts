import { z } from 'zod';
import { deviceLink, deviceSerial } from '../fields.js';
import { deviceManifest } from '../manifest.js';
import { ms } from '../rfid-reader/manifest.js';

/**
 * The automatic shuffler with card recognition, on an RS-232 or USB serial link speaking the shuffler
 * line protocol (devices/shuffler/PROTOCOL.md).
 */

export const SHUFFLER_DEFAULTS = {
  /** A USB-to-RS-232 adapter on the Pi; 9600 8N1 is what shufflers' RS-232 ports speak out of the box. */
  link: { type: 'serial', path: '/dev/ttyUSB0', baudRate: 9600 },
  heartbeatTimeoutMs: 3000,
  commandTimeoutMs: 2000,
} as const;

/** The `shuffler` section of the config file. Every field has a default. */
export const shufflerConfigSchema = z.strictObject({
  /**
   * Not `rfid…`: journals of earlier versions are read by the id rule that takes those for card readers
   * (`roleOrLegacyIdRule`).
   */
  id: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_.:-]*$/, 'a device id is a letter, then letters, digits or _ . : -')
    .refine((id) => !id.startsWith('rfid'), 'ids starting with "rfid" are for card readers')
    .default('shuffler'),
  link: deviceLink(SHUFFLER_DEFAULTS.link),
  serial: deviceSerial,
  /** No line at all for this long (heartbeats come every second) and the shuffler is offline. */
  heartbeatTimeoutMs: ms(1000, 60_000).default(SHUFFLER_DEFAULTS.heartbeatTimeoutMs),
  /** A SHUFFLE or EJECT neither ACKed nor NAKed within this time has failed. */
  commandTimeoutMs: ms(100, 30_000).default(SHUFFLER_DEFAULTS.commandTimeoutMs),
});

export type ShufflerConfig = z.output<typeof shufflerConfigSchema>;

export const shufflerManifest = deviceManifest('shuffler', 'serial', SHUFFLER_DEFAULTS, shufflerConfigSchema);

/** Validates a config section, or throws a ConfigError naming each bad key under `where`. */
export const parseShufflerConfig = shufflerManifest.parseConfig;
