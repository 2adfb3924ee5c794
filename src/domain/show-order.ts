import type { Betting } from './betting.js';
import { clockwiseAfter } from './seats.js';

/**
 * The order hands are shown in at the showdown (`SHOW_ORDER`, RULINGS.md "Show order"): the last player
 * to bet or raise in the last betting round first, else the first player in the hand left of the
 * button; then clockwise. A bet or raise is a level of the round (a posted blind is none), so a short
 * all-in under the bet is not one; when that player is no longer in the hand (a hand killed by a
 * ruling), the one who bet or raised before it leads.
 */
export function showOrder(round: Pick<Betting, 'order' | 'folded' | 'levels'>, button: number): number[] {
  const players = round.order.filter((s) => !round.folded.includes(s));
  const first = round.levels.findLast((l) => l.seat !== null && players.includes(l.seat))?.seat;
  if (first == null) return clockwiseAfter(button, players);
  const others = players.filter((s) => s !== first);
  return [first, ...clockwiseAfter(first, others)];
}
