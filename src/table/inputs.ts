import { applyAction, betSeen, collect, handWon, openBetting } from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import {
  type ChipsSeen,
  type DealerInput,
  type DeviceStatus,
  type HandStart,
  levelOf,
  type PlayerAction,
  roleOrLegacyIdRule,
  type SeatChange,
} from '../domain/events.js';
import { clockwiseAfter, dealOrder, defaultBlinds, preflopOrder } from '../domain/seats.js';
import { betZoneSeat, seatOf, type Zone } from '../domain/zones.js';
import { nextHandProcedure } from '../rules/index.js';
import type { IncidentFacts } from '../rules/types.js';
import {
  dropHole,
  endDeal,
  judgeFlopBurn,
  nextInDeal,
  rebaseBurns,
  riverClosed,
  setRole,
  syncRound,
} from './cards.js';
import { advance } from './checks.js';
import {
  canBet,
  changing,
  type Draft,
  findCard,
  handInPlay,
  handOver,
  judging,
  keepDeck,
  lastCardAt,
  raise,
  remove,
  settleBoard,
  verdict,
  voided,
} from './draft.js';
import { nextHand } from './next-hand.js';
import type { Hand } from './state.js';

/** A new hand; it ends the previous one if `hand-end` did not. */
export function startHand(d: Draft, e: HandStart): void {
  const fallback = defaultBlinds(e.button, e.players);
  const sb = e.sb === undefined ? fallback.sb : e.sb;
  // With no small blind (dead button, §II.i) the big blind is the first player after the button.
  const bb = e.bb ?? (sb === null ? (clockwiseAfter(e.button, e.players)[0] as number) : fallback.bb);
  const no = d.ctx.hands + 1;
  const last = d.ctx.hand;
  d.ctx.firstHandT ??= e.t;
  d.ctx.lastButton = last?.button ?? null;
  d.ctx.lastHandCards = Object.keys(d.ctx.hand?.cards ?? {});
  d.ctx.puckSuspect = null;
  const hand: Hand = {
    no,
    button: e.button,
    players: [...e.players].sort((a, b) => a - b),
    sb,
    bb,
    // After a hand with no small blind, its seat is the one the last big blind left (RULINGS.md).
    sbSeat: sb ?? last?.bb ?? e.button,
    blinds: e.blinds,
    ante: e.ante ?? 0,
    deck: e.deck ?? null,
    dealOrder: dealOrder(e.button, e.players, bb),
    cards: {},
    holes: {},
    received: {},
    dealEnded: false,
    foldInDeal: null,
    countDeferred: false,
    readerGap: d.ctx.readersDown.length > 0,
    owed: [],
    dealerExposed: 0,
    boxedInDeal: 0,
    boxedAfterDeal: 0,
    board: [],
    burns: [],
    burnsBefore: [1, 2, 3],
    premature: null,
    betting: openBetting(preflopOrder(e.players, bb), {
      sb,
      bb,
      amounts: e.blinds,
      allIn: e.allIn,
      posted: e.posted,
    }),
    previousRound: null,
    pot: 0,
    boardRedealt: false,
    actedWithOtherDeck: false,
    allInPrompted: false,
  };
  d.ctx.hands = no;
  d.ctx.hand = hand;
  // A newcomer dealt in is a player like the others from now on.
  for (const seat of e.players) {
    const seated = d.ctx.seating[seat];
    if (seated?.status === 'waiting')
      d.ctx.seating = { ...d.ctx.seating, [seat]: { ...seated, status: 'in' } };
  }
  d.hand = hand;
  verdict(d, 'HAND_STARTED');
  d.ctx.puckFlagged = false;
  // Incidents about the previous hand are closed by the new one; deck faults stay open.
  d.ctx.open = d.ctx.open.filter((o) => o.report.incident.startsWith('DECK_'));
  if (hand.deck !== null) keepDeck(d, hand.deck, { lastHand: no, returned: true, fault: null });
}

export function onAction(d: Draft, e: PlayerAction): void {
  const h = d.hand;
  if (h === null || !handInPlay(d)) return;
  // A fold ends the deal, unless the dealer is seen going on with it; any other action ends it at once.
  if (e.act !== 'fold') endDeal(d, e.seq, { actor: e.seat });
  else if (!h.dealEnded) h.foldInDeal ??= { seq: e.seq, t: e.t };
  if (!handInPlay(d)) return; // the deal ended in a misdeal
  settleBoard(d, h);
  judgeFlopBurn(d, h);
  if (findCard(h, (c) => c.role !== 'stray' && c.role !== 'stub' && c.ref.deck !== h.deck) !== undefined) {
    h.actedWithOtherDeck = true;
  }
  h.betting = applyAction(h.betting, e.seat, e.act, e.amount);
  afterBetting(d, h);
}

/** After the betting changed: the hand won, or the showdown (its prompts follow the event: showdown.ts). */
function afterBetting(d: Draft, h: Hand): void {
  if (handWon(h.betting)) return verdict(d, 'HAND_WON');
  riverClosed(d, h);
}

/**
 * Card readers are the devices the normaliser stamps `card-reader` (an event journaled before roles by the
 * old id rule, `roleOrLegacyIdRule`); while one is down the hand is judged on what it can see.
 */
export function onDevice(d: Draft, e: DeviceStatus): void {
  if (roleOrLegacyIdRule(e) !== 'card-reader') return;
  const others = d.ctx.readersDown.filter((id) => id !== e.device);
  d.ctx.readersDown = e.status === 'online' ? others : [...others, e.device];
  if (e.status !== 'online' && d.hand) d.hand.readerGap = true;
}

/**
 * The pot sensor: the pot growing after the last action means the dealer collected the bets. A bet
 * zone: the amount of a bet keyed without one.
 */
export function onChips(d: Draft, e: ChipsSeen): void {
  d.ctx.chips = { ...d.ctx.chips, [e.zone]: e.amount };
  const h = d.hand;
  if (h === null) return;
  const before = h.betting;
  const seat = betZoneSeat(e.zone);
  if (seat !== null && handInPlay(d)) h.betting = betSeen(h.betting, seat, e.amount);
  if (e.zone === 'pot') {
    if (e.amount > h.pot) h.betting = collect(h.betting);
    h.pot = e.amount;
  }
  // An amount seen or the bets collected may settle an all-in in doubt, the river's round with it.
  if (h.betting !== before && handInPlay(d)) riverClosed(d, h);
}

export function onDealer(d: Draft, e: DealerInput): void {
  const h = d.hand;
  switch (e.input) {
    case 'exposed':
    case 'flashed':
      if (h) exposed(d, h, e);
      return;
    case 'boxed':
      if (h) boxed(d, h, e);
      return;
    case 'burn-exposed':
      if (h) burnExposed(d, h, e);
      return;
    case 'deal-done':
      endDeal(d, e.seq, { owedExcused: true });
      return;
    case 'collect':
      if (h) h.betting = collect(h.betting);
      return;
    case 'confirm':
      return advance(d);
    case 'floor-decision':
      if (h) floorDecision(d, h, e.value);
      return;
    case 'hand-end':
      if (h) verdict(d, 'HAND_ENDED');
      return;
    case 'next-hand':
      return startNextHand(d, e);
    case 'level': {
      // The tournament clock's level: the hand in play keeps its own, the next one takes it.
      const level = levelOf(e.value);
      if (level) d.ctx.clockLevel = level;
      return;
    }
    case 'call-floor':
      // The dealer called the floor: the machine watches until the floor's decision.
      if (h && judging(d)) verdict(d, 'FLOOR_CALLED');
      return;
  }
}

/** The dealer's "next hand": the table starts it by the rules, and says which hand it started. */
function startNextHand(d: Draft, e: DealerInput): void {
  const next = nextHand(d.ctx, e.t, voided(d));
  if (next === null) return; // fewer than two players seated: the display does not offer it
  const { rule, ...start } = next;
  startHand(d, { type: 'hand.start', t: e.t, seq: e.seq, ...start });
  const steps = nextHandProcedure(start);
  d.ctx.outputs.push({
    kind: 'prompt',
    at: e.seq,
    prompt: 'NEXT_HAND',
    seats: start.players,
    rule,
    ...start,
    steps,
  });
}

/**
 * The dealer marks a seat: seated, gone, away from the table, or a newcomer waiting to come in. A name
 * left out is kept; an empty one clears it (another player takes the seat).
 */
export function onSeat(d: Draft, e: SeatChange): void {
  const name = e.name === '' ? undefined : (e.name ?? d.ctx.seating[e.seat]?.name);
  d.ctx.seating = { ...d.ctx.seating, [e.seat]: { status: e.status, ...(name !== undefined && { name }) } };
}

/** The card a dealer input is about: the one named, else the last card that reached the zone. */
function cardOf(h: Hand, e: DealerInput): { uid: string | null; ref: CardRef | null } {
  const uid = e.card?.uid ?? (e.zone ? lastCardAt(h, e.zone) : null);
  const ref = (uid !== null ? h.cards[uid]?.ref : undefined) ?? e.card ?? null;
  return { uid, ref };
}

function exposed(d: Draft, h: Hand, e: DealerInput): void {
  const { uid, ref } = cardOf(h, e);
  const card = uid !== null ? h.cards[uid] : undefined;
  if (card?.role === 'burn') return burnExposed(d, h, e);
  if (card?.role === 'board') return; // board cards are dealt face up
  // A card turned before it reached a seat (fallen off the table) was the next card of the deal.
  const unseated = !h.dealEnded && card?.seat == null ? nextInDeal(h) : null;
  const seat = card?.seat ?? (e.zone ? seatOf(e.zone as Zone) : null) ?? unseated?.seat ?? null;
  const by = e.input === 'flashed' ? 'dealer' : (e.by ?? 'dealer');
  if (by === 'dealer') h.dealerExposed += 1;
  const facts: IncidentFacts = {
    incident: e.input === 'flashed' ? 'FLASHED_CARD' : 'EXPOSED_CARD',
    by,
    dealPosition: h.dealEnded ? null : (card?.position ?? unseated?.position ?? null),
    toButton: seat === h.button,
    dealerExposedCount: h.dealerExposed,
  };
  const ruling = raise(d, facts, e.seq, seat === null ? [] : [seat], ref ? [ref] : []);
  if (ruling !== 'REPLACE_AT_END' || seat === null) return;
  // The exposed card is dead, kept apart: it will be the burn before the flop; the seat gets one more card.
  if (uid !== null && card) {
    dropHole(d, h, seat, uid);
    setRole(d, h, uid, 'dead', { expected: 'burn' });
  } else if (unseated !== null) {
    changing(d, h, 'received')[seat] = (h.received[seat] ?? 0) + 1; // it took that seat's place in the deal
  }
  changing(d, h, 'owed').push(seat);
}

function boxed(d: Draft, h: Hand, e: DealerInput): void {
  const { uid, ref } = cardOf(h, e);
  const card = uid !== null ? h.cards[uid] : undefined;
  const duringDeal = !h.dealEnded;
  const nth = duringDeal ? ++h.boxedInDeal : ++h.boxedAfterDeal;
  const facts: IncidentFacts = { incident: 'BOXED_CARD', duringDeal, nth, bettingPossible: canBet(h) };
  const seat = card?.seat ?? null;
  const ruling = raise(d, facts, e.seq, seat === null ? [] : [seat], ref ? [ref] : []);
  if (ruling !== 'BOXED_SET_ASIDE' || uid === null || !card) return;
  // Set aside as if it were not in the deck: the next card goes where it would have gone.
  if (card.role === 'hole' && seat !== null) {
    dropHole(d, h, seat, uid);
    if (card.position !== null) changing(d, h, 'received')[seat] = (h.received[seat] ?? 1) - 1;
  }
  remove(changing(d, h, 'board'), uid);
  remove(changing(d, h, 'burns'), uid);
  setRole(d, h, uid, 'dead', { seat: null, position: null });
}

function burnExposed(d: Draft, h: Hand, e: DealerInput): void {
  const uid = e.card?.uid ?? h.burns[h.burns.length - 1] ?? null;
  const ref = (uid !== null ? h.cards[uid]?.ref : undefined) ?? e.card;
  raise(d, { incident: 'BURN_EXPOSED' }, e.seq, [], ref ? [ref] : []);
}

/**
 * The floor's decision: after CALL_FLOOR, or a supervisor overriding the ruling at any moment. `continue`
 * lets the hand go on from where it stands, closing every open procedure (a misdeal the floor does not
 * uphold is undone); `misdeal` and `void` end the hand, and only the CALL_FLOOR procedure closes (the
 * cards are still to be collected).
 */
function floorDecision(d: Draft, h: Hand, value: string | undefined): void {
  if (handOver(d)) return;
  const ends = value === 'misdeal' || value === 'void';
  d.ctx.open = ends ? d.ctx.open.filter((o) => o.report.ruling !== 'CALL_FLOOR') : [];
  if (ends) return verdict(d, 'HAND_VOIDED');
  if (judging(d)) return; // nothing to resume
  verdict(d, 'FLOOR_OVERRULED');
  syncRound(d, h);
  rebaseBurns(d, h);
}
