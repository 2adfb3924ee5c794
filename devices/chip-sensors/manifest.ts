import { z } from 'zod';
import { MAX_SEATS } from '../../src/domain/seats.js';
import type { ChipZone } from '../../src/domain/zones.js';
import { deviceSerial } from '../fields.js';
import { deviceManifest } from '../manifest.js';
import { CHIP_SENSORS_KIND, chipZonesSchema } from './protocol.js';

/**
 * Chip sensors: networked load cells or RFID chip readers under the seats' bet zones, the pot and the
 * dealer's tray, speaking JSON over MQTT (PROTOCOL.md). One config section per sensor device.
 */

export const CHIP_SENSORS_DEFAULTS = {
  /** One device measuring a ten-seat table: every bet zone, the pot and the tray. */
  zones: [...Array.from({ length: MAX_SEATS }, (_, i): ChipZone => `bet:${i + 1}`), 'pot', 'tray'],
  /**
   * An amount is settled once every reading of the zone stayed within `tolerance` for this long. With the
   * cell's swing, it must fit in the shortest time chips rest on a zone (a call the dealer pushes to the pot
   * at once: about half a second).
   */
  stableMs: 300,
  /** The spread (highest minus lowest reading) a settled zone's readings may show: the cell's jitter. */
  tolerance: 0.5,
  /** Settled amounts are rounded to a multiple of this: the table's smallest chip value. */
  resolution: 1,
  /** Nothing heard from the sensor for this long (it reads every zone several times a second): offline. */
  silenceMs: 3000,
  /**
   * Off: bets are keyed on the keypad; see `inferredBet` in src/normaliser/chip-sensors.ts before turning
   * it on.
   */
  inferActions: false,
} as const;

const ms = (min: number, max: number) => z.int().min(min).max(max);

/** The config section of one chip sensor device. Every field but `id` has a default. */
export const chipSensorsConfigSchema = z
  .strictObject({
    /**
     * Names the device in `device` events and in its topics (`…/device/<id>/`); `rfid…` is for card readers
     * (the id rule journals of earlier versions are read by, `roleOrLegacyIdRule`).
     */
    id: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'a device id is 1 to 64 letters, digits, "_", ".", ":" or "-"')
      .refine(
        (id) => !id.startsWith('rfid'),
        'ids starting with "rfid" are card readers (e.g. use "chips-1")',
      ),
    /** The serial number the sensor's hello must give; a sensor saying another is refused (a fault). */
    serial: deviceSerial,
    /** The zones croupier takes from this device; it must measure each of them. */
    zones: chipZonesSchema
      .refine(
        (zones) => zones.every((zone) => !zone.startsWith('bet:') || Number(zone.slice(4)) <= MAX_SEATS),
        {
          message: `a bet zone is bet:1 to bet:${MAX_SEATS}`,
        },
      )
      .default([...CHIP_SENSORS_DEFAULTS.zones]),
    stableMs: ms(50, 10_000).default(CHIP_SENSORS_DEFAULTS.stableMs),
    tolerance: z.number().nonnegative().default(CHIP_SENSORS_DEFAULTS.tolerance),
    resolution: z.number().positive().default(CHIP_SENSORS_DEFAULTS.resolution),
    silenceMs: ms(500, 60_000).default(CHIP_SENSORS_DEFAULTS.silenceMs),
    inferActions: z.boolean().default(CHIP_SENSORS_DEFAULTS.inferActions),
  })
  // A change of one chip must leave the tolerance band, or adding a chip would never be seen.
  .refine((config) => config.tolerance < config.resolution, {
    message: 'must be below resolution, so that one chip more or less is a change',
    path: ['tolerance'],
  });

export type ChipSensorsConfig = z.output<typeof chipSensorsConfigSchema>;

export const chipSensorsManifest = deviceManifest(
  CHIP_SENSORS_KIND,
  'mqtt',
  CHIP_SENSORS_DEFAULTS,
  chipSensorsConfigSchema,
);

/** Validates a config section, or throws a ConfigError naming each bad key under `where`. */
export const parseChipSensorsConfig = chipSensorsManifest.parseConfig;
