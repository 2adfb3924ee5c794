import type { z } from 'zod';
import { awardPot } from '../domain/award-split.js';
import { inHand } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import { handName } from '../domain/hand-names.js';
import { compareHands } from '../domain/hand-rank.js';
import { layerPots, type Pot } from '../domain/pots.js';
import { handBets, muckedSeats as handMucked, handOf, showOrderOf } from '../table/showdown.js';
import type { Hand, Showdown, TableContext } from '../table/state.js';
import type { publicStateSchema } from './public-schema.js';

/**
 * The showdown as anyone may see it (RULINGS.md "Pots and showdown", "Privacy"), read off the hand the
 * table machine keeps: the tabled hands with their cards and names, the show order, the pots and, once
 * settled, their awards. The machine keeps what it decided (who tabled, which pots went to whom) and
 * emits the rest as outputs of the moment; the same domain functions give it back here, so the state
 * says what the award lines said. An untabled hand is never read, let alone named or ranked.
 */

type State = z.infer<typeof publicStateSchema>;
export type PublicTabled = NonNullable<State['seats'][number]['tabled']>;
export type PublicShowdown = NonNullable<State['showdown']>;
type ShowdownPot = PublicShowdown['pots'][number];
type PublicAwarded = NonNullable<ShowdownPot['award']>;

/** What a tabled card shows: the same fields as every public card. */
type ShowCard = (card: CardRef) => PublicTabled['cards'][number];

/** Each tabled seat's cards and hand, by seat. */
export function tabledHands(hand: Hand, show: ShowCard): Map<number, PublicTabled> {
  const tabled = new Map<number, PublicTabled>();
  for (const [seat, { uids }] of Object.entries(hand.showdown?.tabled ?? {})) {
    const refs = uids.flatMap((uid) => hand.cards[uid]?.ref ?? []);
    const ranked = handOf(hand, hand.showdown ?? { tabled: {} }, Number(seat));
    tabled.set(Number(seat), {
      cards: refs.map(show),
      hand: ranked && { category: ranked.category, name: handName(ranked) },
    });
  }
  return tabled;
}

/** Players still in the hand whose cards reached the muck untabled: they gave up their claim unseen. */
export function muckedSeats(hand: Hand): Set<number> {
  return new Set(handMucked(hand, hand.showdown ?? { tabled: {} }).keys());
}

/**
 * The showdown once it has begun: the last round closed, an all-in showdown prompted, a hand tabled or a
 * pot settled; null before (the pots of a round still open are not the dealer's to split yet).
 */
export function showdownView(
  ctx: Pick<TableContext, 'chipUnit' | 'rake'>,
  hand: Hand,
): PublicShowdown | null {
  const sd = hand.showdown;
  if (sd === undefined || !begun(hand, sd)) return null;
  return {
    order: sd.prompted.includes('SHOW_ORDER') ? showOrderOf(hand) : null,
    faceUp: hand.allInPrompted,
    pots: potsOf(ctx, hand, sd),
    ranking: sd.prompted.includes('SHOWDOWN_RANKING') ? ranking(hand, sd) : null,
    pushed: sd.pushed,
  };
}

function begun(hand: Hand, sd: Showdown): boolean {
  return (
    sd.downAt !== null ||
    hand.allInPrompted ||
    Object.keys(sd.tabled).length > 0 ||
    Object.keys(sd.awarded).length > 0
  );
}

/** The hand's pots as the machine layers them (its betting rounds, the closed ones then the last). */
function potsOf(ctx: Pick<TableContext, 'chipUnit' | 'rake'>, hand: Hand, sd: Showdown): ShowdownPot[] {
  const pots = layerPots(handBets(hand));
  if (pots === null) return unlayered(sd);
  const rules = { button: hand.button, chipUnit: ctx.chipUnit, rake: ctx.rake ?? undefined };
  return pots.map((pot) => {
    const winners = sd.awarded[pot.pot];
    if (winners === undefined) return { ...line(pot), award: null };
    const { shares, rake } = awardPot(pots, pot.pot, winners, rules);
    return { ...line(pot), award: awarded(winners, shares, rake) };
  });
}

/** Pots the machine awarded without layering them (every one to the last player left): amounts unknown. */
function unlayered(sd: Showdown): ShowdownPot[] {
  return Object.entries(sd.awarded).map(([pot, winners]) => ({
    pot: Number(pot),
    amount: null,
    eligible: [...winners],
    award: awarded(winners, null, null),
  }));
}

function line(pot: Pot): Omit<ShowdownPot, 'award'> {
  return { pot: pot.pot, amount: pot.amount, eligible: [...pot.eligible] };
}

function awarded(
  winners: readonly number[],
  shares: Record<number, number> | null,
  rake: number | null,
): PublicAwarded {
  return {
    winners: [...winners].sort((a, b) => a - b),
    shares,
    odd: shares && oddChips(shares),
    rake,
  };
}

/** What each winner got over the smallest share: the chips the equal split left over. */
function oddChips(shares: Record<number, number>): Record<number, number> {
  const least = Math.min(...Object.values(shares));
  const over = Object.entries(shares).filter(([, share]) => share > least);
  return Object.fromEntries(over.map(([seat, share]) => [seat, share - least]));
}

/** The tabled hands still in the hand, best first, tied seats together: what SHOWDOWN_RANKING said. */
function ranking(hand: Hand, sd: Showdown): number[][] {
  const hands = inHand(hand.betting).flatMap((seat) => {
    const ranked = handOf(hand, sd, seat);
    return ranked === null ? [] : [{ seat, ranked }];
  });
  hands.sort((a, b) => compareHands(b.ranked, a.ranked) || a.seat - b.seat);
  const tiers: number[][] = [];
  hands.forEach((h, i) => {
    const before = hands[i - 1];
    if (before && compareHands(h.ranked, before.ranked) === 0) tiers.at(-1)?.push(h.seat);
    else tiers.push([h.seat]);
  });
  return tiers;
}
