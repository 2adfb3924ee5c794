import type { ButtonSeen } from '../domain/events.js';
import { type Draft, judging, raise } from './draft.js';

/**
 * The button puck was read on a seat. Before the first card, a puck moved to a wrong seat is
 * misplaced at once; one still on the last hand's button is judged at the first card, since the
 * dealer may be about to move it.
 */
export function onPuck(d: Draft, e: ButtonSeen): void {
  d.ctx.puck = e.seat;
  const h = d.hand;
  if (h === null || Object.keys(h.received).length > 0) return;
  if (e.seat === h.button) d.ctx.puckFlagged = false;
  else if (e.seat !== d.ctx.lastButton) checkPuck(d, e.seq);
}

/** At the first card of the deal: BUTTON_MISPLACED when the puck is not on the hand's button. */
export function checkPuck(d: Draft, at: number): void {
  const h = d.hand;
  const puck = d.ctx.puck;
  if (!judging(h) || puck === null || puck === h.button || d.ctx.puckFlagged) return;
  d.ctx.puckFlagged = true;
  const facts = {
    incident: 'BUTTON_MISPLACED' as const,
    headsUp: h.players.length === 2,
    deadButton: !h.players.includes(h.button),
  };
  raise(d, facts, at, [h.button], []);
}
