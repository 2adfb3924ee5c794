/** Where a card can lie on the table: a seat's hole-card antenna, the board, the burn spot or the muck. */
export type Zone = `seat:${number}` | 'board' | 'burn' | 'muck';

/** Where chips can lie: a seat's bet zone, the pot, the dealer's tray. */
export type ChipZone = `bet:${number}` | 'pot' | 'tray';

export function seatOf(zone: Zone): number | null {
  return zone.startsWith('seat:') ? Number(zone.slice(5)) : null;
}

export function seatZone(seat: number): Zone {
  return `seat:${seat}`;
}

export function betZoneSeat(zone: ChipZone): number | null {
  return zone.startsWith('bet:') ? Number(zone.slice(4)) : null;
}
