import { NEVER, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { MqttLink, MqttMessage } from '../../../src/io/mqtt.js';
import { floorCommands, type RefusedCommand } from '../../../src/mqtt/commands.js';

/** A link whose broker is this test: what it sends on `command/+` reaches the table. */
function floor() {
  const incoming = new Subject<MqttMessage>();
  const link: MqttLink = {
    status$: NEVER,
    messages: () => incoming,
    publish: async () => undefined,
    close: async () => undefined,
  };
  const refused: RefusedCommand[] = [];
  const inputs: unknown[] = [];
  floorCommands(
    link,
    't1',
    () => 42,
    (r) => refused.push(r),
  ).subscribe((input) => inputs.push(input));
  const send = (name: string, payload: string) =>
    incoming.next({ topic: `croupier/v1/t1/command/${name}`, payload: Buffer.from(payload), retain: false });
  return { send, refused, inputs };
}

describe('floor commands', () => {
  it('turns each command into the dealer input the table takes', () => {
    const { send, inputs, refused } = floor();
    send('acknowledge', '{"id":"1","by":"floor-7"}');
    send('floor-decision', '{"id":"2","value":"misdeal"}');
    send('void-hand', '{"id":"3"}');
    send('call-floor', '{"id":"4"}');
    expect(inputs).toEqual([
      { type: 'dealer', t: 42, input: 'confirm' },
      { type: 'dealer', t: 42, input: 'floor-decision', value: 'misdeal' },
      { type: 'dealer', t: 42, input: 'floor-decision', value: 'void' },
      { type: 'dealer', t: 42, input: 'call-floor' },
    ]);
    expect(refused).toEqual([]);
  });

  it('refuses, with the reason, what is malformed, unknown or replayed, and goes on', () => {
    const { send, inputs, refused } = floor();
    send('acknowledge', 'not json');
    send('acknowledge', '{"by":"x"}');
    send('floor-decision', '{"id":"5","value":"maybe"}');
    send('open-the-safe', '{"id":"6"}');
    send('acknowledge', '{"id":"7","extra":1}');
    send('acknowledge', '{"id":"8"}');
    send('acknowledge', '{"id":"8"}');
    expect(refused.map((r) => r.reason)).toEqual([
      'command acknowledge: the payload is not JSON',
      'command acknowledge: id: Invalid input: expected string, received undefined',
      'command floor-decision: value must be one of continue, misdeal, void',
      'unknown command "open-the-safe" (known: acknowledge, floor-decision, void-hand, call-floor)',
      'command acknowledge: Unrecognized key: "extra"',
      'command acknowledge: id 8 was already taken (a replay)',
    ]);
    expect(inputs).toHaveLength(1);
  });
});
