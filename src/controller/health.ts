import type { DeviceStatus } from '../domain/events.js';
import type { MqttStatus } from '../io/mqtt.js';
import type {
  ChainHealth,
  DeviceHealth,
  HaltClearing,
  HealthReport,
  JournalHealth,
  TableHalt,
} from '../outputs/health.js';

export type { ChainHealth, DeviceHealth, HaltClearing, HealthReport, JournalHealth, TableHalt };

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
