import { BehaviorSubject, filter, Subject, type Subscription, VirtualTimeScheduler } from 'rxjs';
import {
  type ChipSensor,
  type ChipSensorEvent,
  chipSensor,
} from '../../../../devices/chip-sensors/driver.js';
import { parseChipSensorsConfig } from '../../../../devices/chip-sensors/manifest.js';
import type { Hello } from '../../../../devices/chip-sensors/protocol.js';
import type { IdentityClaims } from '../../../../devices/identity-claims.js';
import type { ChipZone } from '../../../../src/domain/zones.js';
import {
  type MqttMessage,
  type MqttStatus,
  type PublishOptions,
  topicMatches,
} from '../../../../src/io/mqtt.js';

export const BASE = 'croupier/v1/t1/device/chips-1';
/** The sensor booted this long before the test's host time 0: sensor time = host time + BOOT. */
export const BOOT = 90_000;

export const HELLO: Hello = {
  state: 'online',
  kind: 'chip-sensors',
  serial: 'CS-0042',
  firmware: '1.4.0',
  zones: ['bet:1', 'bet:2', 'bet:3', 'pot', 'tray'],
};

/**
 * A chip sensor driver on an in-memory MQTT link and a virtual clock: each step is scheduled at a host
 * time, `run()` plays them all, timers included, and returns what the driver emitted.
 */
export class Bench {
  readonly scheduler = new VirtualTimeScheduler();
  readonly status$ = new BehaviorSubject<MqttStatus>({ state: 'connecting' });
  readonly incoming = new Subject<MqttMessage>();
  readonly published: { topic: string; payload: unknown; options: PublishOptions | undefined }[] = [];
  readonly events: ChipSensorEvent[] = [];
  readonly sensor: ChipSensor;
  #seq = 4_294_967_290; // wraps during most tests
  readonly #subscription: Subscription;

  /** `claims`: the serial numbers the table's devices hold, shared with other benches' sensors. */
  constructor(config: Record<string, unknown> = {}, claims?: IdentityClaims) {
    this.sensor = chipSensor(
      {
        status$: this.status$,
        messages: (topicFilter) =>
          this.incoming.pipe(filter((message) => topicMatches(topicFilter, message.topic))),
        publish: async (topic, payload, options) => {
          this.published.push({ topic, payload: JSON.parse(payload.toString()), options });
        },
      },
      BASE,
      parseChipSensorsConfig({ id: 'chips-1', zones: ['bet:1', 'bet:3', 'pot'], stableMs: 500, ...config }),
      this.scheduler,
      claims,
    );
    this.#subscription = this.sensor.events.subscribe((event) => this.events.push(event));
  }

  /** The last subscriber leaves: the driver's session ends. */
  close(): void {
    this.#subscription.unsubscribe();
  }

  at(time: number, step: () => void): this {
    this.scheduler.schedule(step, time);
    return this;
  }

  /** croupier's link up, then the sensor's retained hello. */
  connect(time = 0, hello: object = HELLO): this {
    this.at(time, () => this.status$.next({ state: 'connected' }));
    return this.raw(time, 'status', JSON.stringify(hello), true);
  }

  /** A payload as is on a channel of the base topic. */
  raw(time: number, channel: string, payload: string, retain = false): this {
    return this.at(time, () =>
      this.incoming.next({ topic: `${BASE}/${channel}`, payload: Buffer.from(payload), retain }),
    );
  }

  /** A sensor → host message stamped with the next sequence number and the sensor time of `time`. */
  stamped(time: number, channel: 'reading' | 'health' | 'reply', body: object, retain = false): this {
    return this.at(time, () => {
      const seq = this.#seq;
      this.#seq = (seq + 1) >>> 0;
      const message = { seq, sensorTime: time + BOOT, ...body };
      this.incoming.next({
        topic: `${BASE}/${channel}`,
        payload: Buffer.from(JSON.stringify(message)),
        retain,
      });
    });
  }

  reading(time: number, zone: ChipZone, amount: number): this {
    return this.stamped(time, 'reading', { zone, amount });
  }

  /** A reading every `period` ms from `from` up to (not including) `to`, amounts from `amount(time)`. */
  readings(
    from: number,
    to: number,
    zone: ChipZone,
    amount: number | ((time: number) => number),
    period = 100,
  ): this {
    for (let time = from; time < to; time += period) {
      this.reading(time, zone, typeof amount === 'number' ? amount : amount(time));
    }
    return this;
  }

  /** A message that is not the protocol's: it takes no sequence number, as a sensor's garbage does not. */
  malformed(time: number, channel: string, body: object): this {
    return this.at(time, () => {
      const payload = JSON.stringify({ seq: this.#seq, sensorTime: time + BOOT, ...body });
      this.incoming.next({ topic: `${BASE}/${channel}`, payload: Buffer.from(payload), retain: false });
    });
  }

  /** Skips `count` sequence numbers: messages lost on the way. */
  lose(time: number, count: number): this {
    return this.at(time, () => {
      this.#seq = (this.#seq + count) >>> 0;
    });
  }

  /** Plays every step and timer up to host time `until`. */
  run(until = Number.POSITIVE_INFINITY): ChipSensorEvent[] {
    this.scheduler.maxFrames = until;
    this.scheduler.flush();
    return this.events;
  }
}

/** The settled amounts, compactly. */
export function settled(events: readonly ChipSensorEvent[]): string[] {
  return events.flatMap((event) =>
    event.kind === 'chips' ? [`${event.zone} ${event.amount} @${event.t}`] : [],
  );
}

export function statuses(events: readonly ChipSensorEvent[]): string[] {
  return events.flatMap((event) =>
    event.kind === 'status' ? [`${event.status} @${event.t}: ${event.detail}`] : [],
  );
}

export function rejections(events: readonly ChipSensorEvent[]): string[] {
  return events.flatMap((event) => (event.kind === 'rejected' ? [event.reason] : []));
}
