import { BehaviorSubject, NEVER } from 'rxjs';
import type { MqttLink, MqttStatus, PublishOptions } from '../../../src/io/mqtt.js';

export interface Published {
  topic: string;
  payload: string;
  options: PublishOptions | undefined;
}

/**
 * A link that records what croupier publishes; its status is the test's to set. `held`: each publish
 * waits for `acknowledge()`, as for a broker's PUBACK.
 */
export function recordingLink({ held = false }: { held?: boolean } = {}) {
  const status$ = new BehaviorSubject<MqttStatus>({ state: 'connecting' });
  const published: Published[] = [];
  const waiting: (() => void)[] = [];
  const link: MqttLink = {
    status$,
    messages: () => NEVER,
    publish: (topic, payload, options) => {
      published.push({ topic, payload: Buffer.from(payload).toString(), options });
      return held ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();
    },
    close: async () => undefined,
  };
  const acknowledge = () => {
    for (const ack of waiting.splice(0)) ack();
  };
  return { link, status$, published, acknowledge };
}
