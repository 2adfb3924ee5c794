import type { ButtonSeen } from '../domain/events.js';
import { type Draft, judging, raise } from './draft.js';

/** The button puck was read on a seat. Before the first card it must sit on the hand's button. */
export function onPuck(d: Draft, e: ButtonSeen): void {
  d.ctx.puck = e.seat;
  const h = d.hand;
  if (h === null || Object.keys(h.received).length > 0) return;
  if (e.seat === h.button) d.ctx.puckFlagged = false;
  else checkPuck(d, e.seq);
}

/** Raises BUTTON_MISPLACED once while the puck is off the button seat before the first card. */
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
