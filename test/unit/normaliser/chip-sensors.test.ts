import { firstValueFrom, from, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ChipSensorEvent } from '../../../devices/chip-sensors/driver.js';
import { chipSensorsToDomain, inferredBet, toDomain } from '../../../src/normaliser/chip-sensors.js';

const OFF = { id: 'chips-1', inferActions: false };
const ON = { id: 'chips-1', inferActions: true };

const chips = (zone: `bet:${number}` | 'pot', amount: number, previous: number | null): ChipSensorEvent => ({
  kind: 'chips',
  zone,
  amount,
  previous,
  sensorTime: 1,
  t: 800,
});

describe('chip-sensors to domain events', () => {
  it('turns a settled amount into a chips event, and nothing more by default', () => {
    expect(toDomain(chips('bet:3', 300, 0), OFF)).toEqual([
      { type: 'chips', t: 800, zone: 'bet:3', amount: 300 },
    ]);
  });

  it('reports the sensor under its configured id as a chip sensor, and keeps rejections out of the table', () => {
    expect(toDomain({ kind: 'status', status: 'offline', detail: 'connection lost', t: 5 }, OFF)).toEqual([
      {
        type: 'device',
        t: 5,
        device: 'chips-1',
        role: 'chip-sensor',
        status: 'offline',
        detail: 'connection lost',
      },
    ]);
    expect(toDomain({ kind: 'rejected', reason: 'malformed reading', t: 5 }, ON)).toEqual([]);
  });

  it('with inferActions, reads a bet zone rising from empty as a bet to its total, before the chips', () => {
    expect(toDomain(chips('bet:3', 300, 0), ON)).toEqual([
      { type: 'action', t: 800, seat: 3, act: 'bet', amount: 300 },
      { type: 'chips', t: 800, zone: 'bet:3', amount: 300 },
    ]);
  });

  it.each([
    ['the pot', chips('pot', 300, 0)],
    ['a zone already holding chips (call, raise or change: the keypad says)', chips('bet:3', 900, 300)],
    ['a zone first seen after croupier started', chips('bet:3', 300, null)],
    ['bets collected', chips('bet:3', 0, 300)],
  ])('infers nothing from %s', (_, event) => {
    expect(inferredBet(event as Extract<ChipSensorEvent, { kind: 'chips' }>)).toBeNull();
  });

  it('maps a driver stream', async () => {
    const events = [
      chips('bet:1', 50, 0),
      { kind: 'rejected', reason: 'x', t: 1 } as const,
      chips('pot', 50, 0),
    ];
    const mapped = await firstValueFrom(from(events).pipe(chipSensorsToDomain(ON), toArray()));
    expect(mapped.map((event) => event.type)).toEqual(['action', 'chips', 'chips']);
  });
});
