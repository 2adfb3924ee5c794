import type { DeviceStatus } from '../domain/events.js';
import type { MqttStatus } from '../io/mqtt.js';
import type { BrokenRecord } from '../journal/chain.js';
import type { JournalErrorCode } from '../journal/errors.js';

/*
 * What the table's health says, to `/healthz`, the display and MQTT: the report's shapes, apart from
 * the tracker that keeps them (src/controller/health.ts), so the outputs read them without the controller.
 */

/** What `GET /healthz` reports: every device's status, the broker link, and what was refused. */
export interface HealthReport {
  /**
   * `ok` when every configured device is online and the broker reachable; `degraded` otherwise;
   * `halted` when the journal cannot record or a record of it is broken, so the table does not play.
   */
  status: 'ok' | 'degraded' | 'halted';
  table: string;
  version: string;
  uptimeS: number;
  devices: DeviceHealth[];
  mqtt: MqttStatus;
  journal: JournalHealth;
  /** Input refused, by source (`command`, a device id…), since start. */
  refused: Record<string, number>;
}

export interface JournalHealth {
  path: string;
  state: 'recording' | 'halted';
  /** Why it halted (never a record's content). */
  detail?: string;
  /** The first broken record, when one halted it: its number and why. */
  record?: BrokenRecord;
  /** Whether a supervisor's signed clearing ends the halt (otherwise the file must be dealt with). */
  clearable?: boolean;
  /** The last event recorded, once known. */
  seq?: number;
  /** How far the hash chain has been checked. */
  chain?: ChainHealth;
}

/** The background check of the hash chain (`journal.verifyEveryMs`). */
export interface ChainHealth {
  /** `tail`: the records recovery reads, checked at start; `whole`: a whole pass has ended since. */
  checked: 'tail' | 'whole';
  /** The last whole pass: when it ended (ms since the epoch), the records it walked, its duration. */
  at?: number;
  records?: number;
  ms?: number;
  /** Broken records a supervisor cleared that the journal still holds. */
  cleared?: number;
}

/**
 * Why the table does not play, as every output says it: the journal's message (the file and what is
 * wrong, never a record's content), the first broken record when there is one, and whether a
 * supervisor can clear it.
 */
export interface TableHalt {
  code: JournalErrorCode;
  detail: string;
  record?: BrokenRecord;
  clearable: boolean;
}

/** What a supervisor's clearing of the halt comes to: under way, or refused and why. */
export type HaltClearing =
  | { clearing: true }
  | { refused: 'not-halted' | 'not-clearable' | 'busy'; error: string };

export interface DeviceHealth {
  id: string;
  kind: string;
  status: DeviceStatus['status'] | 'unknown';
  detail: string;
  /** Host time (ms since the epoch) of the last change. */
  since: number;
  counters?: unknown;
}
