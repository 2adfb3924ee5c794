import { type Award, awardOrder, awardPot } from '../domain/award-split.js';
import {
  allInPlayers,
  type Betting,
  bettingMayGoOn,
  collect,
  handWon,
  inHand,
  mayOwe,
  roundClosed,
  roundOver,
} from '../domain/betting.js';
import type { CardRef, Face } from '../domain/cards.js';
import { type HandBets, uncalledBet } from '../domain/contributions.js';
import type { DealerInput, DomainEvent } from '../domain/events.js';
import { bestHand, compareHands, type HandCategory, type RankedHand } from '../domain/hand-rank.js';
import { layerPots, type Pot, sidePotMade } from '../domain/pots.js';
import { showOrder } from '../domain/show-order.js';
import { seatOf } from '../domain/zones.js';
import { allInShowdownDue, promptProcedure } from '../rules/index.js';
import type { AllInFacts, AwardCase, PromptCode, PromptReport } from '../rules/types.js';
import { riverClosed, setRole } from './cards.js';
import { changing, type Draft, judging, profileOf, raise } from './draft.js';
import type { Hand, Phase, Showdown } from './state.js';

/**
 * The showdown as croupier reads it for the dealer (RULINGS.md "Pots and showdown"): the uncalled bet
 * back, the side pots built before the next street, the show order, the hands tabled, each pot awarded
 * the moment it is settled, and a tabled winner never killed. It follows what an event did to the hand
 * (after the event's own judgment), so the deal and the betting stay where they are.
 */
export function showdownAfter(d: Draft, prev: Stood | null, phase: Phase, event: DomainEvent): void {
  const h = d.hand;
  if (h === null) return;
  const sd = { ...(h.showdown ?? fresh()) };
  if (event.type === 'dealer') dealerInput(h, sd, event);
  if (event.type === 'action' && acted(h, prev)) sd.lastActionAt = event.seq;
  if (event.type === 'chips' && event.zone === 'pot' && event.amount === 0 && awardedAny(sd))
    sd.pushed = true;
  retrieved(d, h, sd);
  showdownBegun(d, h, sd);
  if (wonByFold(d, phase)) foldWin(d, h, sd, event.seq);
  else if (judging(d)) {
    allInPrompt(d, h, streetOpened(h, prev) ?? event.seq);
    showdown(d, h, sd, event);
  }
  if (h.showdown !== undefined || changed(sd)) h.showdown = sd;
}

function fresh(): Showdown {
  return {
    tabled: {},
    awarded: {},
    prompted: [],
    downAt: null,
    lastActionAt: null,
    pushed: false,
    winnerMucked: false,
  };
}

/** Anything but a fresh showdown: most events of a hand leave it so (checked field by field: it is hot). */
function changed(sd: Showdown): boolean {
  return (
    Object.keys(sd.tabled).length > 0 ||
    Object.keys(sd.awarded).length > 0 ||
    sd.prompted.length > 0 ||
    sd.downAt !== null ||
    sd.lastActionAt !== null ||
    sd.pushed ||
    sd.winnerMucked
  );
}

function awardedAny(sd: Showdown): boolean {
  return Object.keys(sd.awarded).length > 0;
}

/** Where the hand's betting stood before: the hand's number and its round. */
export type Stood = Pick<Hand, 'no' | 'betting'>;

/** The betting took an action since `prev` (the hand's actions only grow). */
function acted(h: Hand, prev: Stood | null): boolean {
  return prev?.no === h.no && h.betting.actions.length > prev.betting.actions.length;
}

/** The hand's betting as the pots see it: the closed rounds, then the current one. */
export function handBets(h: Hand): HandBets {
  return { players: h.players, ante: h.ante, rounds: [...(h.rounds ?? []), h.betting] };
}

/** `shown` tables a seat's hole cards (public from now on); `pushed` says every pot went to its winners. */
function dealerInput(h: Hand, sd: Showdown, e: DealerInput): void {
  if (e.input === 'pushed') sd.pushed = true;
  if (e.input !== 'shown' || e.zone === undefined) return;
  const seat = seatOf(e.zone);
  const holes = seat === null ? [] : (h.holes[seat] ?? []);
  if (seat === null || seat in sd.tabled || !inHand(h.betting).includes(seat) || holes.length === 0) return;
  sd.tabled = { ...sd.tabled, [seat]: { uids: [...holes], at: e.seq } };
}

/** A tabled card taken back from the muck and read on its seat again is that seat's hole card again. */
function retrieved(d: Draft, h: Hand, sd: Showdown): void {
  for (const [seat, { uids }] of Object.entries(sd.tabled)) {
    for (const uid of uids) {
      const card = h.cards[uid];
      if (card?.role !== 'muck' || card.zone !== `seat:${seat}`) continue;
      setRole(d, h, uid, 'hole');
      const holes = changing(d, h, 'holes');
      holes[Number(seat)] = [...(holes[Number(seat)] ?? []), uid];
    }
  }
}

const BETTING_PHASES: ReadonlySet<Phase> = new Set(['dealing', 'betting']);

/** Every player but one folded in this event, while the hand was being played. */
function wonByFold(d: Draft, phase: Phase): boolean {
  return d.ctx.verdicts.some((v) => v.type === 'HAND_WON') && BETTING_PHASES.has(phase);
}

/** What the profile weighs for the all-in prompt: who is all-in, whether betting can go on. */
function allInFacts(h: Hand): AllInFacts {
  return {
    allIn: allInPlayers(h.betting).length,
    bettingPossible: bettingMayGoOn(h.betting),
    // The hand's last round is over with a showdown to come.
    finalRoundClosed:
      h.board.length >= 5 && h.betting.street === 'river' && roundOver(h.betting) && !handWon(h.betting),
  };
}

/**
 * ALL_IN_SHOWDOWN, once per hand, when the profile says the betting calls for it: at the action, the
 * amount seen, the tabled hand or the street that showed that nobody can bet any more.
 */
function allInPrompt(d: Draft, h: Hand, at: number): void {
  if (h.allInPrompted || h.betting.allIn.length === 0) return; // most events: it runs for each
  if (allInShowdownDue(profileOf(d), allInFacts(h))) {
    h.allInPrompted = true;
    d.ctx.outputs.push({
      kind: 'prompt',
      at,
      prompt: 'ALL_IN_SHOWDOWN',
      seats: inHand(h.betting),
      rule: profileOf(d).promptRule('ALL_IN_SHOWDOWN'),
      steps: promptProcedure('ALL_IN_SHOWDOWN'),
    });
  }
}

/** The last player left takes every pot at that fold, unseen (RULINGS.md "Award"). */
function foldWin(d: Draft, h: Hand, sd: Showdown, at: number): void {
  returnUncalled(d, h, sd, at);
  const winner = inHand(h.betting)[0];
  if (winner === undefined) return;
  const pots = layerPots(handBets(h)) ?? [{ pot: 0, amount: null, eligible: [winner] }];
  for (const pot of awardOrder(pots)) {
    if (!(pot.pot in sd.awarded)) award(d, h, sd, pots, pot, [winner], at, 'uncontested');
  }
}

/** Betting over: the prompts it calls for, then every pot whose contest is decided. */
function showdown(d: Draft, h: Hand, sd: Showdown, event: DomainEvent): void {
  const b = h.betting;
  const roundDone = roundOver(b);
  const down = h.board.length >= 5 && roundDone;
  const over = down || !bettingMayGoOn(b);
  if (roundDone && h.board.length < 5) buildSidePots(d, h, sd, event.seq);
  if (over) returnUncalled(d, h, sd, event.seq);
  if (down && sd.downAt === null) {
    // The river card or the action that closed its round, whichever came last: never the event that judged a held read.
    sd.downAt = Math.max(cardSeq(h, h.board[4]) ?? event.seq, sd.lastActionAt ?? -1);
    showOrderPrompt(d, h, sd);
  }
  if (!over) return;
  settle(d, h, sd, event.seq);
  winnerMucked(d, h, sd);
}

/**
 * A hand tabled, or a live hand in the muck, while no seat surely owes an action: the dealer went to
 * the showdown, so an all-in still in doubt did not raise. The betting is over, as if collected.
 */
function showdownBegun(d: Draft, h: Hand, sd: Showdown): void {
  const b = h.betting;
  if (!judging(d) || b.collected || mayOwe(b).length === 0 || !roundClosed(b)) return;
  if (Object.keys(sd.tabled).length === 0 && muckedSeats(h, sd).size === 0) return;
  h.betting = collect(b);
  riverClosed(d, h);
}

/** The card that opened a street since `prev`, when one did: a read judged at a later event is named by its own. */
function streetOpened(h: Hand, prev: Stood | null): number | undefined {
  if (prev?.no !== h.no || prev.betting.street === h.betting.street) return undefined;
  return cardSeq(h, h.board.at(-1));
}

function cardSeq(h: Hand, uid: string | undefined): number | undefined {
  return uid === undefined ? undefined : h.cards[uid]?.seq;
}

/** Each prompt once a hand (BUILD_SIDE_POTS once a street): true the first time. */
function once(sd: Showdown, key: string): boolean {
  if (sd.prompted.includes(key)) return false;
  sd.prompted = [...sd.prompted, key];
  return true;
}

function prompt(d: Draft, code: Exclude<PromptCode, 'NEXT_HAND'>, at: number, seats: number[]): PromptReport {
  const report: PromptReport = {
    kind: 'prompt',
    at,
    prompt: code,
    seats,
    rule: profileOf(d).promptRule(code),
    steps: promptProcedure(code),
  };
  d.ctx.outputs.push(report);
  return report;
}

/** The part of the last bet no one called goes back before the pots are made. */
function returnUncalled(d: Draft, h: Hand, sd: Showdown, at: number): void {
  const back = uncalledBet(handBets(h));
  // An amount never known may be nothing at all: the dealer is not sent after it.
  if (back?.amount == null || back.amount <= 0 || !once(sd, 'RETURN_UNCALLED')) return;
  prompt(d, 'RETURN_UNCALLED', at, [back.seat]).amount = back.amount;
}

/** A round closed with a side pot it made: every pot listed before the next street's burn. */
function buildSidePots(d: Draft, h: Hand, sd: Showdown, at: number): void {
  const key = `BUILD_SIDE_POTS:${h.betting.street}`;
  // Pots are layered at all-in totals: with no one all-in, or the prompt given, there is nothing to layer.
  if (sd.prompted.includes(key) || allInPlayers(h.betting).length === 0) return;
  const bets = handBets(h);
  if (!sidePotMade(bets) || !once(sd, key)) return;
  const pots = layerPots(bets) ?? [];
  prompt(d, 'BUILD_SIDE_POTS', at, inHand(h.betting)).pots = pots.map((p) => ({
    pot: p.pot,
    amount: p.amount,
    eligible: [...p.eligible],
  }));
}

/** The last round closed with two or more players and no all-in showdown: who shows first, then clockwise. */
function showOrderPrompt(d: Draft, h: Hand, sd: Showdown): void {
  const b = h.betting;
  if (inHand(b).length < 2 || h.allInPrompted) return;
  const facts = { ...allInFacts(h), finalRoundClosed: true };
  if (allInShowdownDue(profileOf(d), facts) || !once(sd, 'SHOW_ORDER')) return;
  prompt(d, 'SHOW_ORDER', sd.downAt as number, showOrderOf(h));
}

/** Who shows first at this hand's showdown, then clockwise (the display's order is the prompt's). */
export function showOrderOf(h: Hand): number[] {
  return showOrder(lastBettingRound(h), h.button);
}

/**
 * The last round that was bet: the river's, unless nobody could bet on it (a board run out after the
 * betting stopped), then the last round that took an action.
 */
function lastBettingRound(h: Hand): Betting {
  const b = h.betting;
  if (b.lastActor !== null || bettingMayGoOn(b)) return b;
  return (h.rounds ?? []).findLast((round) => round.lastActor !== null) ?? b;
}

/** Seats still in the hand whose cards reached the muck untabled: the seq of each one's first muck read. */
export function muckedSeats(h: Hand, sd: Pick<Showdown, 'tabled'>): Map<number, number> {
  const mucked = new Map<number, number>();
  const live = inHand(h.betting);
  for (const uid in h.cards) {
    const c = h.cards[uid];
    if (c?.role !== 'muck' || c.seat === null || !live.includes(c.seat) || c.seat in sd.tabled) continue;
    mucked.set(c.seat, Math.min(mucked.get(c.seat) ?? c.seq, c.seq));
  }
  return mucked;
}

/**
 * Each pot, side pots first, once every hand eligible to it is tabled or mucked (at the showdown), or
 * one is left: awarded at the event that decided it. Pots that cannot be layered get the hands' ranking.
 */
function settle(d: Draft, h: Hand, sd: Showdown, seq: number): void {
  const pots = layerPots(handBets(h));
  const mucked = muckedSeats(h, sd);
  if (pots === null) return ranking(d, h, sd, mucked, seq);
  for (const pot of awardOrder(pots)) {
    if (pot.pot in sd.awarded) continue;
    const live = pot.eligible.filter((s) => !mucked.has(s));
    if (live.length === 1) {
      award(d, h, sd, pots, pot, live, decidedAt(sd, pot, mucked) ?? seq, 'uncontested');
      continue;
    }
    if (sd.downAt === null || live.length === 0 || !live.every((s) => s in sd.tabled)) continue;
    const winners = best(h, sd, live);
    if (winners.length === 0) continue; // no tabled hand readable: the dealer reads it
    award(d, h, sd, pots, pot, winners, decidedAt(sd, pot, mucked) ?? seq, pot.pot === 0 ? 'main' : 'side');
  }
}

/**
 * The event that settled a pot at the showdown: the last `shown` or the last seat's first muck read among
 * its seats, or the river card (the round's close) when every hand was tabled before it; null before it.
 */
function decidedAt(sd: Showdown, pot: Pot, mucked: ReadonlyMap<number, number>): number | null {
  if (sd.downAt === null) return null;
  const moments = pot.eligible.map((s) => sd.tabled[s]?.at ?? mucked.get(s) ?? -1);
  return Math.max(sd.downAt, ...moments);
}

/** The tabled hand of a seat, best five of its seven cards; null when a card's face is not known. */
export function handOf(h: Hand, sd: Pick<Showdown, 'tabled'>, seat: number): RankedHand | null {
  const tabled = sd.tabled[seat];
  if (tabled === undefined) return null; // an untabled hand is never read, let alone named
  const faces = [...tabled.uids, ...h.board].map((uid) => h.cards[uid]?.ref.face ?? null);
  const known = faces.filter((f): f is Face => f !== null);
  if (known.length !== faces.length || known.length < 5 || known.length > 7) return null;
  return new Set(known).size === known.length ? bestHand(known) : null;
}

/** The seats with the best tabled hand among `seats` (cards speak). */
function best(h: Hand, sd: Showdown, seats: readonly number[]): number[] {
  const hands = seats.flatMap((s) => {
    const hand = handOf(h, sd, s);
    return hand === null ? [] : [{ seat: s, hand }];
  });
  const top = hands.reduce<RankedHand | null>(
    (a, x) => (a === null || compareHands(x.hand, a) > 0 ? x.hand : a),
    null,
  );
  return top === null ? [] : hands.filter((x) => compareHands(x.hand, top) === 0).map((x) => x.seat);
}

/** The category of each tabled hand among `seats`: a hand never tabled is never named. */
function tabledHands(h: Hand, sd: Showdown, seats: readonly number[]): Record<number, HandCategory> {
  const hands: Record<number, HandCategory> = {};
  for (const s of seats) {
    const hand = handOf(h, sd, s);
    if (hand !== null) hands[s] = hand.category;
  }
  return hands;
}

function award(
  d: Draft,
  h: Hand,
  sd: Showdown,
  pots: readonly Pot[],
  pot: Pot,
  winners: number[],
  at: number,
  rule: AwardCase,
): void {
  const rake = d.ctx.rake ?? undefined;
  const split: Award = awardPot(pots, pot.pot, winners, { button: h.button, chipUnit: d.ctx.chipUnit, rake });
  sd.awarded = { ...sd.awarded, [pot.pot]: [...winners] };
  d.ctx.outputs.push({
    kind: 'award',
    at,
    pot: pot.pot,
    amount: split.amount,
    eligible: split.eligible,
    winners: clockwise(winners),
    shares: split.shares,
    hands: tabledHands(h, sd, pot.eligible),
    rule: profileOf(d).awardRule(rule),
    seats: clockwise(winners),
    steps: [],
  });
}

function clockwise(seats: readonly number[]): number[] {
  return [...seats].sort((a, b) => a - b);
}

/**
 * An all-in total unknown: no pot can be layered, so once every hand is tabled or mucked (or one is
 * left) the dealer gets the tabled hands best first, tied seats together, and splits by them.
 */
function ranking(d: Draft, h: Hand, sd: Showdown, mucked: ReadonlyMap<number, number>, seq: number): void {
  const live = inHand(h.betting).filter((s) => !mucked.has(s));
  const decided = live.length <= 1 || (sd.downAt !== null && live.every((s) => s in sd.tabled));
  if (!decided || !once(sd, 'SHOWDOWN_RANKING')) return;
  const tiers: number[][] = [];
  let left = live.filter((s) => s in sd.tabled);
  while (left.length > 0) {
    const tier = best(h, sd, left);
    if (tier.length === 0) break;
    tiers.push(clockwise(tier));
    left = left.filter((s) => !tier.includes(s));
  }
  const everyone: Pot = { pot: 0, amount: null, eligible: inHand(h.betting) };
  const report = prompt(d, 'SHOWDOWN_RANKING', decidedAt(sd, everyone, mucked) ?? seq, tiers.flat());
  report.ranking = tiers;
  report.hands = tabledHands(h, sd, tiers.flat());
}

/**
 * A tabled hand that won a pot lost a card to the muck before the pots were pushed: raised once a hand,
 * at the first such card, naming the winner and its mucked tabled cards.
 */
function winnerMucked(d: Draft, h: Hand, sd: Showdown): void {
  if (sd.pushed || sd.winnerMucked) return;
  const winners = new Set(Object.values(sd.awarded).flat());
  for (const seat of clockwise([...winners])) {
    const cards = (sd.tabled[seat]?.uids ?? [])
      .map((uid) => h.cards[uid])
      .filter((c) => c !== undefined && c.role === 'muck' && c.zone === 'muck');
    if (cards.length === 0) continue;
    sd.winnerMucked = true;
    const at = Math.min(...cards.map((c) => c?.seq ?? 0));
    raise(
      d,
      { incident: 'WINNING_HAND_MUCKED' },
      at,
      [seat],
      cards.map((c) => c?.ref as CardRef),
    );
    return;
  }
}
