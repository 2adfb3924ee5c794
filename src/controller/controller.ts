import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { asyncScheduler, connectable, type Observable, Subject, tap } from 'rxjs';
import { IdentityClaims } from '../../devices/identity-claims.js';
import type { CroupierConfig } from '../config/config.js';
import { registryFromConfig } from '../config/decks.js';
import { registerDisplay } from '../display/server.js';
import { dealerTouches } from '../display/touch-policy.js';
import { type EmbeddedBroker, readTls, startEmbeddedBroker } from '../io/broker.js';
import type { HidBinding } from '../io/hid.js';
import { connectMqtt } from '../io/mqtt.js';
import { JournalError } from '../journal/errors.js';
import type { Journal } from '../journal/store.js';
import { brokerAccess } from '../mqtt/broker-access.js';
import { floorCommands } from '../mqtt/commands.js';
import { publishTable, statusMessage } from '../mqtt/publisher.js';
import { topicOf } from '../mqtt/topics.js';
import { DEVICE_FLOOD_BUDGET, floodGuard } from '../normaliser/flood-guard.js';
import { publicOutput } from '../outputs/public.js';
import { FloorDesk } from '../supervisor/desk.js';
import { nextHand } from '../table/next-hand.js';
import { journaledDown, TableCrew } from './crew.js';
import { DealerRoster } from './dealers.js';
import { type DeviceHandle, openChipSensors, openKeypad, openRfidReader, openShuffler } from './devices.js';
import { TableHealth } from './health.js';
import { startHttp } from './http.js';
import { journaledTable } from './journaled-table.js';
import type { SourceEvent, TableSnapshot, TableUpdate } from './pipeline.js';
import { tableConfigOf } from './table-config.js';

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
    const refused = (source: string, reason: string) => {
      health.refused(source);
      log.warn({ source, reason }, 'input refused');
    };
    let broker: EmbeddedBroker | undefined;
    // croupier's own sign-in: the config's for an external broker, one made now for its own.
    let credentials = { username: config.mqtt.username, password: config.mqtt.password };
    if (config.mqtt.url === undefined) {
      const own = { username: 'croupier', password: randomBytes(24).toString('base64url') };
      const guarded = config.mqtt.users.length > 0;
      const { host, port } = config.mqtt.embedded;
      broker = await startEmbeddedBroker({
        host,
        port,
        ...(config.mqtt.embedded.tls && { tls: await readTls(config.mqtt.embedded.tls) }),
        ...(guarded && {
          hooks: brokerAccess(tableId, config.mqtt.users, own, (reason) => refused('mqtt', reason)),
        }),
      });
      undo.push(() => (broker as EmbeddedBroker).close());
      if (guarded) credentials = own;
    }
    const mqttUrl = config.mqtt.url ?? (broker as EmbeddedBroker).url;
    const mqtt = connectMqtt({
      url: mqttUrl,
      clientId: `croupier-${tableId}`,
      ...(credentials.username !== undefined && { username: credentials.username }),
      ...(credentials.password !== undefined && { password: credentials.password }),
      // A self-signed certificate of the embedded broker is croupier's own.
      ...(broker && config.mqtt.embedded.tls && { rejectUnauthorized: false }),
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

    const badges = new Subject<string>();
    // The dealer of the down, the floor's answer to a call, the devices' health: beside the table's state.
    const crew = new TableCrew({
      profile: config.table.profile,
      devices: () => health.devices(),
      hands: () => latest.context.hands,
    });
    const dealers = new DealerRoster(config.dealers);
    const startDown = (name: string) => {
      table.mark('dealer', crew.signIn(name));
      log.info({ dealer: name }, 'dealer signed in');
    };
    const context = {
      registry,
      refused,
      claims: new IdentityClaims(),
      hidBinding,
      mqtt,
      tableId,
      // A dealer's badge starts their down; any other is a supervisor's, for the floor desk.
      badge: (uid: string) =>
        void dealers.badge(uid).then((name) => (name === null ? badges.next(uid) : startDown(name))),
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
    // One desk for the display's PIN pad, the badge reader and the floor's MQTT commands: one lockout.
    const desk = new FloorDesk(config.supervisors, { now: Date.now });
    const commands = floorCommands(mqtt, tableId, {
      now,
      desk,
      refuse: ({ reason }) => refused('command', reason),
      answered: ({ supervisor, call }) => {
        if (!crew.answer(supervisor, call)) {
          refused('command', `on-my-way from ${supervisor}: call ${call} is no longer open`);
          return;
        }
        table.mark('floor-answer', { supervisor, call });
        log.info({ supervisor, call }, 'the floor is on the way');
      },
    });

    const table = journaledTable(
      config,
      tableConfigOf(config),
      [
        // Each device within its share: a flooding one is cut off and reported, the others go on.
        ...devices.map((device) =>
          device.events.pipe(
            floodGuard({
              device: device.id,
              ...DEVICE_FLOOD_BUDGET,
              calm: (dropped) => refused(device.id, `flooding ended: ${dropped} events dropped`),
            }),
          ),
        ),
        dealer,
        commands,
      ],
      {
        log,
        health,
        ...(openJournal && { open: openJournal }),
      },
    );
    undo.push(async () => table.close());
    // The dealer's screens hear each update first: an alert must not wait for MQTT or the log. A screen
    // connects later, and a Subject that failed still tells a late subscriber why the table stopped.
    const screened = new Subject<TableUpdate>();
    // Forwarded by hand: given to `tap` whole, a Subject's own subscribe and unsubscribe would be called.
    const toScreens = tap<TableUpdate>({
      next: (update) => screened.next(update),
      error: (error: unknown) => screened.error(error),
      complete: () => screened.complete(),
    });
    // Every output is subscribed before the table starts: a device's first status may come at once.
    // Not reset when the table stops, for the same late subscribers.
    const updates = connectable(table.updates.pipe(toScreens), {
      connector: () => new Subject(),
      resetOnDisconnect: false,
    });
    const publishing = publishTable(mqtt, updates, {
      tableId,
      version,
      privateDelayMs: config.mqtt.privateDelayMs,
      journal: config.journal.path,
      failed: (topic, reason) => log.error({ topic, reason }, 'MQTT publish lost'),
      halts: table.halts,
      extras: crew,
    });
    undo.push(async () => publishing.unsubscribe());
    const judging = updates.subscribe({
      next: ({ event, outputs }) => {
        if (event.type === 'device') {
          health.device(event);
          crew.devicesChanged();
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
    const down = journaledDown(table.lastMark('dealer'));
    if (down) crew.resume(down);
    const tracking = updates.subscribe({
      next: ({ snapshot }) => {
        latest = snapshot;
      },
      error: () => undefined, // the table stopped: logged above, the last state stays
    });
    undo.push(async () => tracking.unsubscribe());
    // A halt cleared: the table goes on where the journal leaves it, recovered again.
    const resumed = table.halts.subscribe((halt) => {
      if (halt === null) latest = table.snapshot;
    });
    undo.push(async () => resumed.unsubscribe());
    const display = (server: FastifyInstance) =>
      registerDisplay(server, {
        hello: {
          table: tableId,
          version,
          profile: config.table.profile,
          language: config.display.language,
          seats: config.table.seats,
          supervisors: config.supervisors.length > 0,
          dealers: config.dealers.length > 0,
        },
        updates: screened,
        halts: table.halts,
        snapshot: () => latest,
        health,
        input: (event) => dealer.next(event),
        now,
        mayTouch: dealerTouches(config.display.dealerAddresses),
        nextHand: (snapshot, t) => nextHand(snapshot.context, t),
        desk,
        badges,
        refused,
        recentHands: (limit) => table.recentHands(limit),
        clearHalt: (supervisor) => table.clearHalt(supervisor),
        extras: crew,
        signInDealer: async (pin) => {
          const outcome = await dealers.signIn(pin);
          if ('dealer' in outcome) startDown(outcome.dealer);
          return outcome;
        },
      });
    const http = await startHttp(config.http, health, [display]);
    undo.push(() => http.server.close());
    // The tail of the chain was checked at open; the whole of it is walked now that croupier is up.
    table.checkInBackground();
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
