import { BehaviorSubject, Subject, VirtualTimeScheduler } from 'rxjs';
import { type ChipSensorEvent, chipSensor } from '../devices/chip-sensors/driver.js';
import { parseChipSensorsConfig } from '../devices/chip-sensors/manifest.js';
import { CHANNELS } from '../devices/chip-sensors/protocol.js';
import type { MqttMessage, MqttStatus } from '../src/io/mqtt.js';
import { CHIP_HELLO as HELLO, hostileMessage } from './chip-messages.js';
import {
  clearRejections,
  holds,
  onlyCountedRejections,
  printable,
  rethrowingDriverErrors,
  type Target,
} from './harness.js';
import { between, pick } from './mutate.js';

/**
 * The chip sensor driver on a sensor that said hello, taking hostile messages on its channels (and on
 * channels the protocol does not have), then one valid health report, which must change its status.
 */

const BASE = 'croupier/v1/t1/device/chips-1';
const CONFIG = parseChipSensorsConfig({ id: 'chips-1', zones: ['bet:1', 'bet:3', 'pot'] });
const SENTINEL_CODE = 4242;
const GOODBYE = { state: 'offline', reason: 'shutdown' };

export interface ChipStream {
  messages: { topic: string; payload: Buffer; retain: boolean }[];
}

export const chipDriver: Target<ChipStream> = {
  name: 'chip-driver',
  family: 'chip-sensors',
  generate(rand) {
    const messages = Array.from({ length: between(rand, 1, 4) }, () => {
      const { channel, payload } = hostileMessage(rand);
      // Now and then on a channel the protocol does not have, or retained.
      const topic = `${BASE}/${rand() < 0.05 ? pick(rand, ['weight', '', 'status/x', '#']) : channel}`;
      return { topic, payload, retain: rand() < 0.1 };
    });
    return { messages };
  },
  check({ messages }) {
    return rethrowingDriverErrors(() => {
      const status$ = new BehaviorSubject<MqttStatus>({ state: 'connected' });
      const incoming = new Subject<MqttMessage>();
      const link = { status$, messages: () => incoming, publish: async () => undefined };
      const sensor = chipSensor(link, BASE, CONFIG, new VirtualTimeScheduler());
      const events: ChipSensorEvent[] = [];
      const subscription = sensor.events.subscribe((event) => events.push(event));
      const status = (message: object) =>
        incoming.next({
          topic: `${BASE}/${CHANNELS.status}`,
          payload: Buffer.from(JSON.stringify(message)),
          retain: true,
        });
      status(HELLO);
      const before = { ...sensor.counters() };
      const from = events.length;
      for (const message of messages) incoming.next(message);
      const after = { ...sensor.counters() };
      const answers = events.slice(from);
      clearRejections(answers, 'chip driver');
      const malformed = (after.malformed ?? 0) - (before.malformed ?? 0);
      const wellFormed = (after.received ?? 0) - (before.received ?? 0) - malformed;
      if (wellFormed === 0) onlyCountedRejections(answers, malformed);
      else {
        // Well-formed messages may have moved the sequence, said goodbye or said hello as another sensor
        // (two devices on one topic): a goodbye and a hello start the sensor again.
        status(GOODBYE);
        status(HELLO);
      }
      const health = { seq: 0, sensorTime: 1, status: 'degraded', code: SENTINEL_CODE, detail: 'sentinel' };
      incoming.next({
        topic: `${BASE}/${CHANNELS.health}`,
        payload: Buffer.from(JSON.stringify(health)),
        retain: false,
      });
      subscription.unsubscribe();
      const reported = events
        .slice(from)
        .some((event) => event.kind === 'status' && event.detail.includes(`degraded ${SENTINEL_CODE}`));
      holds(reported, 'the valid health report after it was lost');
      return malformed > 0 || after.refused !== before.refused ? 'refused' : 'accepted';
    });
  },
  show: ({ messages }) =>
    messages
      .map(({ topic, payload, retain }) => `${topic}${retain ? ' (retained)' : ''} ${printable(payload)}`)
      .join(' | '),
};
