import { asyncScheduler, map, merge, type Observable, type SchedulerLike } from 'rxjs';
import type { z } from 'zod';
import type { ChipZone } from '../../src/domain/zones.js';
import type { MqttLink, MqttMessage, MqttStatus } from '../../src/io/mqtt.js';
import { sessionEvents } from '../device-session.js';
import { type DeviceHealth, DeviceStatusTracker, judgeHello, type StatusWording } from '../device-status.js';
import { IdentityClaims } from '../identity-claims.js';
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

export type ChipSensorStatus = DeviceHealth;

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
  /** The serial numbers the table's devices hold: a second sensor saying hello with one is refused. */
  claims: IdentityClaims = new IdentityClaims(),
): ChipSensor {
  const pending = new Map<number, ChipZone>();
  let commandId = 0;
  const { events, session } = sessionEvents(
    (emit: (event: ChipSensorEvent) => void) =>
      new SensorSession(baseTopic, config, scheduler, pending, emit, claims),
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

/** A sensor's words for its link to the broker and its hello. */
const SENSOR_WORDING: StatusWording = {
  linkDown: (reason) => `broker: ${reason}`,
  waiting: 'waiting for the sensor’s hello',
  noHello: (timeoutMs) => `no hello from the sensor within ${timeoutMs} ms`,
};

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
  /** The link, the hello, the silence timeout: judged as every driver's are. */
  readonly #device: DeviceStatusTracker;
  /**
   * Who holds which serial. The sensor online under this topic holds its serial from its hello until its
   * goodbye (or croupier's own link drops: the broker then sends the retained hello again); while it is
   * not silent, a hello of another serial is a second device publishing as this sensor.
   */
  readonly #claims: IdentityClaims;
  /** The zones of the config the sensor said in its hello it does not measure. */
  #missing: ChipZone[] = [];
  /** Why the sensor said it is offline (its last will or its goodbye), until its next hello. */
  #gone: string | undefined;
  /** Two devices claimed the sensor: it is in fault until a goodbye (or a restart) clears it. */
  #contest: { holder: string; detail: string } | undefined;
  #health: Health | undefined;
  #expectedSeq: number | undefined;
  /** Refusals already reported since the last status message: a sensor repeats them several times a second. */
  readonly #reported = new Set<string>();

  constructor(
    base: string,
    config: ChipSensorsConfig,
    scheduler: SchedulerLike,
    pending: Map<number, ChipZone>,
    emit: (event: ChipSensorEvent) => void,
    claims: IdentityClaims,
  ) {
    this.#base = base;
    this.#config = config;
    this.#scheduler = scheduler;
    this.#pending = pending;
    this.#emit = emit;
    this.#claims = claims;
    this.#zones = new Set(config.zones);
    this.#settler = new ZoneSettler(config);
    this.#device = new DeviceStatusTracker({
      scheduler,
      heartbeatTimeoutMs: config.silenceMs,
      noun: 'sensor',
      wording: SENSOR_WORDING,
      // The broker sends the retained hello again on resubscribing.
      helloOutlivesLink: true,
      overriding: () => this.#overriding(),
      reported: (sensor) => this.#ownReport(sensor),
      changed: (status, detail) => this.#emit({ kind: 'status', status, detail, t: this.#scheduler.now() }),
    });
  }

  linkStatus(status: MqttStatus): void {
    // Connected, the broker sends the retained hello again on resubscribing: the sensor has this long to be heard.
    if (status.state === 'connected') return this.#device.linkUp();
    const reason = status.state === 'offline' ? status.reason : `link ${status.state}`;
    this.#claims.release(this.#config.id);
    this.#device.linkDown(status.state === 'connecting' ? 'connecting to the broker' : reason);
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
            this.#device.update();
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
    // The topic's claim is this subscription's: a new one starts with none.
    this.#claims.release(this.#config.id);
    this.#device.stop();
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
    const claim = this.#device.silent ? undefined : this.#claims.serialHeldBy(this.#config.id);
    if (this.#contest !== undefined || (claim !== undefined && hello.serial !== claim)) {
      return this.#contested(hello.serial);
    }
    this.#newStatus();
    this.#clock.reset();
    this.#settler.restart();
    const judged = judgeHello(hello, {
      kind: CHIP_SENSORS_KIND,
      called: 'a chip sensor',
      serial: this.#config.serial,
      on: 'topic',
    });
    // A hello the sensor's own checks refuse leaves the topic's claim as it was.
    const identity = judged.ok ? this.#claims.judged(this.#config.id, CHIP_SENSORS_KIND, judged) : judged;
    if (identity.ok) this.#missing = this.#config.zones.filter((zone) => !hello.zones.includes(zone));
    else this.#reject(`refused hello: ${identity.detail}`);
    this.#device.introduced(identity);
  }

  /**
   * A hello of `serial` while another sensor is online under this topic (or after such a hello): two
   * devices publish as one. Neither can be told from the other, so nothing is acted on until one says
   * goodbye and a sensor says hello again.
   */
  #contested(serial: string): void {
    const holder = this.#contest?.holder ?? this.#claims.serialHeldBy(this.#config.id) ?? '';
    if (serial !== holder) this.counters.contested++;
    this.#contest ??= {
      holder,
      detail: `two devices publish as ${this.#config.id}: sensor ${holder}, online, and ${serial}, which said hello too; ignored until a goodbye and a new hello, or a restart`,
    };
    this.#reject(
      `refused hello of ${serial}: sensor ${holder} was online on this topic and has not said goodbye`,
    );
    this.#device.update();
  }

  #goodbye(goodbye: Goodbye): void {
    this.#newStatus();
    this.#claims.release(this.#config.id);
    this.#contest = undefined;
    this.#gone = goodbye.reason ?? 'no reason given';
    this.#device.saidGoodbye();
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
    const identity = this.#device.identity;
    if (identity?.ok !== true || this.#gone !== undefined) {
      const why = !identity
        ? 'before its hello'
        : identity.ok
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
    this.#device.heard();
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

  /** A goodbye, or two devices publishing as this sensor, outranks its hello and its silence. */
  #overriding(): [ChipSensorStatus, string] | undefined {
    if (this.#contest !== undefined) return ['fault', this.#contest.detail];
    if (this.#gone === undefined) return undefined;
    const identity = this.#device.identity;
    const sensor = identity?.ok ? `sensor ${identity.serial}` : 'the sensor';
    return ['offline', `${sensor} is offline: ${this.#gone}`];
  }

  /** What its own reports say of a sensor online and heard: `sensor` is "sensor CS-0042, firmware 1.4.0". */
  #ownReport(sensor: string): [ChipSensorStatus, string] {
    if (this.#missing.length > 0) {
      return [
        'fault',
        `${sensor} does not measure ${this.#missing.join(', ')}, which the config takes from it`,
      ];
    }
    const health = this.#health;
    if (health?.status === 'fault') return ['fault', `${sensor}: fault ${health.code}: ${health.detail}`];
    if (health?.status === 'degraded')
      return ['online', `${sensor}: degraded ${health.code}: ${health.detail}`];
    return ['online', sensor];
  }
}
