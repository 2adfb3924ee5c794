import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { filter, firstValueFrom } from 'rxjs';
import type { CroupierConfig } from '../config/config.js';
import type { MqttStatus } from '../io/mqtt.js';
import { connectFloorLink, type FloorLink } from './link.js';
import { Room } from './room.js';
import { startFloorServer } from './server.js';
import { FloorStats } from './stats.js';
import { FloorSupervisors } from './supervisors.js';
import { Tally } from './tally.js';
import { floorFilters, readTableMessage, type TableMessage } from './topics.js';

export interface FloorService {
  url: string;
  room: Room;
  close(): Promise<void>;
}

/** An answer the broker has not taken in this long is said lost to the tablet (it is still sent later). */
const PUBLISH_MS = 5000;
/** How long the start waits for the broker before the page is served without it. */
const READY_MS = 5000;
/** A refusal said once per source and reason in this long; all are counted. */
const LOG_EVERY_MS = 60_000;

/**
 * `croupier floor`: the floor supervisors' service for the card room (DESIGN.md "The floor"). It signs
 * in to the casino's broker with the floor role and reads only the tables' public topics: `status` and
 * `state` (retained: the room rebuilt from one read) for the page, on its own subscription of its
 * tables (`floor.tables`, one service per pit); `state` and `incident` of the whole room for the
 * statistics, on a shared subscription so that the room's floor services count each message once.
 */
export async function startFloor(
  config: CroupierConfig,
  version: string,
  log: Logger,
): Promise<FloorService> {
  const { floor } = config;
  if (config.mqtt.url === undefined) throw new Error('the floor needs the casino broker: --mqtt URL');
  const refusals = new Refusals(log);
  const refused = (source: string, reason: string) => refusals.count(source, reason);
  const undo: (() => Promise<unknown>)[] = [];
  try {
    const stats = new FloorStats(floor.stats);
    undo.push(async () => stats.close());
    const room = new Room();
    const tally = new Tally(stats);
    // One of several floor services, maybe in one process: a client id the broker gives no other.
    const client = `croupier-floor-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
    const credentials = { username: config.mqtt.username, password: config.mqtt.password };
    const view = connectFloorLink({
      url: config.mqtt.url,
      clientId: `${client}-view`,
      ...credentials,
      filters: floorFilters(floor.tables, ['status', 'state']),
      qos: 0,
    });
    undo.push(() => view.close());
    const counting = connectFloorLink({
      url: config.mqtt.url,
      clientId: `${client}-stats`,
      ...credentials,
      filters: floorFilters(['+'], ['state', 'incident']),
      group: floor.statsGroup,
      qos: 1,
    });
    undo.push(() => counting.close());
    // Each message checked against the topic map; a bad one is counted and logged, never fatal.
    const read =
      (into: (message: Exclude<TableMessage, { refused: string }>) => void) =>
      ({ topic, payload }: { topic: string; payload: Buffer }) => {
        const message = readTableMessage(topic, payload);
        if ('refused' in message) refused(message.table ?? 'mqtt', message.refused);
        else into(message);
      };
    const subscriptions = [
      view.messages.subscribe(read((message) => room.apply(message))),
      counting.messages.subscribe(
        read((message) => {
          try {
            tally.take(message);
          } catch (error) {
            refused('stats', `not counted: ${(error as Error).message}`);
          }
        }),
      ),
      ...linkLog(log, { view, counting }),
    ];
    undo.push(async () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
    });
    // The page's link and the statistics' link: /healthz says both.
    let broker: MqttStatus = { state: 'connecting' };
    let counted: MqttStatus = { state: 'connecting' };
    subscriptions.push(
      view.status$.subscribe((status) => {
        broker = status;
      }),
      counting.status$.subscribe((status) => {
        counted = status;
      }),
    );
    // Ready once both links are subscribed (what a table says from then on is seen and counted), or
    // after a while without the broker: the page then says it is away, and the links go on trying.
    await Promise.race([
      Promise.all([view, counting].map((link) => firstValueFrom(link.status$.pipe(filter(connected))))),
      new Promise((resolve) => setTimeout(resolve, READY_MS).unref()),
    ]).catch(() => undefined);
    const supervisors = new FloorSupervisors(config.supervisors, {
      now: Date.now,
      sessionMs: floor.sessionMinutes * 60_000,
    });
    const http = await startFloorServer({
      host: floor.host,
      port: floor.port,
      hello: {
        version,
        language: config.display.language,
        supervisors: config.supervisors.length > 0,
        tables: floor.tables,
      },
      room,
      supervisors,
      stats,
      broker: view.status$,
      publish: (topic, payload) => within(PUBLISH_MS, view.publish(topic, payload)),
      refused,
      health: () => ({
        status: broker.state === 'connected' && counted.state === 'connected' ? 'ok' : 'degraded',
        version,
        broker,
        stats: { broker: counted, shared: counting.shared() },
        tables: room.size,
        states: room.stated,
        refused: refusals.counts(),
      }),
    });
    undo.push(() => http.close());
    log.info(
      {
        http: http.url,
        broker: config.mqtt.url,
        tables: floor.tables,
        stats: floor.stats,
        group: floor.statsGroup,
      },
      'croupier floor started',
    );
    return {
      url: http.url,
      room,
      close: async () => {
        for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    throw error;
  }
}

const connected = (status: MqttStatus) => status.state === 'connected';

function linkLog(log: Logger, links: Record<string, FloorLink>) {
  return Object.entries(links).map(([name, link]) =>
    link.status$.subscribe((status) => {
      if (status.state === 'connected') log.info({ link: name, shared: link.shared() }, 'broker connected');
      if (status.state === 'offline') log.warn({ link: name, reason: status.reason }, 'broker unreachable');
    }),
  );
}

function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not taken within ${ms} ms (the broker is away?)`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Bad messages and refused requests: each counted by source, logged once a minute per reason. */
class Refusals {
  readonly #counts: Record<string, number> = {};
  readonly #logged = new Map<string, number>();

  constructor(private readonly log: Logger) {}

  count(source: string, reason: string): void {
    this.#counts[source] = (this.#counts[source] ?? 0) + 1;
    const key = `${source}\n${reason}`;
    const now = Date.now();
    if (now - (this.#logged.get(key) ?? -LOG_EVERY_MS) < LOG_EVERY_MS) return;
    if (this.#logged.size > 10_000) this.#logged.clear();
    this.#logged.set(key, now);
    this.log.warn({ source, reason, count: this.#counts[source] }, 'refused');
  }

  counts(): Record<string, number> {
    return { ...this.#counts };
  }
}
