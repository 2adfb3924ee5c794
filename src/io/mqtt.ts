import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { BehaviorSubject, filter, finalize, type Observable, Subject, share } from 'rxjs';

/**
 * MQTT transport over mqtt.js: reconnects by itself (mqtt.js does), resubscribes, and keeps QoS 1
 * publishes made while the broker is away until it acknowledges them. Nothing here throws into the
 * caller: a lost broker is a status.
 */

export interface MqttMessage {
  topic: string;
  payload: Buffer;
  retain: boolean;
}

export type MqttStatus =
  | { state: 'connecting' }
  | { state: 'connected' }
  | { state: 'offline'; reason: string }
  | { state: 'closed' };

export interface PublishOptions {
  qos?: 0 | 1;
  retain?: boolean;
}

export interface MqttLinkOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  /** false accepts a self-signed broker certificate (croupier's own embedded broker). */
  rejectUnauthorized?: boolean;
  /** Published by the broker for us when we vanish without saying goodbye (retained `status`). */
  will?: { topic: string; payload: string; retain: boolean; qos: 0 | 1 };
  /** Delay between reconnect attempts (default 1 s). */
  reconnectMs?: number;
  /**
   * false keeps the session on the broker across disconnects: QoS 1 messages for our subscriptions wait
   * there while we are away (default true).
   */
  clean?: boolean;
}

export interface MqttLink {
  status$: Observable<MqttStatus>;
  /** Messages on topics matching `topicFilter`; subscribing subscribes on the broker, the last unsubscribe leaves. */
  messages(topicFilter: string, qos?: 0 | 1): Observable<MqttMessage>;
  /** Resolves once the broker has it (QoS 1: its PUBACK); while the broker is away, it waits. */
  publish(topic: string, payload: string | Uint8Array, options?: PublishOptions): Promise<void>;
  /** Disconnects cleanly (the will is not sent); queued QoS 1 publishes are flushed first if connected. */
  close(): Promise<void>;
}

export function connectMqtt(options: MqttLinkOptions): MqttLink {
  const clientOptions: IClientOptions = {
    clientId: options.clientId,
    reconnectPeriod: options.reconnectMs ?? 1000,
    connectTimeout: 5000,
    clean: options.clean ?? true,
    ...(options.username !== undefined && { username: options.username }),
    ...(options.password !== undefined && { password: options.password }),
    ...(options.will && { will: { ...options.will } }),
    ...(options.rejectUnauthorized !== undefined && { rejectUnauthorized: options.rejectUnauthorized }),
  };
  const client: MqttClient = connect(options.url, clientOptions);
  const status$ = new BehaviorSubject<MqttStatus>({ state: 'connecting' });
  const incoming = new Subject<MqttMessage>();
  let lastError = 'broker unreachable';
  const setStatus = (status: MqttStatus) => {
    if (status$.value.state === 'closed') return;
    if (status$.value.state !== status.state) status$.next(status);
  };
  client.on('connect', () => setStatus({ state: 'connected' }));
  client.on('error', (error) => {
    lastError = error.message;
  });
  client.on('close', () => setStatus({ state: 'offline', reason: lastError }));
  client.on('offline', () => setStatus({ state: 'offline', reason: lastError }));
  client.on('message', (topic, payload, packet) => incoming.next({ topic, payload, retain: packet.retain }));

  const subscriptions = new Map<string, Observable<MqttMessage>>();
  return {
    status$: status$.asObservable(),
    messages(topicFilter, qos = 1) {
      let shared = subscriptions.get(topicFilter);
      if (!shared) {
        client.subscribe(topicFilter, { qos }, (error) => {
          if (error) lastError = `cannot subscribe to ${topicFilter}: ${error.message}`;
        });
        shared = incoming.pipe(
          filter((message) => topicMatches(topicFilter, message.topic)),
          finalize(() => {
            subscriptions.delete(topicFilter);
            if (!client.disconnecting && !client.disconnected) client.unsubscribe(topicFilter);
          }),
          share(),
        );
        subscriptions.set(topicFilter, shared);
      }
      return shared;
    },
    async publish(topic, payload, { qos = 0, retain = false } = {}) {
      // A QoS 1 message in flight when the connection drops stays in mqtt.js's store and is sent again on
      // reconnect, so this resolves once a broker has it.
      await client.publishAsync(topic, Buffer.from(payload), { qos, retain });
    },
    async close() {
      status$.next({ state: 'closed' });
      status$.complete();
      incoming.complete();
      // Without a broker there is no one to say goodbye to: ending gracefully would wait for ever.
      await client.endAsync(!client.connected);
    },
  };
}

/** MQTT topic filter matching (`+` one level, `#` the rest, `$` topics only by name). */
export function topicMatches(topicFilter: string, topic: string): boolean {
  const wanted = topicFilter.split('/');
  const levels = topic.split('/');
  if (topic.startsWith('$') && (wanted[0] === '#' || wanted[0] === '+')) return false;
  for (const [index, level] of wanted.entries()) {
    if (level === '#') return true;
    if (index >= levels.length) return false;
    if (level !== '+' && level !== levels[index]) return false;
  }
  return wanted.length === levels.length;
}
