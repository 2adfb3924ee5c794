import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KeypadEvent } from '../../../devices/hid-keypad/driver.js';
import { hidKeypadToDomain, toDomain } from '../../../src/normaliser/hid-keypad.js';

describe('hid-keypad to domain events', () => {
  it('makes an action of an act entry, with its amount when keyed', () => {
    expect(
      toDomain(
        { kind: 'entry', entry: { kind: 'action', seat: 5, act: 'raise', amount: 300 }, t: 7 },
        'keypad-1',
      ),
    ).toEqual([{ type: 'action', t: 7, seat: 5, act: 'raise', amount: 300 }]);
    expect(
      toDomain({ kind: 'entry', entry: { kind: 'action', seat: 2, act: 'fold' }, t: 8 }, 'keypad-1'),
    ).toEqual([{ type: 'action', t: 8, seat: 2, act: 'fold' }]);
  });

  it('makes a dealer input of a dealer entry, the seat keyed as its zone', () => {
    const dealer = (entry: Extract<KeypadEvent, { kind: 'entry' }>['entry']) =>
      toDomain({ kind: 'entry', entry, t: 1 }, 'keypad-1');
    expect(dealer({ kind: 'dealer', input: 'exposed', seat: 4, by: 'player' })).toEqual([
      { type: 'dealer', t: 1, input: 'exposed', zone: 'seat:4', by: 'player' },
    ]);
    expect(dealer({ kind: 'dealer', input: 'hand-end' })).toEqual([
      { type: 'dealer', t: 1, input: 'hand-end' },
    ]);
  });

  it('reports the status as a keypad’s device event under the configured id, and keeps badges and rejections out', async () => {
    const events: KeypadEvent[] = [
      { kind: 'status', status: 'offline', detail: 'link down: USB device 1209:0001 not found', t: 0 },
      { kind: 'badge', uid: '04A1B2C3', t: 1 },
      { kind: 'rejected', what: 'key', reason: 'KeyQ is not in the key map', t: 2 },
      { kind: 'status', status: 'online', detail: 'keypad on /dev/hidraw3', t: 3 },
    ];
    const domain = await lastValueFrom(from(events).pipe(hidKeypadToDomain('keypad-1'), toArray()));
    expect(domain).toEqual([
      {
        type: 'device',
        t: 0,
        device: 'keypad-1',
        role: 'keypad',
        status: 'offline',
        detail: 'link down: USB device 1209:0001 not found',
      },
      {
        type: 'device',
        t: 3,
        device: 'keypad-1',
        role: 'keypad',
        status: 'online',
        detail: 'keypad on /dev/hidraw3',
      },
    ]);
  });
});
