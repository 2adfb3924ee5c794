import { describe, expect, it } from 'vitest';
import type { DeviceStatus, DomainEvent } from '../../../src/domain/events.js';
import { PROFILES } from '../../../src/rules/index.js';
import { startTable, step } from '../../../src/table/machine.js';

const CONFIG = { seats: 6, profile: PROFILES['main-event-2014'] };
const HAND: DomainEvent = {
  type: 'hand.start',
  button: 4,
  players: [1, 2, 3, 4],
  blinds: [50, 100],
  deck: 'A',
  t: 0,
  seq: 0,
};

/** The card readers down, and whether the hand lost sight of some cards, after the hand and `devices`. */
function tableAfter(...devices: Omit<DeviceStatus, 'type' | 't' | 'seq'>[]) {
  const events = [
    HAND,
    ...devices.map((device, i): DomainEvent => ({ type: 'device', ...device, t: 100 * (i + 1), seq: i + 1 })),
  ];
  const ctx = events.reduce(step, startTable(CONFIG)).context;
  return { down: ctx.readersDown, gap: ctx.hand?.readerGap };
}

describe('the table tells card readers by their role', () => {
  it('whatever their id', () => {
    expect(tableAfter({ device: 'seats', role: 'card-reader', status: 'offline' })).toEqual({
      down: ['seats'],
      gap: true,
    });
    expect(
      tableAfter(
        { device: 'seats', role: 'card-reader', status: 'fault' },
        { device: 'seats', role: 'card-reader', status: 'online' },
      ).down,
    ).toEqual([]);
  });

  it('and no other device, named rfid or not', () => {
    expect(tableAfter({ device: 'rfid-shuffler', role: 'shuffler', status: 'offline' })).toEqual({
      down: [],
      gap: false,
    });
    expect(tableAfter({ device: 'chips-1', role: 'chip-sensor', status: 'fault' }).down).toEqual([]);
  });

  it('and a device event journaled before roles by the id rule of then: `rfid…` is a card reader', () => {
    expect(tableAfter({ device: 'rfid-1', status: 'offline' })).toEqual({ down: ['rfid-1'], gap: true });
    expect(tableAfter({ device: 'shuffler-1', status: 'offline' }).down).toEqual([]);
  });
});
