import { describe, expect, it } from 'vitest';
import { floorFilters, readTableMessage } from '../../../src/floor/topics.js';
import { json, misdeal, stateOf } from './fixtures.js';

describe("the floor's reading of the tables' topics", () => {
  it('subscribes to public topics only, for the tables it shows', () => {
    expect(floorFilters(['+'])).toEqual([
      'croupier/v1/+/status',
      'croupier/v1/+/state',
      'croupier/v1/+/incident',
    ]);
    expect(floorFilters(['T1', 'T2'], ['state'])).toEqual(['croupier/v1/T1/state', 'croupier/v1/T2/state']);
  });

  it('reads status, state and incident as the topic map has them', () => {
    expect(readTableMessage('croupier/v1/T1/state', json(stateOf({ hand: 2 })))).toMatchObject({
      table: 'T1',
      topic: 'state',
      state: { hand: 2 },
    });
    expect(readTableMessage('croupier/v1/T1/incident', json(misdeal(3)))).toMatchObject({
      topic: 'incident',
      output: { incident: 'EXPOSED_CARD' },
    });
    expect(readTableMessage('croupier/v1/T1/status', Buffer.alloc(0))).toEqual({
      table: 'T1',
      topic: 'status',
      cleared: true,
    });
  });

  it.each([
    [
      'croupier/v1/T1/private/events',
      json({}),
      'not a public topic the floor reads: croupier/v1/T1/private/events',
    ],
    [
      'croupier/v1/T1/device/chips-1/reading',
      json({}),
      'not a public topic the floor reads: croupier/v1/T1/device/chips-1/reading',
    ],
    ['croupier/v2/T1/state', json({}), "not a table's topic: croupier/v2/T1/state"],
    ['croupier/v1/T 1/state', json({}), "not a table's topic: croupier/v1/T 1/state"],
    ['croupier/v1/T1/state', Buffer.from('{"phase":'), 'state: the payload is not JSON'],
    ['croupier/v1/T1/incident', Buffer.alloc(0), 'an empty incident'],
  ])('refuses %s with the reason, never throws', (topic, payload, reason) => {
    expect(readTableMessage(topic, payload)).toMatchObject({ refused: reason });
  });

  it('refuses a payload that is not the schema, naming the field', () => {
    const refused = readTableMessage(
      'croupier/v1/T1/status',
      json({ state: 'dancing', version: '1', api: 'v1' }),
    );
    expect(refused).toMatchObject({ table: 'T1', refused: expect.stringMatching(/^status: state: /) });
  });
});
