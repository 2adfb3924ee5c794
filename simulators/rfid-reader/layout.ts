import type { ZoneAntennas } from './from-scenario.js';
import type { AntennaMap } from './reader.js';

/** A ten-seat table's reader board: seat N on antenna N-1, then the board, the burn spot and the muck. */
export const TEN_SEAT_ANTENNAS: AntennaMap = [
  ...Array.from({ length: 10 }, (_, i) => ({ index: i, label: `seat:${i + 1}` })),
  { index: 10, label: 'board' },
  { index: 11, label: 'burn' },
  { index: 12, label: 'muck' },
];
export const TEN_SEAT_ZONES: ZoneAntennas = Object.fromEntries(
  TEN_SEAT_ANTENNAS.map(({ index, label }) => [label, index]),
);
