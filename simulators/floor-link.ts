import { NEVER, type Observable } from 'rxjs';
import type { MqttLink, MqttMessage } from '../src/io/mqtt.js';

/** A broker link whose incoming messages are `incoming` (what a floor client would send) and which publishes nowhere. */
export function inboxLink(incoming: Observable<MqttMessage>): MqttLink {
  return {
    status$: NEVER,
    messages: () => incoming,
    publish: async () => undefined,
    close: async () => undefined,
  };
}
