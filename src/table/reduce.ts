import type { CardSeen, DomainEvent } from '../domain/events.js';
import { seatOf } from '../domain/zones.js';
import type { RuleProfile } from '../rules/types.js';
import { onPuck } from './button.js';
import { arrive } from './cards.js';
import { onShuffler } from './deck.js';
import { type Draft, draft } from './draft.js';
import { onAction, onChips, onDealer, onDevice, startHand } from './inputs.js';
import type { Hand, TableContext } from './state.js';

export interface TableConfig {
  seats: number;
  profile: RuleProfile;
  /** Reads closer than this are one antenna cycle: their order is unknown (RULINGS.md). */
  orderWindowMs?: number;
}

export function initialContext(config: TableConfig): TableContext {
  return {
    seats: config.seats,
    orderWindowMs: config.orderWindowMs ?? 300,
    profile: config.profile,
    hands: 0,
    hand: null,
    window: [],
    puck: null,
    lastButton: null,
    puckFlagged: false,
    readersDown: [],
    decks: {},
    open: [],
    outputs: [],
  };
}

/**
 * Events that do not need the antenna cycle judged first: more reads, and reports of other sensors
 * that judge no card (a puck read, a chip count, a device's health) — they may land inside a cycle.
 * Actions and dealer inputs are judged against the cards, so they close the cycle.
 */
const WAITS_FOR_CYCLE: ReadonlySet<DomainEvent['type']> = new Set([
  'card.seen',
  'card.gone',
  'button',
  'chips',
  'device',
  'shuffler',
]);

/** Events that may change the hand's cards, lists or counts (the others change its own fields only). */
const CHANGES_CARDS: ReadonlySet<DomainEvent['type']> = new Set(['action', 'dealer']);

/**
 * The table's step function: the context after one domain event, with the event's incidents and
 * prompts in `outputs`. Pure: the same events always give the same context.
 */
export function reduce(ctx: TableContext, event: DomainEvent): TableContext {
  const last = ctx.window[ctx.window.length - 1];
  const sameCycle = last !== undefined && event.t - last.t < ctx.orderWindowMs;
  const settles = last !== undefined && !(sameCycle && WAITS_FOR_CYCLE.has(event.type));
  const d = draft(ctx, settles || CHANGES_CARDS.has(event.type));
  if (settles) settle(d);
  switch (event.type) {
    case 'card.seen':
      d.ctx.window.push(event); // judged once its antenna cycle is over
      break;
    case 'hand.start':
      startHand(d, event);
      break;
    case 'action':
      onAction(d, event);
      break;
    case 'dealer':
      onDealer(d, event);
      break;
    case 'shuffler':
      onShuffler(d, event);
      break;
    case 'button':
      onPuck(d, event);
      break;
    case 'chips':
      onChips(d, event);
      break;
    case 'device':
      onDevice(d, event);
      break;
    case 'card.gone': // a peek lifts the cards: it never removes a card from the hand
    case 'settle':
      break;
  }
  return d.ctx;
}

/** Judges the reads of one antenna cycle by their set: in the order a correct deal would have. */
function settle(d: Draft): void {
  const batch = canonicalOrder(d.hand, d.ctx.window);
  d.ctx.window = [];
  for (const read of batch) arrive(d, read, batch);
}

/**
 * The order a correct deal would have given one antenna cycle's reads: muck, then hole cards in deal
 * order, then burn and board cards interleaved so each street's burn comes before its first card.
 */
export function canonicalOrder(h: Hand | null, cycle: readonly CardSeen[]): CardSeen[] {
  // A card read again where it already lies (a repeat, a peek) is no new card, nor is a second read in the cycle.
  const reads = cycle.filter(
    (r, i) =>
      h?.cards[r.uid]?.zone !== r.zone && cycle.findIndex((o) => o.uid === r.uid && o.zone === r.zone) === i,
  );
  const muck = reads.filter((r) => r.zone === 'muck');
  const seats = holeCardsInDealOrder(h, reads);
  const burns = reads.filter((r) => r.zone === 'burn');
  const boards = reads.filter((r) => r.zone === 'board');
  return [...muck, ...seats, ...interleave(h, burns, boards)];
}

function holeCardsInDealOrder(h: Hand | null, reads: readonly CardSeen[]): CardSeen[] {
  const counts = new Map<number, number>();
  const keyed = reads.flatMap((read, i) => {
    const seat = seatOf(read.zone);
    if (seat === null) return [];
    if (h === null) return [{ read, key: i, i }];
    const k = (h.received[seat] ?? 0) + (counts.get(seat) ?? 0);
    counts.set(seat, (counts.get(seat) ?? 0) + 1);
    const index = h.dealOrder.indexOf(seat);
    return [{ read, key: index < 0 ? Number.MAX_SAFE_INTEGER : k * h.dealOrder.length + index, i }];
  });
  keyed.sort((a, b) => a.key - b.key || a.i - b.i);
  return keyed.map((k) => k.read);
}

/** Board cards complete a street (3, 4, 5); a street's first card wants its burn out before it. */
function interleave(h: Hand | null, burns: CardSeen[], boards: CardSeen[]): CardSeen[] {
  const out: CardSeen[] = [];
  let board = h?.board.length ?? 0;
  let burnt = h?.burns.length ?? 0;
  const before = h?.burnsBefore ?? [1, 2, 3];
  let b = 0;
  let c = 0;
  while (b < burns.length || c < boards.length) {
    const street = board < 3 ? 0 : board === 3 ? 1 : 2;
    const wantsBurn = (board === 0 || board === 3 || board === 4) && burnt < before[street];
    const takeBurn = b < burns.length && (wantsBurn || c >= boards.length);
    const next = takeBurn ? burns[b++] : boards[c++];
    if (!next) break;
    out.push(next);
    if (takeBurn) burnt++;
    else board++;
  }
  return out;
}
