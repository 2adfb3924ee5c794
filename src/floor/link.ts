import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { BehaviorSubject, type Observable, Subject } from 'rxjs';
import type { MqttMessage, MqttStatus } from '../io/mqtt.js';

/**
 * The floor service's connection to the casino's broker: MQTT 5, for its shared subscriptions (issue
 * 20: several floor services count the statistics once). mqtt.js reconnects and subscribes again by
 * itself; each subscription then brings the retained messages again, which rebuild the room. A broker
 * that speaks no MQTT 5 (croupier's own embedded one) is spoken to in 3.1.1, its subscriptions unshared.
 */

export interface FloorLinkOptions {
  url: string;
  clientId: string;
  username?: string | undefined;
  password?: string | undefined;
  /** The topic filters, each shared in `group` when given (`$share/<group>/<filter>`). */
  filters: readonly string[];
  group?: string;
  /**
   * 0 for the retained status and state: a broker sends a subscription's retained messages at once, and
   * Mosquitto holds at most `max_queued_messages` (1,000) of QoS 1 for a client, dropping the rest (a
   * room of 1,000 tables has 2,000); a state lost on a live connection is said again by the next.
   */
  qos: 0 | 1;
  reconnectMs?: number;
}

export interface FloorLink {
  /** `connected` once the broker granted the subscriptions (and their retained messages are on the way). */
  status$: Observable<MqttStatus>;
  /** Every message of the filters, in arrival order. */
  messages: Observable<MqttMessage>;
  publish(topic: string, payload: string): Promise<void>;
  /** Whether the filters are shared: false on a broker without MQTT 5. */
  shared(): boolean;
  close(): Promise<void>;
}

/** CONNACK's return code of a 3.1.1 broker refusing a protocol level it does not speak. */
const UNACCEPTABLE_PROTOCOL = 1;

export function connectFloorLink(options: FloorLinkOptions): FloorLink {
  const status$ = new BehaviorSubject<MqttStatus>({ state: 'connecting' });
  const messages = new Subject<MqttMessage>();
  let protocolVersion: 4 | 5 = 5;
  let everConnected = false;
  let closed = false;
  let lastError = 'broker unreachable';
  const set = (status: MqttStatus) => {
    if (!closed && status$.value.state !== status.state) status$.next(status);
  };
  const filters = () =>
    options.filters.map((filter) =>
      options.group !== undefined && protocolVersion === 5 ? `$share/${options.group}/${filter}` : filter,
    );

  const open = (): MqttClient => {
    const clientOptions: IClientOptions = {
      clientId: options.clientId,
      protocolVersion,
      clean: true,
      // Subscribed again at each connection, here: the link is `connected` once the broker granted them.
      resubscribe: false,
      reconnectPeriod: options.reconnectMs ?? 1000,
      connectTimeout: 5000,
      ...(options.username !== undefined && { username: options.username }),
      ...(options.password !== undefined && { password: options.password }),
    };
    const client = connect(options.url, clientOptions);
    client.on('connect', () => {
      everConnected = true;
      client.subscribe(filters(), { qos: options.qos }, (error) => {
        if (error) lastError = `cannot subscribe: ${error.message}`;
        else set({ state: 'connected' });
      });
    });
    client.on('error', (error) => {
      lastError = error.message;
      const code = (error as { code?: unknown }).code;
      if (code === UNACCEPTABLE_PROTOCOL && protocolVersion === 5 && !everConnected) {
        protocolVersion = 4;
        client.end(true);
        current = open();
      }
    });
    client.on('close', () => set({ state: 'offline', reason: lastError }));
    client.on('offline', () => set({ state: 'offline', reason: lastError }));
    client.on('message', (topic, payload, packet) =>
      messages.next({ topic, payload, retain: packet.retain }),
    );
    return client;
  };
  let current = open();

  return {
    status$: status$.asObservable(),
    messages: messages.asObservable(),
    async publish(topic, payload) {
      await current.publishAsync(topic, payload, { qos: 1 });
    },
    shared: () => options.group !== undefined && protocolVersion === 5,
    async close() {
      closed = true;
      status$.next({ state: 'closed' });
      status$.complete();
      messages.complete();
      await current.endAsync(!current.connected);
    },
  };
}
