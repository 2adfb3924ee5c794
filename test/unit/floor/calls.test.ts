import { describe, expect, it } from 'vitest';
import { byUrgency, openCall } from '../../../src/floor/calls.js';
import type { OpenCall } from '../../../src/floor/protocol.js';
import { misdeal, stateOf, withIncident } from './fixtures.js';

describe('an open call', () => {
  it('is an incident with its ruling, article and the step the dealer is on', () => {
    const call = openCall('T1', withIncident(12, misdeal(40), 1), '12:40', 5000);
    expect(call).toMatchObject({
      table: 'T1',
      key: '12:40',
      kind: 'incident',
      urgent: false,
      since: 5000,
      hand: 12,
      incident: 'EXPOSED_CARD',
      ruling: 'MISDEAL',
      rule: 'main-event-2014 §III.e',
      step: 1,
      steps: 2,
      stepText: { en: 'Collect the cards' },
      coming: null,
    });
  });

  it("is the dealer's call when the hand waits for the floor with no incident, and urgent", () => {
    const call = openCall('T1', stateOf({ phase: 'floor', hand: 3 }), '3:floor', 1);
    expect(call).toMatchObject({ kind: 'call', urgent: true, incident: null, stepText: null });
  });

  it('is urgent when its procedure is done under the floor’s eye or calls the floor', () => {
    const eye = openCall('T1', withIncident(1, misdeal(2, { floor: true })), '1:2', 0);
    const called = openCall('T1', withIncident(1, misdeal(2, { ruling: 'CALL_FLOOR' })), '1:2', 0);
    expect([eye.urgent, called.urgent]).toEqual([true, true]);
  });

  it("takes the table's own wait and answer when its state says them for this call", () => {
    const state = {
      ...withIncident(12, misdeal(40)),
      call: { key: '12:40', since: 100, coming: { supervisor: 'Marie', at: 200 } },
    };
    expect(openCall('T1', state, '12:40', 999)).toMatchObject({
      since: 100,
      coming: { supervisor: 'Marie', at: 200 },
    });
    // An answer to another call is not this one's.
    expect(openCall('T1', { ...state, call: { ...state.call, key: '11:2' } }, '12:40', 999)).toMatchObject({
      since: 999,
      coming: null,
    });
  });

  it('comes first when urgent, then oldest, then by table', () => {
    const call = (table: string, urgent: boolean, since: number) => ({ table, urgent, since }) as OpenCall;
    const calls = [
      call('T9', false, 1),
      call('T2', true, 50),
      call('T3', false, 0),
      call('T1', true, 50),
      call('T4', true, 10),
    ];
    expect(calls.sort(byUrgency).map((c) => c.table)).toEqual(['T4', 'T1', 'T2', 'T3', 'T9']);
  });
});
