import type { HandStart } from '../domain/events.js';
import type { TableContext } from './state.js';

export type NextHand = Omit<HandStart, 'type' | 't' | 'seq'>;

/**
 * The next hand as the dealer's "next hand" touch starts it: the same players as the last hand (every
 * seat for the first one), the button moved on to the next of them, or kept where it was for the redeal
 * after a void hand. The deck is one the shuffler has counted back (or never dealt), the other one of a
 * two-deck rotation when both are; the rotation alone when none is.
 */
export function nextHand(ctx: TableContext, blinds: [number, number], decks: readonly string[]): NextHand {
  const last = ctx.hand;
  const players = last?.players ?? Array.from({ length: ctx.seats }, (_, i) => i + 1);
  const button =
    last === null
      ? ctx.puck !== null && players.includes(ctx.puck)
        ? ctx.puck
        : (players[0] as number)
      : last.status === 'void'
        ? last.button
        : (players.find((seat) => seat > last.button) ?? (players[0] as number));
  const other = (ids: readonly string[]) => ids.find((id) => id !== last?.deck) ?? ids[0];
  // Without a shuffler no deck is ever counted back: the rotation alone chooses.
  const deck = other(decks.filter((id) => ctx.decks[id]?.returned ?? true)) ?? other(decks);
  return { button, players, blinds, ...(deck !== undefined && { deck }) };
}
