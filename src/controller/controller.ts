import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { asyncScheduler, connectable, type Observable, Subject } from 'rxjs';
import type { CroupierConfig } from '../config/config.js';
import { registryFromConfig } from '../config/decks.js';
import { registerDisplay } from '../display/server.js';
import { type EmbeddedBroker, startEmbeddedBroker } from '../io/broker.js';
import type { HidBinding } from '../io/hid.js';
import { connectMqtt } from '../io/mqtt.js';
import { JournalError } from '../journal/errors.js';
import type { Journal } from '../journal/store.js';
import { floorCommands } from '../mqtt/commands.js';
import { publishTable, statusMessage } from '../mqtt/publisher.js';
import { topicOf } from '../mqtt/topics.js';
import { publicOutput } from '../outputs/public.js';
import { PROFILES } from '../rules/index.js';
import { FloorDesk } from '../supervisor/desk.js';
import { nextHand } from '../table/next-hand.js';
import { type DeviceHandle, openChipSensors, openKeypad, openRfidReader, openShuffler } from './devices.js';
import { TableHealth } from './health.js';
import { startHttp } from './http.js';
import { journaledTable } from './journaled-table.js';
import type { SourceEvent, TableSnapshot, TableUpdate } from './pipeline.js';

export interface Controller {
  /** The HTTP server (`/healthz`; the display later). */
  httpUrl: string;
  /** The broker croupier publishes to (its own, or the configured one). */
  mqttUrl: string;
  /** The dealer's and the display's inputs: hand start, dealer inputs, actions keyed on screen. */
  input(event: SourceEvent): void;
  /** One update per event judged: shared, hot. */
  updates: Observable<TableUpdate>;
  health: TableHealth;
  /** Where the table stands now (after recovery, before any event: as the journal left it). */
  snapshot(): TableSnapshot;
  close(): Promise<void>;
}

/**
 * croupier on one table: the broker (its own unless the config names one), the devices, the table
 * pipeline, and its outputs on MQTT, HTTP and the log. Data flows one way; this only wires it.
 */
export async function startController(
  config: CroupierConfig,
  version: string,
  log: Logger,
  { hidBinding, openJournal }: { hidBinding?: HidBinding; openJournal?: (path: string) => Journal } = {},
): Promise<Controller> {
  const now = () => asyncScheduler.now();
  const tableId = config.table.id;
  const health = new TableHealth(tableId, version, now);
  const registry = await registryFromConfig(config.decks);
  const undo: (() => Promise<unknown>)[] = [];
  try {
    let broker: EmbeddedBroker | undefined;
    if (config.mqtt.url === undefined) {
      broker = await startEmbeddedBroker(config.mqtt.embedded);
      undo.push(() => (broker as EmbeddedBroker).close());
    }
    const mqttUrl = config.mqtt.url ?? (broker as EmbeddedBroker).url;
    const mqtt = connectMqtt({
      url: mqttUrl,
      clientId: `croupier-${tableId}`,
      ...(config.mqtt.username !== undefined && { username: config.mqtt.username }),
      ...(config.mqtt.password !== undefined && { password: config.mqtt.password }),
      will: {
        topic: topicOf(tableId, 'status'),
        payload: statusMessage('offline', version),
        retain: true,
        qos: 1,
      },
    });
    undo.push(async () => {
      // A clean stop says so; the will is for a croupier that vanished.
      const said = mqtt.publish(topicOf(tableId, 'status'), statusMessage('offline', version), {
        qos: 1,
        retain: true,
      });
      await Promise.race([said, new Promise((resolve) => setTimeout(resolve, 1000))]);
      await mqtt.close();
    });
    mqtt.status$.subscribe((status) => {
      health.mqtt(status);
      if (status.state === 'offline')
        log.warn({ broker: mqttUrl, reason: status.reason }, 'MQTT broker unreachable');
      if (status.state === 'connected') log.info({ broker: mqttUrl }, 'MQTT broker connected');
    });

    const refused = (source: string, reason: string) => {
      health.refused(source);
      log.warn({ source, reason }, 'input refused');
    };
    const badges = new Subject<string>();
    const context = {
      registry,
      refused,
      hidBinding,
      mqtt,
      tableId,
      badge: (uid: string) => badges.next(uid),
    };
    const devices: DeviceHandle[] = [
      ...config.devices.rfid.map((reader) => openRfidReader(reader, context)),
      ...config.devices.keypad.map((keypad) => openKeypad(keypad, context)),
      ...config.devices.chips.map((chips) => openChipSensors(chips, context)),
      ...config.devices.shuffler.map((shuffler) => openShuffler(shuffler, context)),
    ];
    for (const device of devices) {
      health.addDevice(device.id, device.kind, device.counters);
      undo.push(() => device.close());
    }
    const dealer = new Subject<SourceEvent>();
    const commands = floorCommands(mqtt, tableId, now, ({ reason }) => refused('command', reason));

    const tableConfig = {
      seats: config.table.seats,
      profile: PROFILES[config.table.profile],
      orderWindowMs: config.table.orderWindowMs,
    };
    const table = journaledTable(
      config,
      tableConfig,
      [...devices.map((device) => device.events), dealer, commands],
      {
        log,
        health,
        ...(openJournal && { open: openJournal }),
      },
    );
    undo.push(async () => table.close());
    // Every output is subscribed before the table starts: a device's first status may come at once.
    // Not reset when the table stops: a late subscriber (a display) still learns why it stopped.
    const updates = connectable(table.updates, { connector: () => new Subject(), resetOnDisconnect: false });
    const publishing = publishTable(mqtt, updates, {
      tableId,
      version,
      privateDelayMs: config.mqtt.privateDelayMs,
      failed: (topic, reason) => log.error({ topic, reason }, 'MQTT publish lost'),
    });
    undo.push(async () => publishing.unsubscribe());
    const judging = updates.subscribe({
      next: ({ event, outputs }) => {
        if (event.type === 'device') {
          health.device(event);
          log.info({ device: event.device, status: event.status, detail: event.detail }, 'device status');
        }
        if (event.type === 'dealer' && event.supervisor !== undefined) {
          log.info(
            { supervisor: event.supervisor, input: event.input, value: event.value },
            'floor action signed',
          );
        }
        for (const output of outputs) log.info({ output: publicOutput(output) }, output.kind);
      },
      error: (error: unknown) => {
        if (!(error instanceof JournalError)) log.fatal({ err: error }, 'the table pipeline failed');
      },
    });
    undo.push(async () => judging.unsubscribe());
    const running = updates.connect();
    undo.push(async () => running.unsubscribe());

    let latest = table.snapshot;
    const tracking = updates.subscribe({
      next: ({ snapshot }) => {
        latest = snapshot;
      },
      error: () => undefined, // the table stopped: logged above, the last state stays
    });
    undo.push(async () => tracking.unsubscribe());
    const display = (server: FastifyInstance) =>
      registerDisplay(server, {
        hello: {
          table: tableId,
          version,
          profile: config.table.profile,
          language: config.display.language,
          seats: config.table.seats,
          supervisors: config.supervisors.length > 0,
        },
        updates,
        snapshot: () => latest,
        health,
        input: (event) => dealer.next(event),
        now,
        nextHand: (snapshot) => nextHand(snapshot.context, config.table.blinds, Object.keys(config.decks)),
        desk: new FloorDesk(config.supervisors, { now: Date.now }),
        badges,
        refused,
      });
    const http = await startHttp(config.http, health, [display]);
    undo.push(() => http.server.close());
    log.info(
      { table: tableId, http: http.url, mqtt: mqttUrl, devices: devices.map((d) => d.id) },
      'croupier started',
    );
    return {
      httpUrl: http.url,
      mqttUrl,
      input: (event) => dealer.next(event),
      updates,
      health,
      snapshot: () => latest,
      close: async () => {
        dealer.complete();
        for (const step of undo.splice(0).reverse()) await step().catch(() => undefined);
      },
    };
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    throw error;
  }
}
