import type { DeviceStatus } from '../domain/events.js';
import type { MqttStatus } from '../io/mqtt.js';
import type { BrokenRecord } from '../journal/chain.js';
import type { JournalErrorCode } from '../journal/errors.js';

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

interface Tracked {
  kind: string;
  status: DeviceHealth['status'];
  detail: string;
  since: number;
  counters?: () => unknown;
}

export class TableHealth {
  readonly #devices = new Map<string, Tracked>();
  readonly #refused: Record<string, number> = {};
  readonly #started: number;
  #mqtt: MqttStatus = { state: 'connecting' };
  #journal: JournalHealth = { path: '', state: 'recording' };

  constructor(
    readonly table: string,
    readonly version: string,
    readonly now: () => number,
  ) {
    this.#started = now();
  }

  /** A configured device: `unknown` until it reports. */
  addDevice(id: string, kind: string, counters?: () => unknown): void {
    this.#devices.set(id, {
      kind,
      status: 'unknown',
      detail: 'not heard from yet',
      since: this.now(),
      ...(counters && { counters }),
    });
  }

  device(event: Pick<DeviceStatus, 'device' | 'status' | 'detail'>): void {
    const tracked = this.#devices.get(event.device);
    if (!tracked) return;
    if (tracked.status !== event.status) tracked.since = this.now();
    tracked.status = event.status;
    tracked.detail = event.detail ?? '';
  }

  mqtt(status: MqttStatus): void {
    this.#mqtt = status;
  }

  journal(journal: JournalHealth): void {
    this.#journal = journal;
  }

  refused(source: string): void {
    this.#refused[source] = (this.#refused[source] ?? 0) + 1;
  }

  /** Each device's status without its counters: cheap enough for every update the display shows. */
  devices(): Pick<DeviceHealth, 'id' | 'kind' | 'status' | 'detail'>[] {
    return [...this.#devices].map(([id, { kind, status, detail }]) => ({ id, kind, status, detail }));
  }

  report(): HealthReport {
    const devices = [...this.#devices].map(([id, { counters, ...tracked }]) => ({
      id,
      ...tracked,
      ...(counters && { counters: counters() }),
    }));
    const ok = this.#mqtt.state === 'connected' && devices.every((device) => device.status === 'online');
    return {
      status: this.#journal.state === 'halted' ? 'halted' : ok ? 'ok' : 'degraded',
      table: this.table,
      version: this.version,
      uptimeS: Math.round((this.now() - this.#started) / 1000),
      devices,
      mqtt: this.#mqtt,
      journal: this.#journal,
      refused: { ...this.#refused },
    };
  }
}
