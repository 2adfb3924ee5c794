import type { Subscription } from 'rxjs';
import {
  CHIP_SENSORS_KIND,
  channelTopic,
  commandSchema,
  decode,
  type Goodbye,
  type Health,
  type Hello,
  nextSeq,
  type Reading,
  type Reply,
} from '../../devices/chip-sensors/protocol.js';
import type { ChipZone } from '../../src/domain/zones.js';
import { connectMqtt, type MqttLink } from '../../src/io/mqtt.js';
import { type NetworkCable, openCable } from '../network-cable.js';
import { mulberry32 } from '../random.js';
import { type Cancel, realScheduler, type Scheduler } from '../rfid-reader/scheduler.js';

/**
 * A simulated networked chip sensor (a load cell under each zone): it connects to the broker with the same
 * MQTT link croupier uses, says hello in a retained status with `offline` as its last will, reads every
 * zone periodically with seeded jitter (and a swing while chips are being laid down), obeys tare, and takes
 * faults on demand. It is a peer, not a mock: croupier sees nothing it would not see from a real sensor.
 */

export interface SimulatedChipSensorOptions {
  /** The broker, `mqtt://host:port`. */
  url: string;
  /** `croupier/v1/<tableId>/device/<deviceId>`. */
  baseTopic: string;
  zones: readonly ChipZone[];
  serial?: string;
  firmware?: string;
  /** Time between two readings of every zone (default 100 ms). */
  periodMs?: number;
  /** Steady readings lie within ± this of the load (default 0.2 value units). */
  jitter?: number;
  /** How long readings swing after the chips on a zone change (default 150 ms). */
  swingMs?: number;
  /** Seeds the jitter and the swings. */
  seed?: number;
  scheduler?: Scheduler;
  /** Delay between reconnect attempts (default 200 ms). */
  reconnectMs?: number;
  /**
   * Report by exception (PROTOCOL.md "Readings on change"): a zone is read every period but published
   * only while it moves and for `quietAfterMs` after, plus one zone in turn every `heartbeatMs`. Without
   * it every zone is published every period.
   */
  onChange?: OnChange;
}

export interface OnChange {
  /** One reading of the next zone in turn this often, whatever it reads (well under the host's silenceMs). */
  heartbeatMs: number;
  /** A reading this far from the zone's last one published means it moves (the host's `tolerance`). */
  deadband: number;
  /** A zone that moved is published every period this long after (the host's `stableMs` and more). */
  quietAfterMs: number;
}

/** Published on change: a heartbeat each second, the host's tolerance, its settling time and two periods. */
export const ON_CHANGE: OnChange = { heartbeatMs: 1000, deadband: 0.5, quietAfterMs: 500 };

export type Malformation = 'not-json' | 'wrong-type' | 'unknown-field' | 'bad-zone' | 'unknown-channel';

interface Cell {
  /** Value of the chips lying on the zone. */
  load: number;
  /** The cell's zero drift. */
  bias: number;
  /** Subtracted since the last tare. */
  tare: number;
  /** While chips are being laid down: what it read before, until when it swings. */
  swing?: { from: number; until: number };
  /** Published on change: the zone's last reading published, and until when it is published every period. */
  published?: { amount: number; until: number };
}

/** What each stamped channel carries besides its sequence number and sensor time. */
type Unstamped<T> = T extends unknown ? Omit<T, 'seq' | 'sensorTime'> : never;
interface Bodies {
  reading: Unstamped<Reading>;
  health: Unstamped<Health>;
  reply: Unstamped<Reply>;
}

const HEALTHY: Bodies['health'] = { status: 'ok', code: 0, detail: '' };
const U32 = 2 ** 32;

export class SimulatedChipSensor {
  readonly zones: readonly ChipZone[];
  readonly #options: SimulatedChipSensorOptions;
  readonly #scheduler: Scheduler;
  readonly #serial: string;
  readonly #noise: () => number;
  readonly #cells = new Map<ChipZone, Cell>();
  #cable: NetworkCable | undefined;
  #link: MqttLink | undefined;
  #subscriptions: Subscription[] = [];
  #connected = false;
  #hung = false;
  #health: Bodies['health'] = HEALTHY;
  #bootAt = 0;
  #seq = 0;
  #round: Cancel | undefined;
  #readingsSent = 0;
  /** Published on change: when the last heartbeat went, and the zone it read. */
  #beatAt = 0;
  #beat = -1;

  constructor(options: SimulatedChipSensorOptions) {
    this.#options = options;
    this.zones = [...options.zones];
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#serial = options.serial ?? 'SIM-CHIPS-0001';
    this.#noise = mulberry32(options.seed ?? 1);
    for (const zone of this.zones) this.#cells.set(zone, { load: 0, bias: 0, tare: 0 });
  }

  /** Powers the sensor up: it connects through its cable and says hello each time it (re)connects. */
  async start(): Promise<void> {
    if (this.#link) throw new Error('the chip sensor is already running');
    this.#bootAt = this.#scheduler.now();
    this.#seq = Math.floor(this.#noise() * U32);
    this.#cable = await openCable(this.#options.url);
    const goodbye: Goodbye = { state: 'offline', reason: 'connection lost' };
    const link = connectMqtt({
      url: this.#cable.url,
      // Its base topic names it on a broker that many tables share (a serial number may be reused).
      clientId: `chip-sensor-${this.#options.baseTopic.replaceAll('/', '-')}`,
      reconnectMs: this.#options.reconnectMs ?? 200,
      will: { topic: this.#topic('status'), payload: JSON.stringify(goodbye), retain: true, qos: 1 },
    });
    this.#link = link;
    this.#subscriptions = [
      link.status$.subscribe((status) => {
        this.#connected = status.state === 'connected';
        if (this.#connected) this.#introduce();
      }),
      link.messages(this.#topic('command')).subscribe((message) => this.#command(message.payload)),
    ];
    this.#resume();
  }

  /** Shuts down cleanly: a retained `offline` goodbye, then the connection is closed (no last will). */
  async stop(): Promise<void> {
    const link = this.#link;
    if (!link) return;
    this.#pause();
    if (this.#connected) {
      const goodbye: Goodbye = { state: 'offline', reason: 'shutdown' };
      await this.#publish('status', goodbye, { qos: 1, retain: true });
    }
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    this.#link = undefined;
    this.#connected = false;
    await link.close();
    await this.#cable?.close();
  }

  /** The chips lying on `zone` are now worth `amount`: readings swing a while, then settle around it. */
  set(zone: ChipZone, amount: number): void {
    const cell = this.#cell(zone);
    if (cell.load === amount) return;
    cell.swing = { from: this.#base(cell), until: this.#scheduler.now() + (this.#options.swingMs ?? 150) };
    cell.load = amount;
  }

  /** The cell's zero drifts by `units` (a tare fixes it). */
  drift(zone: ChipZone, units: number): void {
    this.#cell(zone).bias += units;
  }

  /** The network cable is pulled: the connection drops without goodbye, the broker sends the last will. */
  unplug(): void {
    this.#cable?.cut();
  }

  /** The cable is back: the sensor reconnects and says hello again. */
  plug(): void {
    this.#cable?.mend();
  }

  /** The firmware hangs with its connection up: nothing more is published until `recover()`. */
  hang(): void {
    this.#hung = true;
    this.#pause();
  }

  recover(): void {
    if (!this.#hung) return;
    this.#hung = false;
    this.#resume();
  }

  fault(detail: string, code = 1): void {
    this.#setHealth({ status: 'fault', code, detail });
  }

  clearFault(): void {
    this.#setHealth(HEALTHY);
  }

  /** Publishes one malformed message, outside the sequence (it takes no sequence number). */
  sendMalformed(kind: Malformation): void {
    const valid = { seq: this.#seq, sensorTime: this.#uptime() };
    const zone = this.zones[0];
    const payloads: Record<Malformation, [channel: string, payload: string]> = {
      'not-json': ['reading', `{"seq":${this.#seq},"zone":"pot","amount":3`],
      'wrong-type': ['reading', JSON.stringify({ ...valid, zone, amount: '300' })],
      'unknown-field': ['reading', JSON.stringify({ ...valid, zone, amount: 300, grams: 145 })],
      'bad-zone': ['reading', JSON.stringify({ ...valid, zone: 'bet:0', amount: 300 })],
      'unknown-channel': ['weight', JSON.stringify({ ...valid, zone, grams: 145 })],
    };
    const [channel, payload] = payloads[kind];
    this.publishRaw(channel, payload);
  }

  /** Publishes `payload` as is on a channel under the base topic. */
  publishRaw(channel: string, payload: string): void {
    this.#link?.publish(`${this.#options.baseTopic}/${channel}`, payload).catch(() => undefined);
  }

  /** Readings published since the start. */
  get readingsSent(): number {
    return this.#readingsSent;
  }

  #cell(zone: ChipZone): Cell {
    const cell = this.#cells.get(zone);
    if (!cell) throw new RangeError(`the chip sensor does not measure ${zone}`);
    return cell;
  }

  #topic(channel: 'status' | 'command') {
    return channelTopic(this.#options.baseTopic, channel);
  }

  #uptime(): number {
    return Math.floor(this.#scheduler.now() - this.#bootAt) % U32;
  }

  /** What the cell reads without noise. */
  #base(cell: Cell): number {
    return cell.load + cell.bias - cell.tare;
  }

  #introduce(): void {
    // After each hello every zone is published a while: the host settles its starting amounts.
    for (const cell of this.#cells.values()) delete cell.published;
    const hello: Hello = {
      state: 'online',
      kind: CHIP_SENSORS_KIND,
      serial: this.#serial,
      firmware: this.#options.firmware ?? '1.0.0',
      zones: [...this.zones],
    };
    void this.#publish('status', hello, { qos: 1, retain: true });
    this.#sendHealth();
  }

  #setHealth(health: Bodies['health']): void {
    this.#health = health;
    this.#sendHealth();
  }

  #sendHealth(): void {
    this.#send('health', { ...this.#health });
  }

  #resume(): void {
    const period = this.#options.periodMs ?? 100;
    const round = (): void => {
      this.#round = this.#scheduler.after(period, round);
      this.#readAll();
    };
    this.#round = this.#scheduler.after(period, round);
  }

  #pause(): void {
    this.#round?.();
    this.#round = undefined;
  }

  #readAll(): void {
    const now = this.#scheduler.now();
    const jitter = this.#options.jitter ?? 0.2;
    const beat = this.#heartbeat(now);
    for (const [zone, cell] of this.#cells) {
      const base = this.#base(cell);
      const swinging = cell.swing && now < cell.swing.until ? cell.swing : undefined;
      // While the chips move the cell swings past the new load; then it jitters around it.
      const raw = swinging
        ? swinging.from + (base - swinging.from) * (0.5 + this.#noise())
        : base + (this.#noise() * 2 - 1) * jitter;
      const amount = Math.round(raw * 100) / 100;
      if (!this.#changed(cell, amount, now) && zone !== beat) continue;
      if (this.#send('reading', { zone, amount })) this.#readingsSent++;
    }
  }

  /** Whether a zone's reading is published on change: it moves, or moved a moment ago. */
  #changed(cell: Cell, amount: number, now: number): boolean {
    const rule = this.#options.onChange;
    if (!rule) return true;
    const published = cell.published;
    if (!published || Math.abs(amount - published.amount) > rule.deadband) {
      cell.published = { amount, until: now + rule.quietAfterMs };
      return true;
    }
    if (now > published.until) return false;
    published.amount = amount;
    return true;
  }

  /** The zone whose turn it is for a heartbeat reading now, if one is due. */
  #heartbeat(now: number): ChipZone | undefined {
    const rule = this.#options.onChange;
    if (!rule || now - this.#beatAt < rule.heartbeatMs) return undefined;
    this.#beatAt = now;
    this.#beat = (this.#beat + 1) % this.zones.length;
    return this.zones[this.#beat];
  }

  #command(payload: Uint8Array): void {
    // A command the sensor cannot parse is ignored: it has no id to answer.
    const decoded = decode(commandSchema, payload);
    if (!decoded.ok || this.#hung) return;
    const { id, zone } = decoded.value;
    const cell = this.#cells.get(zone);
    if (!cell) return void this.#send('reply', { id, ok: false, error: 'unknown-zone' });
    if (this.#health.status === 'fault') return void this.#send('reply', { id, ok: false, error: 'fault' });
    // What lies on the zone now reads 0.
    cell.tare = cell.load + cell.bias;
    delete cell.swing;
    this.#send('reply', { id, ok: true });
  }

  /** Stamps and publishes a sensor → host message; returns false when there is no connection to send it on. */
  #send<C extends keyof Bodies>(channel: C, body: Bodies[C]): boolean {
    if (!this.#connected || this.#hung) return false;
    const seq = this.#seq;
    this.#seq = nextSeq(seq);
    const qos = channel === 'reading' ? 0 : 1;
    void this.#publish(channel, { seq, sensorTime: this.#uptime(), ...body }, { qos, retain: false });
    return true;
  }

  async #publish(
    channel: 'status' | keyof Bodies,
    message: object,
    options: { qos: 0 | 1; retain: boolean },
  ): Promise<void> {
    // A message lost with the connection is lost: the sequence numbers tell croupier.
    await this.#link
      ?.publish(channelTopic(this.#options.baseTopic, channel), JSON.stringify(message), options)
      .catch(() => undefined);
  }
}
