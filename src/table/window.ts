import type { CardSeen, ReaderRound } from '../domain/events.js';
import { seatOf } from '../domain/zones.js';
import { arrive, backInPlay, prematureStreetCard } from './cards.js';
import { type Draft, judging } from './draft.js';
import type { Hand, TableContext } from './state.js';

/**
 * The reordering window (RULINGS.md, DESIGN.md "Real time"): a multiplexed reader reports the cards of
 * one antenna cycle in any order, so two reads it may have inverted are judged in the order a correct
 * deal would have given them. Reads of a board that reports its rounds may be inverted when their
 * rounds are adjacent, and are settled once the round after their own has ended; other reads when
 * closer than `orderWindowMs`, settled that long after they were made. Reads further apart keep their
 * order.
 */

/** What has happened by the event being judged: the time, and the reader round that just ended. */
export interface Settled {
  until: number;
  ended?: ReaderRound | undefined;
}

/** Two reads the reader may have reported in either order. */
function sameCycle(a: CardSeen, b: CardSeen, w: number): boolean {
  if (a.round && b.round && a.round.reader === b.round.reader) return Math.abs(a.round.n - b.round.n) <= 1;
  return Math.abs(a.t - b.t) < w;
}

/**
 * When time alone settles a read. A read of a board that reports rounds waits two windows, twice its
 * round at the most: it is settled by time only when its board stopped reporting rounds.
 */
function settledByTime(read: CardSeen, w: number): number {
  return read.t + (read.round ? 2 * w : w);
}

function isSettled(read: CardSeen, w: number, by: Settled): boolean {
  const { ended } = by;
  if (read.round && ended?.reader === read.round.reader && ended.n > read.round.n) return true;
  return by.until >= settledByTime(read, w);
}

/** Some held read is settled by `by` (an infinite `until` settles them all). */
export function readsDue(ctx: TableContext, by: Settled): boolean {
  return ctx.window.some((read) => isSettled(read, ctx.orderWindowMs, by));
}

/** The first instant at which time alone settles a held read; null with none held. */
export function nextReadDue(ctx: TableContext): number | null {
  const instants = ctx.window.map((read) => settledByTime(read, ctx.orderWindowMs));
  return instants.length === 0 ? null : Math.min(...instants);
}

/**
 * Judges the held reads settled by `by`, one at a time: the next is, among the reads the earliest
 * settled one may have been inverted with, the one a correct deal would have first.
 */
export function judgeReads(d: Draft, by: Settled): void {
  const w = d.ctx.orderWindowMs;
  for (;;) {
    dropRepeats(d);
    const first = earliest(d.ctx.window.filter((read) => isSettled(read, w, by)));
    if (first === undefined) return;
    const cycle = d.ctx.window.filter((read) => sameCycle(read, first, w));
    // A read alone in its cycle is next; several are put in the order a correct deal would have given them.
    judge(d, (cycle.length > 1 ? canonicalOrder(d.hand, cycle)[0] : undefined) ?? first);
  }
}

function earliest(reads: readonly CardSeen[]): CardSeen | undefined {
  return reads.reduce<CardSeen | undefined>(
    (first, read) => (first && first.t <= read.t ? first : read),
    undefined,
  );
}

/**
 * A read of a card where it already lies (a repeat, a peek) is no arrival: it sets no cycle. A scrap
 * put back where it was set apart from is one.
 */
function dropRepeats(d: Draft): void {
  const repeat = (read: CardSeen) => alreadyThere(d.hand, read) && !backInPlay(d, read.uid);
  if (d.ctx.window.some(repeat)) d.ctx.window = d.ctx.window.filter((read) => !repeat(read));
}

/** Judges `next`, out of the window: its companions are the reads of its cycle, judged or held. */
function judge(d: Draft, next: CardSeen): void {
  const w = d.ctx.orderWindowMs;
  d.ctx.window = d.ctx.window.filter((read) => read !== next);
  const around = [...d.ctx.recent, next, ...d.ctx.window].filter((read) => sameCycle(read, next, w));
  arrive(d, next, around);
  d.ctx.recent = [...d.ctx.recent.filter((read) => mayShareCycle(read, next, w)), next];
}

/** `read`, judged, may still share a cycle with a read judged after `next`. */
function mayShareCycle(read: CardSeen, next: CardSeen, w: number): boolean {
  if (next.t - read.t < w) return true;
  const { round } = read;
  return round !== undefined && !(next.round?.reader === round.reader && next.round.n - round.n > 1);
}

/**
 * A read whose judgment no other read of its cycle can change (DESIGN.md "Real time"), alone in the
 * window: a tag the registry does not know, a card of the other deck, a card reaching a seat that is
 * not a player during the deal, a turn or river card while the round before it is open and its burn
 * already judged. Its order against the reads around it decides nothing. A premature flop card waits
 * for its cycle: the flop cards out with it are named, and under french-casino the second one out
 * turns BURN_AND_REPLACE into SKIPPED_PLAYER_FOLDS.
 */
export function certainAtRead(d: Draft, read: CardSeen): boolean {
  const h = d.hand;
  if (h === null || !judging(d) || h.cards[read.uid] !== undefined) return false;
  if (d.ctx.window.some((held) => held !== read && !alreadyThere(h, held))) return false;
  if (read.face === null) return true;
  if (h.deck !== null && read.deck !== h.deck) return !d.ctx.lastHandCards.includes(read.uid);
  const seat = seatOf(read.zone);
  if (seat !== null) return !h.dealEnded && !h.players.includes(seat);
  return read.zone === 'board' && prematureStreetCard(d, h);
}

/** Judges `read` now rather than at the end of its cycle (`certainAtRead`). */
export function judgeNow(d: Draft, read: CardSeen): void {
  dropRepeats(d);
  judge(d, read);
}

function alreadyThere(h: Hand | null, read: CardSeen): boolean {
  return h?.cards[read.uid]?.zone === read.zone;
}

/**
 * The order a correct deal would have given reads of one cycle: muck, then hole cards in deal
 * order, then burn and board cards interleaved so each street's burn comes before its first card.
 * Reads of a card where it already lies, and second reads of one card, are left out.
 */
export function canonicalOrder(h: Hand | null, cycle: readonly CardSeen[]): CardSeen[] {
  const reads = cycle.filter(
    (r, i) => !alreadyThere(h, r) && cycle.findIndex((o) => o.uid === r.uid && o.zone === r.zone) === i,
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
