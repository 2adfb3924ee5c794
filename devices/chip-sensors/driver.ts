import { asyncScheduler, map, merge, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { z } from 'zod';
import type { DeviceStatus } from '../../src/domain/events.js';
import type { ChipZone } from '../../src/domain/zones.js';
import type { MqttLink, MqttMessage, MqttStatus } from '../../src/io/mqtt.js';
import { sessionEvents } from '../device-session.js';
import { type Identity as Introduced, judgeHello } from '../device-status.js';
import { ReaderClock } from '../rfid-reader/reader-clock.js';
import type { ChipSensorsConfig } from './manifest.js';
import {
  CHANNELS,
  CHIP_SENSORS_KIND,
  type Command,
  channelTopic,
  decode,
  followSeq,
  type Goodbye,
  type Health,
  type Hello,
  healthSchema,
  nextSeq,
  type Reading,
  type Reply,
  readingSchema,
  replySchema,
  statusSchema,
} from './protocol.js';
import { ZoneSettler } from './settle.js';

export type ChipSensorStatus = DeviceStatus['status'];

/**
 * What the chip sensor driver reports. `t` is host time (the scheduler's clock, ms); a settled amount is
 * stamped with the host time of the sensor reading that settled it.
 */
export type ChipSensorEvent =
  /** A zone's amount settled at a new value; `previous` is the last settled one (null: the zone's first). */
  | { kind: 'chips'; zone: ChipZone; amount: number; previous: number | null; sensorTime: number; t: number }
  /** The sensor's status changed (or its detail did). */
  | { kind: 'status'; status: ChipSensorStatus; detail: string; t: number }
  /** A message the driver could not use, lost messages, or a command the sensor refused. */
  | { kind: 'rejected'; reason: string; t: number };

/** What the driver needs of the MQTT transport. */
export type ChipSensorLink = Pick<MqttLink, 'status$' | 'messages' | 'publish'>;

export interface ChipSensorCounters {
  /** Messages from the sensor (the broker's echo of our own commands aside). */
  received: number;
  /** Not JSON, not the protocol's schema, or on a channel the protocol does not have. */
  malformed: number;
  /** Messages lost on the way, from the gaps in the sequence numbers. */
  lost: number;
  /**
   * Well-formed messages not acted on: from no sensor that said hello (or after its goodbye), from a device
   * of another kind, stale sequence numbers, retained readings, readings of zones the config does not take.
   */
  refused: number;
  /** Readings that went into settling. */
  readings: number;
  /**
   * Hellos of another serial number while the sensor was online and had not said goodbye: two devices
   * publishing as one sensor (a clone). The sensor is in fault from the first until a goodbye and a new hello.
   */
  contested: number;
}

export interface ChipSensor {
  /** Shared: every subscriber sees the same sensor; subscribing subscribes on the broker. */
  events: Observable<ChipSensorEvent>;
  /** Counters of the current subscription, undefined before the first. */
  counters(): ChipSensorCounters | undefined;
  /**
   * Asks the sensor to tare `zone`: whatever lies on it now reads 0. Resolves once the broker has the
   * command; a refusal comes as a `rejected` event. Rejects for a zone the config does not take.
   */
  tare(zone: ChipZone): Promise<void>;
}

/**
 * The chip sensor driver: the sensor's MQTT messages under `baseTopic` (`croupier/v1/<tableId>/device/<id>`)
 * in, settled zone amounts and the sensor's status out. Timers (the silence timeout) and the host clock
 * come from `scheduler`, so a virtual-time scheduler runs it without real time.
 */
export function chipSensor(
  link: ChipSensorLink,
  baseTopic: string,
  config: ChipSensorsConfig,
  scheduler: SchedulerLike = asyncScheduler,
): ChipSensor {
  const pending = new Map<number, ChipZone>();
  let commandId = 0;
  const { events, session } = sessionEvents(
    (emit: (event: ChipSensorEvent) => void) =>
      new SensorSession(baseTopic, config, scheduler, pending, emit),
    (current) =>
      merge(
        link.status$.pipe(map((status) => () => current.linkStatus(status))),
        link.messages(`${baseTopic}/#`).pipe(map((message) => () => current.message(message))),
      ),
  );

  return {
    events,
    counters: () => {
      const current = session();
      return current && { ...current.counters };
    },
    async tare(zone) {
      if (!config.zones.includes(zone)) {
        throw new RangeError(`${zone} is not among the zones chip sensor ${config.id} serves`);
      }
      const id = commandId;
      commandId = nextSeq(commandId);
      pending.set(id, zone);
      const command: Command = { id, command: 'tare', zone };
      await link.publish(channelTopic(baseTopic, 'command'), JSON.stringify(command), { qos: 1 });
    },
  };
}

/** Who the sensor said it is (`judgeHello`), and the zones of the config it does not measure. */
type Identity =
  | (Extract<Introduced, { ok: true }> & { missing: ChipZone[] })
  | Extract<Introduced, { ok: false }>;

/** One subscription's state: the broker link, who the sensor said it is, its health and its zones. */
class SensorSession {
  readonly counters: ChipSensorCounters = {
    received: 0,
    malformed: 0,
    lost: 0,
    refused: 0,
    readings: 0,
    contested: 0,
  };
  readonly #base: string;
  readonly #config: ChipSensorsConfig;
  readonly #scheduler: SchedulerLike;
  readonly #pending: Map<number, ChipZone>;
  readonly #emit: (event: ChipSensorEvent) => void;
  readonly #zones: ReadonlySet<ChipZone>;
  readonly #clock = new ReaderClock();
  readonly #settler: ZoneSettler;
  #link: { up: true } | { up: false; reason: string } = { up: false, reason: 'connecting to the broker' };
  #identity: Identity | undefined;
  /** Why the sensor said it is offline (its last will or its goodbye), until its next hello. */
  #gone: string | undefined;
  /**
   * The serial of the sensor online under this topic, from its hello until its goodbye (or croupier's own
   * link drops: the broker then sends the retained hello again). While it is not silent, a hello of
   * another serial is a second device publishing as this sensor.
   */
  #claim: string | undefined;
  /** Two devices claimed the sensor: it is in fault until a goodbye (or a restart) clears it. */
  #contest: { holder: string; detail: string } | undefined;
  #health: Health | undefined;
  #expectedSeq: number | undefined;
  #silent = false;
  #silence: Subscription | undefined;
  #published: string | undefined;
  /** Refusals already reported since the last status message: a sensor repeats them several times a second. */
  readonly #reported = new Set<string>();

  constructor(
    base: string,
    config: ChipSensorsConfig,
    scheduler: SchedulerLike,
    pending: Map<number, ChipZone>,
    emit: (event: ChipSensorEvent) => void,
  ) {
    this.#base = base;
    this.#config = config;
    this.#scheduler = scheduler;
    this.#pending = pending;
    this.#emit = emit;
    this.#zones = new Set(config.zones);
    this.#settler = new ZoneSettler(config);
  }

  linkStatus(status: MqttStatus): void {
    const up = status.state === 'connected';
    if (up) {
      this.#link = { up };
      // The broker sends the retained status again on resubscribing: the sensor has this long to be heard.
      this.#heard();
    } else {
      const reason = status.state === 'offline' ? status.reason : `link ${status.state}`;
      this.#link = { up, reason: status.state === 'connecting' ? 'connecting to the broker' : reason };
      this.#claim = undefined;
      this.#silence?.unsubscribe();
    }
    this.#publish();
  }

  message({ topic, payload, retain }: MqttMessage): void {
    const channel = topic.slice(this.#base.length + 1);
    // Our own commands, which the broker echoes to our `#` subscription.
    if (channel === CHANNELS.command) return;
    this.counters.received++;
    switch (channel) {
      case CHANNELS.status:
        return this.#decoded(channel, statusSchema, payload, (status) =>
          status.state === 'online' ? this.#hello(status) : this.#goodbye(status),
        );
      case CHANNELS.reading:
        return this.#decoded(channel, readingSchema, payload, (reading) =>
          this.#stamped(reading, retain, () => this.#reading(reading)),
        );
      case CHANNELS.health:
        return this.#decoded(channel, healthSchema, payload, (health) =>
          this.#stamped(health, retain, () => {
            this.#health = health;
            this.#publish();
          }),
        );
      case CHANNELS.reply:
        return this.#decoded(channel, replySchema, payload, (reply) =>
          this.#stamped(reply, retain, () => this.#reply(reply)),
        );
      default:
        this.counters.malformed++;
        return this.#reject(`a message on ${JSON.stringify(channel)}, which is no channel of the protocol`);
    }
  }

  close(): void {
    this.#silence?.unsubscribe();
  }

  #decoded<T>(
    channel: string,
    schema: z.ZodType<T, unknown>,
    payload: Uint8Array,
    use: (value: T) => void,
  ): void {
    const decoded = decode(schema, payload);
    if (decoded.ok) return use(decoded.value);
    this.counters.malformed++;
    this.#reject(`malformed ${channel}: ${decoded.reason}`);
  }

  #hello(hello: Hello): void {
    const claim = this.#silent ? undefined : this.#claim;
    if (this.#contest !== undefined || (claim !== undefined && hello.serial !== claim)) {
      return this.#contested(hello.serial);
    }
    this.#newStatus();
    this.#clock.reset();
    this.#settler.restart();
    const identity = judgeHello(hello, {
      kind: CHIP_SENSORS_KIND,
      called: 'a chip sensor',
      serial: this.#config.serial,
      on: 'topic',
    });
    if (identity.ok) {
      const missing = this.#config.zones.filter((zone) => !hello.zones.includes(zone));
      this.#identity = { ...identity, missing };
      this.#claim = identity.serial;
    } else {
      this.#identity = identity;
      this.#reject(`refused hello: ${identity.detail}`);
    }
    this.#heard();
    this.#publish();
  }

  /**
   * A hello of `serial` while another sensor is online under this topic (or after such a hello): two
   * devices publish as one. Neither can be told from the other, so nothing is acted on until one says
   * goodbye and a sensor says hello again.
   */
  #contested(serial: string): void {
    const holder = this.#contest?.holder ?? this.#claim ?? '';
    if (serial !== holder) this.counters.contested++;
    this.#contest ??= {
      holder,
      detail: `two devices publish as ${this.#config.id}: sensor ${holder}, online, and ${serial}, which said hello too; ignored until a goodbye and a new hello, or a restart`,
    };
    this.#reject(
      `refused hello of ${serial}: sensor ${holder} was online on this topic and has not said goodbye`,
    );
    this.#publish();
  }

  #goodbye(goodbye: Goodbye): void {
    this.#newStatus();
    this.#claim = undefined;
    this.#contest = undefined;
    this.#gone = goodbye.reason ?? 'no reason given';
    // Silence says nothing more about a sensor that said it is gone.
    this.#silence?.unsubscribe();
    this.#setSilent(false);
    this.#publish();
  }

  /** A status message starts the sensor's story again: its sequence, its health, what was reported. */
  #newStatus(): void {
    this.#gone = undefined;
    this.#health = undefined;
    this.#expectedSeq = undefined;
    this.#reported.clear();
  }

  /** The checks every sensor → host message but the status goes through before `use`. */
  #stamped(message: Reading | Health | Reply, retain: boolean, use: () => void): void {
    if (retain) return this.#refuse('retained messages but the status are stale and ignored', 'retained');
    if (this.#contest !== undefined) {
      return this.#refuse('messages while two devices publish as this sensor are ignored', 'contest');
    }
    if (this.#identity?.ok !== true || this.#gone !== undefined) {
      const why = !this.#identity
        ? 'before its hello'
        : this.#identity.ok
          ? 'after it said it is offline'
          : 'from a device that was refused';
      return this.#refuse(`messages ${why} are ignored`, 'status');
    }
    if (this.#expectedSeq !== undefined) {
      const follow = followSeq(this.#expectedSeq, message.seq);
      if ('stale' in follow) {
        return this.#refuse(
          `stale message seq ${message.seq} (expected ${this.#expectedSeq}): a duplicate or late`,
        );
      }
      if (follow.lost > 0) {
        this.counters.lost += follow.lost;
        this.#reject(`${follow.lost} message(s) lost before seq ${message.seq}`);
      }
    }
    this.#expectedSeq = nextSeq(message.seq);
    this.#heard();
    use();
  }

  #reading({ zone, amount, sensorTime }: Reading): void {
    if (!this.#zones.has(zone)) {
      return this.#refuse(
        `readings of ${zone}, which the config does not take from this sensor, are ignored`,
        zone,
      );
    }
    this.counters.readings++;
    const at = this.#clock.observe(sensorTime, this.#scheduler.now());
    const settling = this.#settler.reading(zone, amount, at);
    if (settling.settled === true) {
      const { amount: settled, previous } = settling;
      this.#emit({ kind: 'chips', zone, amount: settled, previous, sensorTime, t: this.#clock.toHost(at) });
    } else if (settling.settled === 'negative') {
      this.#reject(`${zone} settled at ${settling.amount}, below zero: tare the zone while it is empty`);
    }
  }

  #reply(reply: Reply): void {
    const zone = this.#pending.get(reply.id);
    if (zone === undefined)
      return this.#refuse(`a reply to command ${reply.id}, which croupier did not send`);
    this.#pending.delete(reply.id);
    if (!reply.ok) this.#reject(`the sensor refused to tare ${zone}: ${reply.error}`);
  }

  /** Counts a well-formed message not acted on; with `once`, reports it once until the next status message. */
  #refuse(reason: string, once?: string): void {
    this.counters.refused++;
    if (once !== undefined) {
      if (this.#reported.has(once)) return;
      this.#reported.add(once);
    }
    this.#reject(reason);
  }

  #reject(reason: string): void {
    this.#emit({ kind: 'rejected', reason, t: this.#scheduler.now() });
  }

  /** A message from the sensor (or a new link to the broker) starts the silence timeout again. */
  #heard(): void {
    this.#silence?.unsubscribe();
    this.#silence = this.#scheduler.schedule(() => this.#setSilent(true), this.#config.silenceMs);
    this.#setSilent(false);
  }

  #setSilent(silent: boolean): void {
    if (this.#silent === silent) return;
    this.#silent = silent;
    this.#publish();
  }

  /** Emits the status when it or its detail changed. */
  #publish(): void {
    const [status, detail] = this.#describe();
    const key = `${status}: ${detail}`;
    if (key === this.#published) return;
    this.#published = key;
    this.#emit({ kind: 'status', status, detail, t: this.#scheduler.now() });
  }

  #describe(): [ChipSensorStatus, string] {
    const { silenceMs } = this.#config;
    const identity = this.#identity;
    if (!this.#link.up) return ['offline', `broker: ${this.#link.reason}`];
    if (this.#contest !== undefined) return ['fault', this.#contest.detail];
    if (this.#gone !== undefined) {
      const sensor = identity?.ok ? `sensor ${identity.serial}` : 'the sensor';
      return ['offline', `${sensor} is offline: ${this.#gone}`];
    }
    if (!identity) {
      return [
        'offline',
        this.#silent ? `no hello from the sensor within ${silenceMs} ms` : 'waiting for the sensor’s hello',
      ];
    }
    if (!identity.ok) return ['fault', identity.detail];
    const sensor = `sensor ${identity.serial}, firmware ${identity.firmware}`;
    if (this.#silent) return ['offline', `${sensor}: nothing heard for ${silenceMs} ms`];
    if (identity.missing.length > 0) {
      return [
        'fault',
        `${sensor} does not measure ${identity.missing.join(', ')}, which the config takes from it`,
      ];
    }
    const health = this.#health;
    if (health?.status === 'fault') return ['fault', `${sensor}: fault ${health.code}: ${health.detail}`];
    if (health?.status === 'degraded')
      return ['online', `${sensor}: degraded ${health.code}: ${health.detail}`];
    return ['online', sensor];
  }
}
