import { describe, expect, it } from 'vitest';
import { Room } from '../../../src/floor/room.js';
import { readTableMessage } from '../../../src/floor/topics.js';
import { json, misdeal, stateOf, withIncident } from './fixtures.js';

const online = { state: 'online', version: '1.0', api: 'v1' } as const;

function room(now = () => 1000) {
  const floor = new Room(now);
  const said: unknown[] = [];
  floor.changes.subscribe((change) => said.push(change));
  const hear = (topic: string, payload: Buffer) => {
    const message = readTableMessage(topic, payload);
    if ('refused' in message) throw new Error(message.refused);
    floor.apply(message);
  };
  return { floor, said, hear };
}

describe('the room', () => {
  it('keeps each table from its retained status and state, as a tile', () => {
    const { floor, hear } = room();
    hear('croupier/v1/T1/status', json(online));
    hear(
      'croupier/v1/T1/state',
      json({
        ...stateOf({ phase: 'betting', street: 'flop', hand: 7 }),
        profile: 'tda-2024',
        dealer: { name: 'Paul', since: 1, afterHand: 5 },
        devices: [{ id: 'rfid-1', kind: 'rfid-reader', status: 'offline' }],
      }),
    );
    expect(floor.tiles()).toEqual([
      {
        id: 'T1',
        status: 'online',
        version: '1.0',
        profile: 'tda-2024',
        phase: 'betting',
        street: 'flop',
        hand: 7,
        dealer: 'Paul',
        devices: [{ id: 'rfid-1', kind: 'rfid-reader', status: 'offline' }],
        call: null,
      },
    ]);
    expect(floor.tables()).toMatchObject([{ id: 'T1', status: online, state: { hand: 7 } }]);
  });

  it('says a tile only when it changed', () => {
    const { said, hear } = room();
    hear('croupier/v1/T1/state', json(stateOf({ phase: 'dealing', hand: 1 })));
    // Another card dealt: the state changed, the tile did not.
    hear('croupier/v1/T1/state', json(stateOf({ phase: 'dealing', hand: 1, pot: 150 })));
    hear('croupier/v1/T1/state', json(stateOf({ phase: 'betting', street: 'preflop', hand: 1 })));
    expect(said.map((change) => (change as { tile: { phase: string } }).tile.phase)).toEqual([
      'dealing',
      'betting',
    ]);
  });

  it('lists the open calls most urgent first, waiting since the floor first saw them when the table does not say', () => {
    let now = 1000;
    const { floor, hear } = room(() => now);
    hear('croupier/v1/T1/state', json(withIncident(4, misdeal(9))));
    now = 2000;
    hear('croupier/v1/T2/state', json(withIncident(8, misdeal(30))));
    hear('croupier/v1/T3/state', json(stateOf({ phase: 'floor', hand: 2 })));
    now = 3000;
    // The same incident again (its step moved on): it still waits since 1000.
    hear('croupier/v1/T1/state', json(withIncident(4, misdeal(9), 1)));
    expect(floor.calls().map(({ table, since }) => [table, since])).toEqual([
      ['T3', 2000],
      ['T1', 1000],
      ['T2', 2000],
    ]);
  });

  it('forgets a table whose retained messages were cleared', () => {
    const { floor, said, hear } = room();
    hear('croupier/v1/T1/status', json(online));
    hear('croupier/v1/T1/state', json(stateOf()));
    hear('croupier/v1/T1/status', Buffer.alloc(0));
    expect(floor.size).toBe(1);
    hear('croupier/v1/T1/state', Buffer.alloc(0));
    expect(floor.size).toBe(0);
    expect(said.at(-1)).toEqual({ type: 'gone', table: 'T1' });
  });
});
