import { bettingPossible } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import { PROFILES, rule } from '../rules/index.js';
import type { IncidentFacts, IncidentReport, RuleProfile, RulingCode } from '../rules/types.js';
import type { BoardMode, CardInHand, DeckRecord, Hand, Phase, TableContext, Verdict } from './state.js';

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
  /**
   * What this event's verdicts mean for the rest of it, before the chart takes them: the hand it
   * started (or the floor let go on) is judged; after one that calls the floor nothing more is
   * judged; after one that voids or ends the hand it is out of play.
   */
  now: 'as-phase' | 'live' | 'floor' | 'void' | 'out';
  /** The board's mode this event's verdicts set, before the chart takes them; null: as the chart says. */
  board: BoardMode | null;
}

export function draft(ctx: TableContext): Draft {
  const hand = ctx.hand && copyHand(ctx.hand);
  return {
    ctx: { ...ctx, hand, outputs: [], verdicts: [] },
    hand,
    before: ctx.hand,
    now: 'as-phase',
    board: null,
  };
}

const FOR_THE_REST: Partial<Record<Verdict['type'], Draft['now']>> = {
  HAND_STARTED: 'live',
  FLOOR_OVERRULED: 'live',
  FLOOR_CALLED: 'floor',
  HAND_VOIDED: 'void',
  HAND_WON: 'out',
  HAND_ENDED: 'out',
};

/** The board's mode each verdict sets, as the chart's board region does. */
const BOARD_FOR_THE_REST: Partial<Record<Verdict['type'], BoardMode>> = {
  HAND_STARTED: 'as-dealt',
  PREMATURE_RULED: 'premature',
  SCRAMBLE_RULED: 'scramble',
  BURN_ON_FLOP_RULED: 'burn-on-flop',
  BOARD_SETTLED: 'as-dealt',
  BURN_ON_FLOP_SETTLED: 'as-dealt',
};

/** Hands the chart a verdict on the hand's lifecycle (the phase and the board's mode are the chart's to set). */
export function verdict(d: Draft, type: Verdict['type']): void {
  d.ctx.verdicts.push({ type });
  d.now = FOR_THE_REST[type] ?? d.now;
  d.board = BOARD_FOR_THE_REST[type] ?? d.board;
}

/** How the board is being dealt: as the chart says, or as this event's verdicts just set it. */
export function boardMode(d: Draft): BoardMode {
  return d.board ?? d.ctx.board;
}

/** The premature street still under its ruling, while the board is `premature`. */
export function ruledPremature(d: Draft, h: Hand): Hand['premature'] {
  return boardMode(d) === 'premature' ? h.premature : null;
}

/** A player acted, or the skipped player's hand was killed: a premature street's or a scramble's ruling is over. */
export function settleBoard(d: Draft, h: Hand): void {
  h.premature = null;
  const mode = boardMode(d);
  if (mode === 'premature' || mode === 'scramble') verdict(d, 'BOARD_SETTLED');
}

/** The rulebook in force. */
export function profileOf(d: Draft): RuleProfile {
  return PROFILES[d.ctx.profile];
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
    betting: h.betting,
    pot: h.pot,
    previousRound: h.previousRound,
    boardRedealt: h.boardRedealt,
    actedWithOtherDeck: h.actedWithOtherDeck,
    allInPrompted: h.allInPrompted,
    flopBurnDue: h.flopBurnDue,
    rounds: h.rounds,
    showdown: h.showdown,
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

const JUDGED: ReadonlySet<Phase> = new Set(['dealing', 'betting', 'showdown']);

/** The hand is in play: dealt and not yet over or void (the floor deciding on it included). */
export function handInPlay(d: Draft): boolean {
  if (d.now !== 'as-phase') return d.now === 'live' || d.now === 'floor';
  return JUDGED.has(d.ctx.phase) || d.ctx.phase === 'floor';
}

/** The hand was won, shown down or ended by the dealer. */
export function handOver(d: Draft): boolean {
  return d.now === 'as-phase' ? d.ctx.phase === 'ended' : d.now === 'out';
}

/** The hand is void (a misdeal, a hand void): the next hand is its redeal. */
export function voided(d: Draft): boolean {
  return d.now === 'as-phase' ? d.ctx.phase === 'void' : d.now === 'void';
}

/** The hand is being judged: incidents are raised (not after a misdeal, nor while the floor decides). */
export function judging(d: Draft): boolean {
  return d.now === 'as-phase' ? JUDGED.has(d.ctx.phase) : d.now === 'live';
}

/** Emits an incident with the active profile's ruling and procedure, and opens it for the dealer. */
export function report(
  d: Draft,
  facts: IncidentFacts,
  at: number,
  seats: number[],
  cards: CardRef[],
): RulingCode {
  const { decision, steps } = rule(profileOf(d), facts);
  const secret = facedown(d.hand, facts, cards);
  if (d.hand) turnUp(d, d.hand, cards, secret);
  const incident: IncidentReport = {
    kind: 'incident',
    at,
    incident: facts.incident,
    ruling: decision.ruling,
    seats,
    cards,
    secret,
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

/** The hand's cards an incident names to the table, face up wherever they go next (a seat's included). */
function turnUp(d: Draft, h: Hand, cards: readonly CardRef[], secret: readonly string[]): void {
  const named = cards.flatMap((c) => {
    const card = h.cards[c.uid];
    return card && !card.faceUp && !secret.includes(c.uid) ? [card] : [];
  });
  if (named.length === 0) return;
  const all = changing(d, h, 'cards');
  for (const card of named) all[card.ref.uid] = { ...card, faceUp: true };
}

/** What a ruling does to the hand's lifecycle; the caller applies its effect on the cards. */
const RULED: Partial<Record<RulingCode, Verdict['type']>> = {
  MISDEAL: 'HAND_VOIDED',
  HAND_VOID: 'HAND_VOIDED',
  CALL_FLOOR: 'FLOOR_CALLED',
};

/**
 * Raises an incident about the hand and gives the chart what its ruling does to the lifecycle.
 * Returns the ruling, or null when the hand is not being judged.
 */
export function raise(
  d: Draft,
  facts: IncidentFacts,
  at: number,
  seats: number[],
  cards: CardRef[],
): RulingCode | null {
  if (d.hand === null || !judging(d)) return null;
  const ruling = report(d, facts, at, seats, cards);
  const lifecycle = RULED[ruling];
  if (lifecycle) verdict(d, lifecycle);
  return ruling;
}

export function substantial(d: Draft, h: Hand): boolean {
  return profileOf(d).substantialAction(h.betting.actions);
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
