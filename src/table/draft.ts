import { bettingPossible } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import { rule } from '../rules/index.js';
import type { IncidentFacts, IncidentReport, RulingCode } from '../rules/types.js';
import type { Hand, TableContext } from './state.js';

/**
 * One event's working copy of the table: the context and its hand are copied one level deep (only
 * the hand's own fields when `deep` is false: the event changes no card, list or count), so the step
 * may change them in place while the previous snapshot stays untouched (the machine is pure).
 */
export interface Draft {
  ctx: TableContext;
  hand: Hand | null;
}

export function draft(ctx: TableContext, deep: boolean): Draft {
  const next: TableContext = {
    ...ctx,
    window: [...ctx.window],
    decks: { ...ctx.decks },
    open: [...ctx.open],
  };
  next.outputs = [];
  const h = ctx.hand;
  next.hand = h && (deep ? copyHand(h) : { ...h });
  return { ctx: next, hand: next.hand };
}

/** A copy the step may change in place; nested values (cards, hole lists, betting) are replaced, not changed. */
function copyHand(h: Hand): Hand {
  return {
    ...h,
    players: [...h.players],
    cards: { ...h.cards },
    holes: { ...h.holes },
    received: { ...h.received },
    owed: [...h.owed],
    board: [...h.board],
    burns: [...h.burns],
    burnsBefore: [...h.burnsBefore],
  };
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
  d.ctx.open.push({ report: incident, step: 0, seen: [], away: [] });
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

export function remove<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}
