/**
 * Seats, deal order and blinds. Seats are numbered clockwise from 1; the button may sit on an
 * empty seat (dead button, main-event-2014 §II.i, tda-2007 #6).
 */

/** The largest poker table: seats 1 to 10 (bet zones and seat antennas follow). */
export const MAX_SEATS = 10;

/** `seats` sorted clockwise, starting with the first one strictly after `from`. */
export function clockwiseAfter(from: number, seats: readonly number[]): number[] {
  const sorted = [...seats].sort((a, b) => a - b);
  const after = sorted.filter((s) => s > from);
  return [...after, ...sorted.filter((s) => s <= from)];
}

export interface Blinds {
  /** Null when a dead-button hand has no small blind. */
  sb: number | null;
  bb: number;
}

/**
 * Blind seats by default: the first two players after the button; heads-up the button posts the
 * small blind (main-event-2014 §II.j, tda-2007 #35).
 */
export function defaultBlinds(button: number, players: readonly number[]): Blinds {
  const order = clockwiseAfter(button, players);
  if (players.length === 2 && players.includes(button)) return { sb: button, bb: order[0] as number };
  return { sb: order[0] as number, bb: order[1] as number };
}

/**
 * Hole-card deal order: clockwise from the first player after the button; heads-up it starts with
 * the big blind (§II.j).
 */
export function dealOrder(button: number, players: readonly number[], bb: number): number[] {
  return clockwiseAfter(players.length === 2 ? bb - 1 : button, players);
}

/** Preflop action order: from the player after the big blind round to the big blind. */
export function preflopOrder(players: readonly number[], bb: number): number[] {
  return clockwiseAfter(bb, players);
}

/** Postflop action order: from the first player after the button. */
export function postflopOrder(players: readonly number[], button: number): number[] {
  return clockwiseAfter(button, players);
}
