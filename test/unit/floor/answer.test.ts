import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { inboxLink } from '../../../simulators/floor-link.js';
import { TableCrew } from '../../../src/controller/crew.js';
import type { MqttMessage } from '../../../src/io/mqtt.js';
import { type FloorAnswer, floorCommands } from '../../../src/mqtt/commands.js';
import { hashSecret } from '../../../src/supervisor/credentials.js';
import { FloorDesk } from '../../../src/supervisor/desk.js';
import { misdeal, stateOf, withIncident } from './fixtures.js';

const supervisors = [{ name: 'Marie', pin: await hashSecret('2468') }];

describe('"on my way" at the table', () => {
  it('is a signed floor command the table never sees as an input: the controller shows who is coming', async () => {
    const incoming = new Subject<MqttMessage>();
    const answers: FloorAnswer[] = [];
    const refused: string[] = [];
    const inputs: unknown[] = [];
    floorCommands(inboxLink(incoming), 'T7', {
      now: () => 0,
      desk: new FloorDesk(supervisors, { now: () => 0 }),
      refuse: ({ reason }) => refused.push(reason),
      answered: (answer) => answers.push(answer),
    }).subscribe((input) => inputs.push(input));
    const send = (payload: object) =>
      incoming.next({
        topic: 'croupier/v1/T7/command/on-my-way',
        payload: Buffer.from(JSON.stringify(payload)),
        retain: false,
      });
    send({ id: '1', pin: '2468', value: '12:40' });
    send({ id: '2', pin: '2468' });
    send({ id: '3', pin: '9999', value: '12:40' });
    await expect.poll(() => answers.length + refused.length).toBe(3);
    expect(answers).toEqual([{ supervisor: 'Marie', call: '12:40' }]);
    expect(refused).toEqual([
      'command on-my-way: value must name the call (the state’s call.key)',
      'command 3: supervisor refused (wrong)',
    ]);
    expect(inputs).toEqual([]);
  });

  it('names the open call only: a late answer does not answer the next call', () => {
    let now = 100;
    const crew = new TableCrew({ profile: 'tda-2024', devices: () => [], hands: () => 12 }, () => now);
    const changed: number[] = [];
    crew.changed.subscribe(() => changed.push(now));
    const open = withIncident(12, misdeal(40));
    expect(crew.of(open).call).toEqual({ key: '12:40', since: 100 });
    now = 200;
    expect(crew.answer('Marie', '12:39')).toBe(false);
    expect(crew.answer('Marie', '12:40')).toBe(true);
    expect(crew.of(open).call).toEqual({
      key: '12:40',
      since: 100,
      coming: { supervisor: 'Marie', at: 200 },
    });
    // The call closed: the answer goes with it.
    expect(crew.of(stateOf({ hand: 12 })).call).toBeUndefined();
    expect(crew.of(open).call).toEqual({ key: '12:40', since: 200 });
    expect(changed).toEqual([200]);
  });

  it("starts a dealer's down after the hands dealt so far", () => {
    const crew = new TableCrew({ profile: 'tda-2024', devices: () => [], hands: () => 57 }, () => 9);
    expect(crew.signIn('Paul')).toEqual({ name: 'Paul', since: 9, afterHand: 57 });
    expect(crew.of(stateOf())).toEqual({
      profile: 'tda-2024',
      devices: [],
      dealer: { name: 'Paul', since: 9, afterHand: 57 },
    });
  });
});
