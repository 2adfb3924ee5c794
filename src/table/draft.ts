import { bettingPossible } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import { rule } from '../rules/index.js';
import type { IncidentFacts, IncidentReport, RulingCode } from '../rules/types.js';
import type { CardInHand, DeckRecord, Hand, TableContext } from './state.js';

/**
 * One event's working copy of the table: the context and its hand are copied one level deep, so the
 * step may set their fields while the previous snapshot stays untouched (the machine is pure). Their
 * lists and maps are shared with the previous snapshot: the step replaces them, or copies a hand's
 * collection at its first change (`changing`).
 */
export interface Draft {
  ctx: TableContext;
  hand: Hand | null;
  /** The previous snapshot's hand, whose collections the draft's hand shares until it changes them. */
  before: Hand | null;
}

export function draft(ctx: TableContext): Draft {
  const hand = ctx.hand && copyHand(ctx.hand);
  return { ctx: { ...ctx, hand, outputs: [] }, hand, before: ctx.hand };
}

/**
 * The hand's fields, one by one: an object literal of one shape is built about three times faster than
 * a spread of the hand, and every event copies it (the type checker keeps the list complete).
 */
function copyHand(h: Hand): Hand {
  return {
    no: h.no,
    button: h.button,
    players: h.players,
    sb: h.sb,
    bb: h.bb,
    sbSeat: h.sbSeat,
    blinds: h.blinds,
    ante: h.ante,
    deck: h.deck,
    dealOrder: h.dealOrder,
    status: h.status,
    cards: h.cards,
    holes: h.holes,
    received: h.received,
    dealEnded: h.dealEnded,
    foldInDeal: h.foldInDeal,
    countDeferred: h.countDeferred,
    readerGap: h.readerGap,
    owed: h.owed,
    dealerExposed: h.dealerExposed,
    boxedInDeal: h.boxedInDeal,
    boxedAfterDeal: h.boxedAfterDeal,
    board: h.board,
    burns: h.burns,
    burnsBefore: h.burnsBefore,
    premature: h.premature,
    flopOverflowIsBurn: h.flopOverflowIsBurn,
    scrambling: h.scrambling,
    betting: h.betting,
    pot: h.pot,
    previousRound: h.previousRound,
    boardRedealt: h.boardRedealt,
    actedWithOtherDeck: h.actedWithOtherDeck,
    allInPrompted: h.allInPrompted,
    resumeStatus: h.resumeStatus,
  };
}

/** The hand's collections that steps change in place, once copied. */
type Collection = 'cards' | 'holes' | 'received' | 'owed' | 'board' | 'burns' | 'burnsBefore';

/** The hand's `key`, to change in place: copied from the previous snapshot's at the step's first change. */
export function changing<K extends Collection>(d: Draft, h: Hand, key: K): Hand[K] {
  const value = h[key];
  if (value === d.before?.[key]) h[key] = (Array.isArray(value) ? [...value] : { ...value }) as Hand[K];
  return h[key];
}

/** Records what the table knows of a deck (the decks map is replaced, never changed in place). */
export function keepDeck(d: Draft, deck: string, record: DeckRecord): void {
  d.ctx.decks = { ...d.ctx.decks, [deck]: record };
}

/** The hand is in play: dealt and not yet over or void (the floor deciding on it included). */
export function handInPlay(h: Hand | null | undefined): h is Hand {
  return h != null && h.status !== 'void' && h.status !== 'over';
}

/** The hand is being judged: incidents are raised (not after a misdeal, nor while the floor decides). */
export function judging(h: Hand | null): h is Hand {
  return h !== null && (h.status === 'dealing' || h.status === 'betting' || h.status === 'showdown');
}

/** Emits an incident with the active profile's ruling and procedure, and opens it for the dealer. */
export function report(
  d: Draft,
  facts: IncidentFacts,
  at: number,
  seats: number[],
  cards: CardRef[],
): RulingCode {
  const { decision, steps } = rule(d.ctx.profile, facts);
  const incident: IncidentReport = {
    kind: 'incident',
    at,
    incident: facts.incident,
    ruling: decision.ruling,
    seats,
    cards,
    secret: facedown(d.hand, facts, cards),
    rule: decision.rule,
    floor: decision.floor,
    ...(decision.reason ? { reason: decision.reason } : {}),
    steps,
  };
  d.ctx.outputs.push(incident);
  d.ctx.open = [...d.ctx.open, { report: incident, step: 0, seen: [], away: [] }];
  return decision.ruling;
}

const TURNED_UP: ReadonlySet<IncidentFacts['incident']> = new Set([
  'EXPOSED_CARD',
  'FLASHED_CARD',
  'BOXED_CARD',
]);

/** The named cards still face down on a seat: hole cards whose identity stays secret. */
function facedown(h: Hand | null, facts: IncidentFacts, cards: readonly CardRef[]): string[] {
  if (h === null || TURNED_UP.has(facts.incident)) return [];
  return cards.filter((c) => h.cards[c.uid]?.zone.startsWith('seat:')).map((c) => c.uid);
}

/**
 * Raises an incident about the hand and applies what the ruling does to the hand's lifecycle:
 * void after MISDEAL/HAND_VOID, the floor decides after CALL_FLOOR. The caller applies the
 * ruling's effect on the cards. Returns the ruling, or null when the hand is not being judged.
 */
export function raise(
  d: Draft,
  facts: IncidentFacts,
  at: number,
  seats: number[],
  cards: CardRef[],
): RulingCode | null {
  const h = d.hand;
  if (!judging(h)) return null;
  const ruling = report(d, facts, at, seats, cards);
  // Where the hand stood, should the floor overrule the ruling and let it go on.
  if (ruling === 'MISDEAL' || ruling === 'HAND_VOID' || ruling === 'CALL_FLOOR') h.resumeStatus = h.status;
  if (ruling === 'MISDEAL' || ruling === 'HAND_VOID') h.status = 'void';
  if (ruling === 'CALL_FLOOR') h.status = 'floor';
  return ruling;
}

export function substantial(d: Draft, h: Hand): boolean {
  return d.ctx.profile.substantialAction(h.betting.actions);
}

export function canBet(h: Hand): boolean {
  return bettingPossible(h.betting);
}

/** The last card that reached `zone` in this hand. */
export function lastCardAt(h: Hand, zone: string): string | null {
  let best: string | null = null;
  let seq = -1;
  for (const [uid, c] of Object.entries(h.cards)) {
    if (c.zone === zone && c.seq > seq) {
      best = uid;
      seq = c.seq;
    }
  }
  return best;
}

/** The first of the hand's cards that passes `test` (a loop: the hand's card map is not copied into a list). */
export function findCard(h: Hand, test: (card: CardInHand) => boolean): CardInHand | undefined {
  for (const uid in h.cards) {
    const card = h.cards[uid] as CardInHand;
    if (test(card)) return card;
  }
  return undefined;
}

export function remove<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}
