import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { inboxLink } from '../../../simulators/floor-link.js';
import type { MqttMessage } from '../../../src/io/mqtt.js';
import { floorCommands, type RefusedCommand } from '../../../src/mqtt/commands.js';
import { hashSecret } from '../../../src/supervisor/credentials.js';
import { FloorDesk } from '../../../src/supervisor/desk.js';

const supervisors = [{ name: 'Marie', pin: await hashSecret('2468'), badge: await hashSecret('04A1B2C3') }];

/** A link whose broker is this test: what it sends on `command/+` reaches the table. */
function floor() {
  const incoming = new Subject<MqttMessage>();
  const link = inboxLink(incoming);
  const refused: RefusedCommand[] = [];
  const inputs: unknown[] = [];
  const desk = new FloorDesk(supervisors, { now: () => 0, maxFailures: 3 });
  floorCommands(link, 't1', { now: () => 42, desk, refuse: (r) => refused.push(r) }).subscribe((input) =>
    inputs.push(input),
  );
  const send = (name: string, payload: string) =>
    incoming.next({ topic: `croupier/v1/t1/command/${name}`, payload: Buffer.from(payload), retain: false });
  return { send, refused, inputs };
}

describe('floor commands', () => {
  it('turns each command into the dealer input the table takes, signed by its supervisor', async () => {
    const { send, inputs, refused } = floor();
    send('acknowledge', '{"id":"1","pin":"2468"}');
    send('floor-decision', '{"id":"2","value":"misdeal","badge":"04A1B2C3"}');
    send('void-hand', '{"id":"3","pin":"2468"}');
    send('call-floor', '{"id":"4","pin":"2468"}');
    await expect.poll(() => inputs.length).toBe(4);
    const signed = { type: 'dealer', t: 42, supervisor: 'Marie' };
    expect(inputs).toEqual([
      { ...signed, input: 'confirm' },
      { ...signed, input: 'floor-decision', value: 'misdeal' },
      { ...signed, input: 'floor-decision', value: 'void' },
      { ...signed, input: 'call-floor' },
    ]);
    expect(refused).toEqual([]);
  });

  it("takes the tournament clock's level, signed, and refuses a value that is no level", async () => {
    const { send, inputs, refused } = floor();
    send('level', '{"id":"1","value":"100/200/25","pin":"2468"}');
    send('level', '{"id":"2","value":"200/100","pin":"2468"}');
    await expect.poll(() => inputs.length + refused.length).toBe(2);
    expect(inputs).toEqual([
      { type: 'dealer', t: 42, supervisor: 'Marie', input: 'level', value: '100/200/25' },
    ]);
    expect(refused.map((r) => r.reason)).toEqual([
      'command level: value must be sb/bb or sb/bb/ante (e.g. 100/200/25)',
    ]);
  });

  it('refuses a command without a good PIN, and locks after repeated wrong ones', async () => {
    const { send, inputs, refused } = floor();
    send('void-hand', '{"id":"1"}');
    for (const id of ['2', '3', '4']) send('void-hand', `{"id":"${id}","pin":"1111"}`);
    send('void-hand', '{"id":"5","pin":"2468"}');
    await expect.poll(() => refused.length).toBe(5);
    expect(refused.map((r) => r.reason)).toEqual([
      'command void-hand: a command carries its supervisor: pin or badge, one of them',
      'command 2: supervisor refused (wrong)',
      'command 3: supervisor refused (wrong)',
      'command 4: supervisor refused (locked)',
      'command 5: supervisor refused (locked)',
    ]);
    expect(inputs).toEqual([]);
    expect(refused.map((r) => r.reason).join(' ')).not.toMatch(/1111|2468/);
  });

  it('refuses, with the reason, what is malformed, unknown or replayed, and goes on', async () => {
    const { send, inputs, refused } = floor();
    send('acknowledge', 'not json');
    send('acknowledge', '{"pin":"2468"}');
    send('floor-decision', '{"id":"5","value":"maybe","pin":"2468"}');
    send('open-the-safe', '{"id":"6","pin":"2468"}');
    send('acknowledge', '{"id":"7","extra":1,"pin":"2468"}');
    send('acknowledge', '{"id":"8","pin":"2468"}');
    send('acknowledge', '{"id":"8","pin":"2468"}');
    await expect.poll(() => refused.length).toBe(6);
    expect(refused.map((r) => r.reason)).toEqual([
      'command acknowledge: the payload is not JSON',
      'command acknowledge: id: Invalid input: expected string, received undefined',
      'command floor-decision: value must be one of continue, misdeal, void',
      'unknown command "open-the-safe" (known: acknowledge, floor-decision, void-hand, call-floor, level, on-my-way)',
      'command acknowledge: Unrecognized key: "extra"',
      'command acknowledge: id 8 was already taken (a replay)',
    ]);
    expect(inputs).toHaveLength(1);
  });
});
