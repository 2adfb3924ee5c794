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

/** A seat as the dealer marks it between hands (DESIGN.md `seat` event). */
export const SEAT_STATUSES = ['in', 'out', 'absent', 'waiting'] as const;
export type SeatStatus = (typeof SEAT_STATUSES)[number];

/** Where a hand put the button and the blinds: what the next hand moves on from. */
export interface Positions {
  button: number;
  sb: number | null;
  bb: number;
  /** The small blind's seat, a player's or not: after a hand with none, the seat its big blind left. */
  sbSeat: number;
}

/** How a rulebook moves the button from one hand to the next. */
export type ButtonRule = 'dead-button' | 'moving-button';

/** The first hand of a table: the button on `button`, the blinds the next players. */
export function firstPositions(button: number, players: readonly number[]): Positions {
  const { sb, bb } = defaultBlinds(button, players);
  return { button, sb, bb, sbSeat: sb ?? button };
}

/**
 * The next hand's positions. Heads-up the big blind moves on and the other player has the button and
 * the small blind, so nobody is big blind twice in a row (main-event-2014 §II.j, tda-2007 #35). The dead
 * button (§II.i, #6): the big blind moves on one player, the small blind is last hand's big blind if
 * still a player (else none), the button last hand's small blind seat, dead if it holds no player. The
 * moving button: the next player has it, the next two post.
 */
export function nextPositions(rule: ButtonRule, last: Positions, players: readonly number[]): Positions {
  if (players.length === 2) {
    const bb = clockwiseAfter(last.bb, players)[0] as number;
    const button = players.find((s) => s !== bb) as number;
    return { button, sb: button, bb, sbSeat: button };
  }
  if (rule === 'moving-button')
    return firstPositions(clockwiseAfter(last.button, players)[0] as number, players);
  const sb = players.includes(last.bb) ? last.bb : null;
  return { button: last.sbSeat, sb, bb: clockwiseAfter(last.bb, players)[0] as number, sbSeat: last.bb };
}

/** Seats strictly after `from` and before `to`, clockwise, on a table of `seats` seats. */
export function seatsBetween(from: number, to: number, seats: number): number[] {
  const between: number[] = [];
  for (let s = (from % seats) + 1; s !== to; s = (s % seats) + 1) {
    if (s === from) break;
    between.push(s);
  }
  return between;
}
