import { describe, expect, it } from 'vitest';
import { betZoneSeat, seatOf, seatZone } from '../../../src/domain/zones.js';

describe('zones', () => {
  it("a seat's card zone, and the seat of a card zone (none for the board, burn or muck)", () => {
    expect(seatZone(7)).toBe('seat:7');
    expect(seatOf('seat:10')).toBe(10);
    for (const zone of ['board', 'burn', 'muck'] as const) expect(seatOf(zone)).toBeNull();
  });

  it('the seat of a bet zone; none for the pot or the tray', () => {
    expect(betZoneSeat('bet:3')).toBe(3);
    expect(betZoneSeat('bet:10')).toBe(10);
    expect(betZoneSeat('pot')).toBeNull();
    expect(betZoneSeat('tray')).toBeNull();
  });
});
