import type { CardSeen, DomainEvent } from '../domain/events.js';
import { seatOf } from '../domain/zones.js';
import type { RuleProfile } from '../rules/types.js';
import { onPuck } from './button.js';
import { arrive } from './cards.js';
import { type Draft, draft } from './draft.js';
import { onAction, onChips, onDealer, onShuffler, startHand } from './inputs.js';
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
    puckFlagged: false,
    decks: {},
    open: [],
    outputs: [],
  };
}

/**
 * The table's step function: the context after one domain event, with the event's incidents and
 * prompts in `outputs`. Pure: the same events always give the same context.
 */
export function reduce(ctx: TableContext, event: DomainEvent): TableContext {
  const d = draft(ctx);
  const last = d.ctx.window[d.ctx.window.length - 1];
  const sameCycle = last !== undefined && event.t - last.t < d.ctx.orderWindowMs;
  const cardRead = event.type === 'card.seen' || event.type === 'card.gone';
  if (last !== undefined && !(cardRead && sameCycle)) settle(d);
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
    case 'card.gone': // a peek lifts the cards: it never removes a card from the hand
    case 'device':
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

const ZONE_RANK = { muck: 0, seat: 1, burn: 2, board: 3 } as const;

export function canonicalOrder(h: Hand | null, reads: readonly CardSeen[]): CardSeen[] {
  const counts = new Map<number, number>();
  const key = (read: CardSeen): [number, number] => {
    const seat = seatOf(read.zone);
    if (seat === null) return [ZONE_RANK[read.zone as 'muck' | 'burn' | 'board'], 0];
    if (h === null || h.cards[read.uid]?.zone === read.zone) return [ZONE_RANK.seat, -1];
    const k = (h.received[seat] ?? 0) + (counts.get(seat) ?? 0);
    counts.set(seat, (counts.get(seat) ?? 0) + 1);
    const index = h.dealOrder.indexOf(seat);
    return [ZONE_RANK.seat, index < 0 ? Number.MAX_SAFE_INTEGER : k * h.dealOrder.length + index];
  };
  const keyed = reads.map((read, i) => ({ read, key: key(read), i }));
  keyed.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.i - b.i);
  return keyed.map((k) => k.read);
}
