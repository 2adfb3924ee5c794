import { z } from 'zod';
import { MAX_ANTENNAS } from '../../firmware-bridge/messages.js';
import { MAX_SEATS } from '../../src/domain/seats.js';
import type { Zone } from '../../src/domain/zones.js';
import { deviceLink, deviceSerial } from '../fields.js';
import { deviceManifest } from '../manifest.js';

/**
 * The RFID reader board: HF antennas multiplexed under each seat, the board, the burn spot and the
 * muck, on a USB serial link speaking the croupier wire protocol (firmware-bridge/PROTOCOL.md).
 */

const SEAT_ZONE = /^seat:([1-9][0-9]*)$/;

/** The zone an antenna serves: `seat:1`…`seat:10`, `board`, `burn` or `muck`. */
const zoneLabel = z
  .string()
  .refine(
    (label) => ['board', 'burn', 'muck'].includes(label) || Number(SEAT_ZONE.exec(label)?.[1]) <= MAX_SEATS,
    {
      error: (issue) =>
        `${JSON.stringify(issue.input)} is no zone: use seat:1 to seat:${MAX_SEATS}, board, burn or muck`,
    },
  )
  .transform((label) => label as Zone);

const antennaIndex = z
  .string()
  .refine((key) => /^(0|[1-9][0-9]*)$/.test(key) && Number(key) <= 0xff, 'an antenna index is 0 to 255');

const tagUid = z
  .string()
  .transform((uid) => uid.toUpperCase())
  .refine((uid) => /^(?:[0-9A-F]{2}){4,10}$/.test(uid), 'a tag UID is 4 to 10 bytes in hex');

export const ms = (min: number, max: number) => z.number().int().min(min).max(max);

export const RFID_READER_DEFAULTS = {
  /** One reader on the Pi's first USB CDC-ACM port. */
  link: { type: 'serial', path: '/dev/ttyACM0', baudRate: 115_200 },
  /** Antennas 0–9 under seats 1–10, then the board, the burn spot and the muck. */
  antennas: {
    ...Object.fromEntries(Array.from({ length: MAX_SEATS }, (_, i) => [String(i), `seat:${i + 1}`])),
    10: 'board',
    11: 'burn',
    12: 'muck',
  },
  pucks: [],
  inventoryPeriodMs: 250,
  presenceTimeoutMs: 1500,
  goneGraceMs: 1000,
  heartbeatTimeoutMs: 3000,
} as const;

/** The `rfid-reader` section of the config file. Every field but `id` has a default. */
export const rfidReaderConfigSchema = z
  .strictObject({
    /**
     * Starts with `rfid`, as before the normaliser stamped roles: journals of those versions are still read
     * by that id rule (`roleOrLegacyIdRule`), so a journal written across an upgrade reads the same.
     */
    id: z.string().regex(/^rfid[A-Za-z0-9_.:-]*$/, 'a card reader id starts with "rfid" (e.g. "rfid-1")'),
    link: deviceLink(RFID_READER_DEFAULTS.link),
    serial: deviceSerial,
    /** Antenna index (as the board numbers them) → the zone it serves; a zone may have several. */
    antennas: z
      .record(antennaIndex, zoneLabel)
      .refine(
        (map) => Object.keys(map).length <= MAX_ANTENNAS,
        `a reader board has at most ${MAX_ANTENNAS} antennas`,
      )
      .default(RFID_READER_DEFAULTS.antennas),
    /** Tag UIDs of the dealer button puck(s): their reads are button positions, never cards. */
    pucks: z
      .array(tagUid)
      .refine((uids) => new Set(uids).size === uids.length, 'a puck UID is listed twice')
      .default([...RFID_READER_DEFAULTS.pucks]),
    /** Time between the starts of two inventory rounds over all antennas; sent to the board. */
    inventoryPeriodMs: ms(10, 10_000).default(RFID_READER_DEFAULTS.inventoryPeriodMs),
    /** A present tag unread this long is gone. */
    presenceTimeoutMs: ms(100, 60_000).default(RFID_READER_DEFAULTS.presenceTimeoutMs),
    /** After the board's TAG_GONE, a tag unread this long is gone. */
    goneGraceMs: ms(10, 60_000).default(RFID_READER_DEFAULTS.goneGraceMs),
    /** No frame at all for this long (heartbeats come every second) and the reader is offline. */
    heartbeatTimeoutMs: ms(1000, 60_000).default(RFID_READER_DEFAULTS.heartbeatTimeoutMs),
  })
  // A stacked card can miss a round: a single missed round must never end a card.
  .refine((config) => config.goneGraceMs >= 2 * config.inventoryPeriodMs, {
    message: 'must be at least two inventory periods, so that one missed round never ends a card',
    path: ['goneGraceMs'],
  })
  .refine((config) => config.presenceTimeoutMs >= config.goneGraceMs, {
    message: 'must be at least goneGraceMs',
    path: ['presenceTimeoutMs'],
  });

export type RfidReaderConfig = z.output<typeof rfidReaderConfigSchema>;

export const rfidReaderManifest = deviceManifest(
  'rfid-reader',
  'serial',
  RFID_READER_DEFAULTS,
  rfidReaderConfigSchema,
);

/** Validates a config section, or throws a ConfigError naming each bad key under `where`. */
export const parseRfidReaderConfig = rfidReaderManifest.parseConfig;
