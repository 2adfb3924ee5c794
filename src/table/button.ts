import type { ButtonSeen, DomainEvent } from '../domain/events.js';
import { type Draft, judging, raise, substantial } from './draft.js';

/**
 * The button puck was read on a seat. Before the first card a puck on a wrong seat is suspect: it
 * is misplaced if it stays there (a puck slid past a seat is read there for an instant), judged
 * once a window has passed or at the first card. A puck still on the last hand's button is judged
 * at the first card only, since the dealer may be about to move it. Once cards are out the puck is
 * judged again only after substantial action, when the rulebook may let the error stand.
 */
export function onPuck(d: Draft, e: ButtonSeen): void {
  d.ctx.puck = e.seat;
  const h = d.hand;
  if (h === null) return;
  const dealt = Object.keys(h.received).length > 0;
  if (dealt && !substantial(d, h)) return;
  const wrong = e.seat !== h.button && (dealt || e.seat !== d.ctx.lastButton);
  d.ctx.puckSuspect = wrong ? { seq: e.seq, t: e.t } : null;
  if (e.seat === h.button) d.ctx.puckFlagged = false;
}

/** Any event a window after a suspect puck read, before it is applied: the puck stayed on the wrong seat. */
export function confirmPuck(d: Draft, e: DomainEvent): void {
  const suspect = d.ctx.puckSuspect;
  if (suspect === null || e.t - suspect.t < d.ctx.orderWindowMs) return;
  checkPuck(d, suspect.seq);
}

/** BUTTON_MISPLACED, once, when the puck is not on the hand's button. */
export function checkPuck(d: Draft, at: number): void {
  d.ctx.puckSuspect = null;
  const h = d.hand;
  const puck = d.ctx.puck;
  if (h === null || !judging(d) || puck === null || puck === h.button || d.ctx.puckFlagged) return;
  d.ctx.puckFlagged = true;
  const facts = {
    incident: 'BUTTON_MISPLACED' as const,
    headsUp: h.players.length === 2,
    deadButton: !h.players.includes(h.button),
    afterSubstantialAction: substantial(d, h),
  };
  // The error stands: the puck's seat is the button of record, the next hand's moves on from it.
  if (raise(d, facts, at, [h.button], []) === 'CONTINUE') h.button = puck;
}
