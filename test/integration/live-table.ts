import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { filter, firstValueFrom, map, type Observable } from 'rxjs';
import { playTable, type TablePlay } from '../../simulators/virtual-table/play.js';
import { startVirtualTable, type VirtualTable } from '../../simulators/virtual-table/table.js';
import { parseConfig } from '../../src/config/config.js';
import { type Controller, startController } from '../../src/controller/controller.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { connectMqtt, type MqttLink, type MqttMessage } from '../../src/io/mqtt.js';
import type { Journal } from '../../src/journal/store.js';
import type { Cleanups } from './pty.js';
import { TEN_SEAT_ZONES } from './pty.js';

/**
 * croupier as `croupier start` runs it, on a virtual table's simulated devices over real PTYs and its
 * embedded broker (or the one given), with a floor client subscribed to everything and every log line kept.
 */
export interface LiveTable {
  controller: Controller;
  table: VirtualTable;
  floor: MqttLink;
  /** Every MQTT message the floor client received, in order. */
  messages: MqttMessage[];
  /** Every log line croupier wrote (all levels), as JSON text. */
  logs: string[];
  arrivals: Observable<DomainEvent>;
  /** The journal's file. */
  journal: string;
}

export async function startLiveTable(
  cleanups: Cleanups,
  overrides: {
    mqtt?: Record<string, unknown>;
    table?: Record<string, unknown>;
    seed?: number;
    /** The reader board reports its rounds (default true). */
    rounds?: boolean;
    /** The floor keeps its session on the broker: QoS 1 messages wait there while it is away. */
    persistentFloor?: boolean;
    display?: Record<string, unknown>;
    supervisors?: Record<string, unknown>[];
    journal?: Record<string, unknown>;
    /** Opens the journal (at its temp path) as croupier would, or with a limit: a disk that fills. */
    openJournal?: (path: string) => Journal;
    /** Rewrites the virtual table's `devices` section before croupier reads it. */
    devices?: (devices: VirtualTable['devices']) => unknown;
  } = {},
): Promise<LiveTable> {
  const table = await startVirtualTable({
    seed: overrides.seed ?? 2014,
    reportRounds: overrides.rounds ?? true,
  });
  cleanups.push(() => table.close());
  const dir = await mkdtemp(join(tmpdir(), 'croupier-live-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const config = parseConfig({
    table: { id: 'test-table', ...overrides.table },
    http: { port: 0 },
    mqtt: { embedded: { port: 0 }, ...overrides.mqtt },
    devices: overrides.devices ? overrides.devices(table.devices) : table.devices,
    log: { level: 'debug' },
    journal: { path: join(dir, 'journal.db'), ...overrides.journal },
    ...(overrides.display && { display: overrides.display }),
    ...(overrides.supervisors && { supervisors: overrides.supervisors }),
  });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const controller = await startController(config, 'test', pino({ level: 'debug' }, sink), {
    hidBinding: table.hidBus,
    ...(overrides.openJournal && { openJournal: overrides.openJournal }),
  });
  cleanups.push(() => controller.close());
  await table.connectNetworked(controller.mqttUrl, config.table.id);
  const floor = connectMqtt({
    url: controller.mqttUrl,
    clientId: `floor-${process.pid}-${Math.random()}`,
    reconnectMs: 200,
    clean: !overrides.persistentFloor,
  });
  cleanups.push(() => floor.close());
  const messages: MqttMessage[] = [];
  floor.messages('#').subscribe((message) => messages.push(message));
  await firstValueFrom(floor.status$.pipe(filter((status) => status.state === 'connected')));
  return {
    controller,
    table,
    floor,
    messages,
    logs,
    journal: config.journal.path,
    arrivals: controller.updates.pipe(map(({ event }) => event)),
  };
}

/** Plays a scenario's events on the live table: cards on the reader, the rest on the other devices or keyed. */
export function playOn(live: LiveTable, events: readonly DomainEvent[]): TablePlay {
  return playTable(events, {
    reader: live.table.reader,
    antennas: TEN_SEAT_ZONES,
    buttonUid: live.table.buttonUid,
    channels: live.table.channels,
    key: live.controller.input,
    arrivals: live.arrivals,
  });
}

/** Polls rather than sleeps, so a loaded machine only makes the test slower; `poll` refreshes what `condition` reads. */
export async function until(
  ms: number,
  what: () => string,
  condition: () => boolean,
  poll: () => Promise<void> = async () => undefined,
): Promise<void> {
  const deadline = performance.now() + ms;
  for (;;) {
    await poll();
    if (condition()) return;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export type Undo = (() => Promise<unknown>)[];

/** Steps to undo when the test finishes, last first, each one tried even when another fails. */
export function cleanupsOf(onTestFinished: (fn: () => Promise<void>) => void): Undo {
  const undo: Undo = [];
  onTestFinished(async () => {
    for (const step of undo.reverse()) await step().catch(() => undefined);
  });
  return undo;
}
