import {
  type BettingStreet,
  foldSeat,
  nextRound,
  pending,
  roundClosed,
  roundOver,
} from '../domain/betting.js';
import type { CardRef } from '../domain/cards.js';
import type { CardSeen } from '../domain/events.js';
import { postflopOrder } from '../domain/seats.js';
import { seatOf } from '../domain/zones.js';
import type { IncidentFacts } from '../rules/types.js';
import { checkPuck } from './button.js';
import {
  boardMode,
  canBet,
  changing,
  type Draft,
  findCard,
  handInPlay,
  judging,
  keepDeck,
  raise,
  remove,
  ruledPremature,
  settleBoard,
  substantial,
  verdict,
} from './draft.js';
import type { CardInHand, Hand, TableContext } from './state.js';

/**
 * A card read judged out of the reordering window. `batch` holds the reads within the window of
 * it (itself included): their order against it is unknown, which decides whether it is identifiable.
 */
export function arrive(d: Draft, e: CardSeen, batch: readonly CardSeen[]): void {
  const h = d.hand;
  if (h === null || !handInPlay(d)) return;
  const known = h.cards[e.uid];
  // A card taken back into the stub and read again once betting resumed was dealt again.
  const dealtAgain = known?.role === 'stub' && ruledPremature(d, h) === null;
  const again = known?.zone === e.zone && !dealtAgain && !backInPlay(d, e.uid);
  if (known && again) return; // a repeated read or a peek: not a new card
  if (known && known.role !== 'stub') return move(d, h, known, e);
  if (known) delete changing(d, h, 'cards')[e.uid]; // taken back into the stub earlier, dealt again now
  // The last hand's cards of the other deck being swept off the table are not this hand's.
  if (!known && h.deck !== null && e.deck !== h.deck && d.ctx.lastHandCards.includes(e.uid)) return;
  place(d, h, e, 'stray');
  markDealt(d, h, e);
  if (e.zone === 'muck') return; // a card never in play reaching the muck (last hand's deck being collected)
  if (!identityHolds(d, h, e)) return;
  const seat = seatOf(e.zone);
  if (seat !== null) return dealHoleCard(d, h, e, seat);
  if (e.zone === 'burn') return burnCard(d, h, e, batch);
  if (e.zone === 'board') boardCard(d, h, e, batch);
}

/**
 * From its first card on, the hand's deck is out of the shuffler: its next count is its return. A
 * hand started without a deck id takes the deck of its first registered card.
 */
function markDealt(d: Draft, h: Hand, e: CardSeen): void {
  if (h.deck === null && e.face !== null) h.deck = e.deck;
  const record = h.deck === null ? undefined : d.ctx.decks[h.deck];
  if (h.deck !== null && (record === undefined || (record.lastHand === h.no && record.returned))) {
    keepDeck(d, h.deck, { fault: null, ...record, lastHand: h.no, returned: false });
  }
}

function place(d: Draft, h: Hand, e: CardSeen, role: CardInHand['role']): void {
  changing(d, h, 'cards')[e.uid] = {
    ref: { uid: e.uid, face: e.face, deck: e.deck },
    zone: e.zone,
    role,
    seat: null,
    position: null,
    seq: e.seq,
    expected: null,
  };
}

/** Hole-card lists are replaced, never changed in place: a step's draft shares them with the last context. */
export function dropHole(d: Draft, h: Hand, seat: number, uid: string): void {
  changing(d, h, 'holes')[seat] = (h.holes[seat] ?? []).filter((u) => u !== uid);
}

export function setRole(
  d: Draft,
  h: Hand,
  uid: string,
  role: CardInHand['role'],
  extra: Partial<CardInHand> = {},
): void {
  const c = h.cards[uid];
  if (c) changing(d, h, 'cards')[uid] = { ...c, role, ...extra };
}

/** A card already in the hand moved to another zone. */
function move(d: Draft, h: Hand, c: CardInHand, e: CardSeen): void {
  const expected = c.expected === e.zone;
  changing(d, h, 'cards')[e.uid] = { ...c, zone: e.zone, seq: e.seq, expected: expected ? null : c.expected };
  if (expected) {
    if (e.zone === 'burn' && c.role !== 'burn') {
      // The exposed card placed on the stub is the burn before the flop (REPLACE_AT_END).
      changing(d, h, 'burns').push(e.uid);
      setRole(d, h, e.uid, 'burn');
    }
    return;
  }
  const betweenBoardAndBurn =
    (c.role === 'board' || c.role === 'burn') && (e.zone === 'burn' || e.zone === 'board');
  if (boardMode(d) === 'scramble') return rescramble(d, h, e);
  if (betweenBoardAndBurn) {
    // The floor turned a board card into a burn or back: the hand follows the cards.
    rescramble(d, h, e);
    return rebaseBurns(d, h);
  }
  if (c.role === 'dead' && (e.zone === 'board' || e.zone === 'burn')) {
    raise(d, { incident: 'PROCEDURE_NOT_FOLLOWED', expected: 'SET_APART' }, e.seq, [], [c.ref]);
    return;
  }
  const seat = seatOf(e.zone);
  if (seat !== null && c.seat !== seat && (c.role === 'hole' || c.role === 'stray')) {
    // Given to another seat (a floor's decision): it leaves the first seat and is dealt to this one.
    if (c.seat !== null) {
      dropHole(d, h, c.seat, e.uid);
      if (c.position !== null) changing(d, h, 'received')[c.seat] = (h.received[c.seat] ?? 1) - 1;
    }
    setRole(d, h, e.uid, 'stray', { seat: null, position: null });
    return dealHoleCard(d, h, e, seat);
  }
  if (e.zone === 'muck' && c.role === 'hole' && c.seat !== null) {
    dropHole(d, h, c.seat, e.uid);
    setRole(d, h, e.uid, 'muck');
  }
}

/** Checks the card belongs to this hand's deck; false when it must not be counted. */
function identityHolds(d: Draft, h: Hand, e: CardSeen): boolean {
  const ref = { uid: e.uid, face: e.face, deck: e.deck };
  const seat = seatOf(e.zone);
  const seats = seat === null ? [] : [seat];
  if (e.face === null) {
    const ruling = raise(d, foreignFacts(d, h, e), e.seq, seats, [ref]);
    if (ruling === 'SCRAP_CARD') setRole(d, h, e.uid, 'dead'); // out of play for the rest of the hand
    return settles(d, ruling);
  }
  if (e.deck !== h.deck) {
    const otherDeckHole =
      findCard(h, (c) => c.role === 'hole' && c.ref.deck !== h.deck && c.ref.uid !== e.uid) !== undefined;
    const facts: IncidentFacts = {
      incident: 'MIXED_DECK',
      actionsWithBothDecks: h.actedWithOtherDeck || readLate(h, seat),
      boardOnly: (e.zone === 'board' || e.zone === 'burn') && !otherDeckHole,
      bettingPossible: canBet(h),
      duplicatesInPlay: faceInPlay(h, e),
    };
    if (h.boardRedealt && facts.boardOnly) return false; // the board is being dealt again already
    const ruling = raise(d, facts, e.seq, seats, [ref]);
    if (ruling === 'REDEAL_BOARD') h.boardRedealt = true;
    return settles(d, ruling);
  }
  const twin = findCard(
    h,
    (c) => c.ref.uid !== e.uid && c.ref.face === e.face && c.ref.deck === e.deck && inPlay(c),
  );
  if (twin) return settles(d, raise(d, { incident: 'DUPLICATE_CARD' }, e.seq, seats, [ref]));
  return true;
}

/**
 * A dead card read again after the sensors saw it set apart (SCRAP_CARD's SET_APART step): back on the
 * table where it lay, which a repeated read of a card left in place is not.
 */
export function backInPlay(d: Draft, uid: string): boolean {
  if (d.hand?.cards[uid]?.role !== 'dead') return false;
  return d.ctx.open.some((o) => o.seen.includes('card-lifted') && o.report.cards.some((c) => c.uid === uid));
}

/** A tag with no face: a joker of a registered deck (the registry gives its deck) or a tag of no deck. */
function foreignFacts(d: Draft, h: Hand, e: CardSeen): IncidentFacts {
  return {
    incident: 'FOREIGN_CARD',
    nonStandard: e.deck !== null,
    zone: seatOf(e.zone) !== null ? 'seat' : e.zone === 'board' ? 'board' : 'burn',
    afterSubstantialAction: substantial(d, h),
  };
}

/** A card of the other deck with the face of a card of the hand's deck in play: the deck is fouled. */
function faceInPlay(h: Hand, e: CardSeen): boolean {
  return findCard(h, (c) => c.ref.face === e.face && c.ref.deck === h.deck && inPlay(c)) !== undefined;
}

/**
 * A hole card first read after a reader gap, once the deal is over and actions were made: it lay on
 * its seat unseen since the deal, so every action since was made with it in play.
 */
function readLate(h: Hand, seat: number | null): boolean {
  return (
    seat !== null &&
    h.readerGap &&
    h.dealEnded &&
    h.betting.actions.length > 0 &&
    (h.holes[seat]?.length ?? 0) < 2
  );
}

function inPlay(c: CardInHand): boolean {
  return c.role === 'hole' || c.role === 'board' || c.role === 'burn' || c.role === 'dead';
}

/** After an identity incident: the card is counted only while the floor watches the hand go on. */
function settles(d: Draft, ruling: string | null): boolean {
  return ruling === null || ruling === 'CALL_FLOOR' ? !judging(d) && handInPlay(d) : false;
}

/** Position of a seat's k-th card in the hole-card deal (1-based). */
function positionOf(h: Hand, seat: number, k: number): number {
  return (k - 1) * h.dealOrder.length + h.dealOrder.indexOf(seat) + 1;
}

/** The next position of the deal still to be served, and its seat. */
export function nextInDeal(h: Hand): { seat: number; position: number } | null {
  let next: { seat: number; position: number } | null = null;
  for (const seat of h.dealOrder) {
    const received = h.received[seat] ?? 0;
    if (received >= 2) continue;
    const position = positionOf(h, seat, received + 1);
    if (next === null || position < next.position) next = { seat, position };
  }
  return next;
}

function dealHoleCard(d: Draft, h: Hand, e: CardSeen, seat: number): void {
  if (Object.keys(h.received).length === 0) checkPuck(d, d.ctx.puckSuspect?.seq ?? e.seq);
  if (!h.players.includes(seat)) {
    // After a reader gap, a card pitched to the empty seat during the deal may be first read late.
    if (!h.dealEnded || h.readerGap) raise(d, wrongSeatFacts(d, h), e.seq, [seat], []);
    return;
  }
  // A player who folded early still gets the rest of his deal; after it, a folded hand takes no card.
  if (h.dealEnded && h.betting.folded.includes(seat)) return;
  const holes = h.holes[seat] ?? [];
  const received = h.received[seat] ?? 0;
  const owed = h.owed.includes(seat);
  const full = h.dealEnded ? holes.length >= 2 : received >= 2;
  if (full && !owed) {
    const facts: IncidentFacts = { incident: 'EXTRA_CARD', afterSubstantialAction: substantial(d, h) };
    const ruling = raise(d, facts, e.seq, [seat], []);
    if (ruling !== 'HAND_DEAD') return;
    killSeat(d, h, seat);
    setRole(d, h, e.uid, 'dead', { seat }); // the extra card is dead with the rest of the seat's hand
    return;
  }
  const position = full || h.dealEnded ? null : positionOf(h, seat, received + 1);
  if (position !== null) h.foldInDeal = null; // the deal went on past the fold
  if (!full) changing(d, h, 'received')[seat] = received + 1;
  changing(d, h, 'holes')[seat] = [...holes, e.uid];
  setRole(d, h, e.uid, 'hole', { seat, position });
  if (owed && holes.length + 1 >= 2) remove(changing(d, h, 'owed'), seat);
  // After a reader gap, reads come back in whatever order the reader re-reports them.
  if (position === null || !judging(d) || h.readerGap) return;
  const skipped = h.dealOrder.filter(
    (s) => s !== seat && (h.received[s] ?? 0) < 2 && positionOf(h, s, (h.received[s] ?? 0) + 1) < position,
  );
  if (skipped.length > 0) raise(d, { incident: 'SEAT_SKIPPED' }, e.seq, skipped, []);
}

/** A card to a seat that is no player: the deal's first card, or one found after substantial action. */
function wrongSeatFacts(d: Draft, h: Hand): IncidentFacts {
  return {
    incident: 'CARD_TO_WRONG_SEAT',
    firstCardToWrongSeat: Object.keys(h.received).length === 0,
    afterSubstantialAction: substantial(d, h),
  };
}

/** Live cards the seat was served, those it already threw in the muck included. */
function cardsServed(h: Hand, seat: number): number {
  return Object.values(h.cards).filter((c) => c.seat === seat && (c.role === 'hole' || c.role === 'muck'))
    .length;
}

/** The seat's hand is dead by ruling: it takes no further part. */
export function killSeat(d: Draft, h: Hand, seat: number): void {
  h.betting = foldSeat(h.betting, seat);
  for (const uid of h.holes[seat] ?? []) setRole(d, h, uid, 'dead');
  changing(d, h, 'holes')[seat] = [];
  remove(changing(d, h, 'owed'), seat);
}

/**
 * The hole-card deal is over (first action, first burn or board card, or the dealer says so):
 * a player still short of a card was never served. While a card reader is down the count cannot
 * be trusted: it waits for the first of these moments after the reader is back.
 */
export function endDeal(
  d: Draft,
  moment: number,
  { owedExcused = false, actor = null as number | null } = {},
): void {
  const h = d.hand;
  if (h === null || (h.dealEnded && !h.countDeferred)) return;
  const at = h.foldInDeal?.seq ?? moment;
  h.foldInDeal = null;
  h.dealEnded = true;
  verdict(d, 'DEAL_ENDED');
  h.countDeferred = d.ctx.readersDown.length > 0;
  if (!judging(d) || h.countDeferred) return;
  for (const seat of h.dealOrder) {
    if (h.betting.folded.includes(seat) || cardsServed(h, seat) >= 2) continue;
    if (owedExcused && h.owed.includes(seat)) continue; // the replacement comes once the deal is done
    const facts: IncidentFacts = {
      incident: 'MISSING_CARD',
      atButton: seat === h.button,
      afterSubstantialAction: substantial(d, h),
      buttonActedShort: seat === h.button && actedShort(h, seat, actor),
      noCard: cardsServed(h, seat) === 0,
    };
    const ruling = raise(d, facts, at, [seat], []);
    if (ruling === 'GIVE_TOP_CARD' && !h.owed.includes(seat)) changing(d, h, 'owed').push(seat);
    if (ruling === 'HAND_DEAD') killSeat(d, h, seat);
    if (!judging(d)) return;
  }
}

/**
 * The short seat acted other than by folding: `actor`'s action is ending the deal, or an earlier one
 * (a count deferred by a reader gap) is on record; a folded seat is never counted short.
 */
function actedShort(h: Hand, seat: number, actor: number | null): boolean {
  return actor === seat || h.betting.actions.some((a) => a.seat === seat);
}

/** A dealer who pitches no hole card for this long after a fold has ended the deal at the fold. */
export const DEAL_PAUSE_MS = 2000;

/**
 * When a deal left at a fold has paused long enough to have ended there; null when no fold waits, or
 * while a hole card is held in the window (its judgment may go on with the deal).
 */
export function dealPauseEnds(ctx: TableContext): number | null {
  const fold = ctx.hand?.foldInDeal;
  if (fold == null || ctx.window.some((read) => seatOf(read.zone) !== null)) return null;
  return fold.t + DEAL_PAUSE_MS;
}

/** The deal was left at a fold long enough, with no hole card still held in the window: it ended there. */
export function dealPaused(ctx: TableContext, t: number): boolean {
  const ends = dealPauseEnds(ctx);
  return ends !== null && t >= ends;
}

const STREETS = ['flop', 'turn', 'river'] as const;
/** Board cards each street lays. */
const STREET_CARDS = [3, 1, 1] as const;

/** Street the next board card belongs to: 0 flop, 1 turn, 2 river. */
function streetIndex(boardCount: number): 0 | 1 | 2 {
  return boardCount < 3 ? 0 : boardCount === 3 ? 1 : 2;
}

function burnCard(d: Draft, h: Hand, e: CardSeen, batch: readonly CardSeen[]): void {
  endDeal(d, e.seq);
  setRole(d, h, e.uid, 'burn');
  if (!handInPlay(d)) return;
  if (boardMode(d) === 'scramble') return rescramble(d, h, e);
  const exposedBurn = findCard(h, (c) => c.role === 'dead' && c.expected === 'burn');
  if (exposedBurn && h.board.length === 0 && judging(d)) {
    // REPLACE_AT_END: the exposed card was to be the burn before the flop, not another card.
    changing(d, h, 'cards')[exposedBurn.ref.uid] = { ...exposedBurn, expected: null };
    const facts = {
      incident: 'PROCEDURE_NOT_FOLLOWED' as const,
      expected: 'BURN_FACE_DOWN' as const,
    };
    raise(d, facts, e.seq, [], [refOf(h, e.uid)]);
  }
  if (h.board.length === 0 && h.burns.length >= h.burnsBefore[0] && judging(d)) {
    const cycle = newCards(h, batch, 'burn', e);
    const identifiable = cycle.length === 1;
    const named = identifiable ? [refOf(h, e.uid)] : cycle;
    const ruling = raise(d, { incident: 'FLOP_TWO_BURNS', identifiable }, e.seq, [], named);
    if (ruling === 'FLOP_SECOND_BURN_TO_FLOP') {
      changing(d, h, 'board').push(e.uid);
      setRole(d, h, e.uid, 'board', { expected: 'board' });
      verdict(d, 'BURN_ON_FLOP_RULED');
      return;
    }
    if (ruling === 'FLOP_SCRAMBLE') verdict(d, 'SCRAMBLE_RULED');
  } else if (h.board.length > 0 && h.burns.length >= h.burnsBefore[streetIndex(h.board.length)]) {
    // One burn too many for this street: the streets after it still need a burn of their own.
    shiftBurns(d, h, streetIndex(h.board.length) + 1, 1);
  }
  changing(d, h, 'burns').push(e.uid);
}

function refOf(h: Hand, uid: string): CardRef {
  const c = h.cards[uid];
  return c ? c.ref : { uid, face: null, deck: null };
}

/**
 * The cards of this antenna cycle in `zone` that are new to the hand, `e` included: when there are
 * several, their order is unknown, so none of them is identifiable by its place.
 */
function newCards(h: Hand, batch: readonly CardSeen[], zone: 'board' | 'burn', e: CardSeen): CardRef[] {
  const rest = batch.filter(
    (c, i) => c.zone === zone && c.uid !== e.uid && batch.findIndex((o) => o.uid === c.uid) === i,
  );
  return [refOf(h, e.uid), ...rest.map(({ uid, face, deck }) => ({ uid, face, deck }))];
}

function boardCard(d: Draft, h: Hand, e: CardSeen, batch: readonly CardSeen[]): void {
  endDeal(d, e.seq);
  if (h.board.length >= 3) judgeFlopBurn(d, h);
  if (!handInPlay(d)) return;
  setRole(d, h, e.uid, 'board');
  if (boardMode(d) === 'scramble') return rescramble(d, h, e);
  const n = h.board.length;
  const si = streetIndex(n);
  const first = n === 0 || n === 3 || n === 4;
  const burnOut = h.burns.length >= h.burnsBefore[si];
  const flopUnbet = n === 3 && h.betting.street === 'flop' && h.betting.lastActor === null;
  const ruledNow = ruledPremature(d, h);
  const ruled = ruledNow?.street === STREETS[si] ? ruledNow : null;
  if (ruled?.takenBack) {
    setRole(d, h, e.uid, 'stub'); // the dealer kept pitching the street the procedure takes back
    return;
  }
  // The seen card was burned and the dealer turned another before the player acted: judged anew.
  if (ruled && judging(d)) return prematureCard(d, h, e, si, batch, ruled.cards);
  if (flopUnbet && boardMode(d) === 'burn-on-flop') {
    // FLOP_SECOND_BURN_TO_FLOP with the flop already out: its last card is the burn for the turn.
    verdict(d, 'BURN_ON_FLOP_SETTLED');
    return toBurn(d, h, e.uid);
  }
  if (judging(d) && flopUnbet && !burnOut && canBet(h)) {
    // The fourth card is identifiable when it came alone, after the flop's three.
    const cycle = newCards(h, batch, 'board', e);
    const identifiable = cycle.length === 1;
    const facts: IncidentFacts = {
      incident: 'FLOP_FOUR_CARDS',
      identifiable,
      burnIdentifiable: h.burns.length >= h.burnsBefore[0],
    };
    const ruling = raise(d, facts, e.seq, [], identifiable ? [refOf(h, e.uid)] : cycle);
    if (ruling === 'FLOP_FOURTH_TO_BURN') return toBurn(d, h, e.uid);
    if (ruling === 'FLOP_SCRAMBLE') verdict(d, 'SCRAMBLE_RULED');
  } else if (judging(d) && first && premature(h, si)) {
    return prematureCard(d, h, e, si, batch);
  } else if (judging(d) && first && !burnOut) {
    const cycle = newCards(h, batch, 'board', e);
    const identifiable = si > 0 || cycle.length === 1;
    const facts = noBurnFacts(si, identifiable, cycle.length);
    const named = identifiable ? [refOf(h, e.uid)] : cycle;
    if (facts.incident === 'FLOP_NO_BURN' && d.ctx.readersDown.length > 0) {
      // A burn laid while a reader is down is read once it is back: the flop's burn is judged then.
      h.flopBurnDue = { at: e.seq, named, identifiable, actions: h.betting.actions.length };
    } else {
      const ruling = raise(d, facts, e.seq, [], named);
      if (ruling === 'FIRST_TO_BURN') return toBurn(d, h, e.uid);
      if (ruling === 'FLOP_SCRAMBLE') verdict(d, 'SCRAMBLE_RULED');
    }
  }
  changing(d, h, 'board').push(e.uid);
  syncRound(d, h);
}

/**
 * A street's first card with no burn before it. Four flop cards in one cycle and no burn are a flop of
 * four: the burn is among them, if it was dealt at all.
 */
function noBurnFacts(si: 0 | 1 | 2, identifiable: boolean, inCycle: number): IncidentFacts {
  if (si === 0 && inCycle > STREET_CARDS[0]) {
    return { incident: 'FLOP_FOUR_CARDS', identifiable: false, burnIdentifiable: false };
  }
  return { incident: (['FLOP_NO_BURN', 'TURN_NO_BURN', 'RIVER_NO_BURN'] as const)[si], identifiable };
}

/**
 * The flop's burn, left to judge by a reader gap (`flopBurnDue`), once every reader is back: a burn
 * read since was out. Any action made since the flop's first card counts, a check or a fold too.
 */
export function judgeFlopBurn(d: Draft, h: Hand): void {
  const due = h.flopBurnDue;
  if (!due || d.ctx.readersDown.length > 0) return;
  h.flopBurnDue = null;
  if (h.burns.length >= h.burnsBefore[0]) return;
  const facts: IncidentFacts = {
    incident: 'FLOP_NO_BURN',
    identifiable: due.identifiable,
    actionSinceFirstFlopCard: h.betting.actions.length > due.actions,
  };
  const ruling = raise(d, facts, due.at, [], due.named);
  const first = h.board[0];
  if (ruling === 'CONTINUE') shiftBurns(d, h, 1, -1); // the flop stands: the turn needs one burn only
  if (ruling === 'FLOP_SCRAMBLE') verdict(d, 'SCRAMBLE_RULED');
  if (ruling === 'FIRST_TO_BURN' && first !== undefined) {
    remove(changing(d, h, 'board'), first);
    toBurn(d, h, first);
    syncRound(d, h);
  }
}

/** A board card becomes a burn card by ruling; its physical move to the burn spot is expected. */
function toBurn(d: Draft, h: Hand, uid: string): void {
  changing(d, h, 'burns').push(uid);
  setRole(d, h, uid, 'burn', { expected: 'burn' });
}

const PREVIOUS: Record<0 | 1 | 2, BettingStreet> = { 0: 'preflop', 1: 'flop', 2: 'turn' };

/**
 * A turn or river card arriving now is premature whatever else its antenna cycle holds: the round
 * before it is open and its burn already judged (DESIGN.md "Real time"). A flop card waits for its
 * cycle: the flop cards out with it are named, and under french-casino a second one changes the ruling.
 */
export function prematureStreetCard(d: Draft, h: Hand): boolean {
  const n = h.board.length;
  if ((n !== 3 && n !== 4) || boardMode(d) !== 'as-dealt') return false;
  const si = streetIndex(n);
  return h.burns.length >= h.burnsBefore[si] && premature(h, si);
}

/** A board card is premature when the previous street's betting round is still open. */
function premature(h: Hand, si: 0 | 1 | 2): boolean {
  return h.betting.street === PREVIOUS[si] && !roundClosed(h.betting) && canBet(h);
}

function prematureCard(
  d: Draft,
  h: Hand,
  e: CardSeen,
  si: 0 | 1 | 2,
  batch: readonly CardSeen[],
  seen: readonly string[] = [],
): void {
  const waiting = pending(h.betting);
  // Board cards of the same antenna cycle not judged yet are out too.
  const out = batch.filter((c) => c.zone === 'board' && h.cards[c.uid] === undefined);
  const burnIdentifiable = h.burns.length >= h.burnsBefore[si];
  const cardsOut = seen.length + 1 + out.length;
  const facts: IncidentFacts = {
    incident: (['PREMATURE_FLOP', 'PREMATURE_TURN', 'PREMATURE_RIVER'] as const)[si],
    burnIdentifiable,
    pending: waiting,
    actedAfterPending: waiting.length === 1 && h.betting.passed.includes(waiting[0] as number),
    cardsOut,
    // No burn out and one card more than the street holds: the burn was laid among them.
    burnAmongPremature: !burnIdentifiable && cardsOut > STREET_CARDS[si],
  };
  const named = [
    ...seen.map((uid) => refOf(h, uid)),
    refOf(h, e.uid),
    ...out.map(({ uid, face, deck }) => ({ uid, face, deck })),
  ];
  const ruling = raise(d, facts, e.seq, waiting, named);
  const street = STREETS[si];
  const cards = [...seen, e.uid];
  switch (ruling) {
    case 'PREMATURE_RESHUFFLE_NO_BURN':
      // The street is dealt again without burning, whether or not its burn was out.
      shiftBurns(d, h, si, Math.min(0, h.burns.length - h.burnsBefore[si]));
      setRole(d, h, e.uid, 'stub');
      h.premature = { street, cards, takenBack: true, extraBurns: 0 };
      verdict(d, 'PREMATURE_RULED');
      return;
    case 'PREMATURE_RESHUFFLE_WITH_BURN':
      setRole(d, h, e.uid, 'stub');
      h.premature = { street, cards, takenBack: true, extraBurns: 0 };
      verdict(d, 'PREMATURE_RULED');
      return;
    case 'TURN_SET_ASIDE':
      setRole(d, h, e.uid, 'stub');
      h.premature = { street, cards, takenBack: true, extraBurns: 0 };
      verdict(d, 'PREMATURE_RULED');
      // A new burn and turn come after flop betting; the river then comes without a burn.
      changing(d, h, 'burnsBefore')[1] = h.burns.length + 1;
      changing(d, h, 'burnsBefore')[2] = h.burns.length + 1;
      return;
    case 'BURN_AND_REPLACE': {
      // The seen card is burned: it is the street's burn when none was out, else one more.
      const extra = burnIdentifiable ? 1 : 0;
      toBurn(d, h, e.uid);
      shiftBurns(d, h, si, extra);
      const before = ruledPremature(d, h)?.extraBurns ?? 0;
      h.premature = { street, cards, takenBack: false, extraBurns: before + extra };
      verdict(d, 'PREMATURE_RULED');
      return;
    }
    case 'SKIPPED_PLAYER_FOLDS':
      // Play goes on without restoring the board: cards ruled burned before stay on it.
      for (const uid of seen) {
        remove(changing(d, h, 'burns'), uid);
        changing(d, h, 'board').push(uid);
        setRole(d, h, uid, 'board', { expected: null });
      }
      shiftBurns(d, h, si, -(ruledPremature(d, h)?.extraBurns ?? 0));
      killSeat(d, h, waiting[0] as number);
      settleBoard(d, h);
      break;
  }
  changing(d, h, 'board').push(e.uid);
  syncRound(d, h);
}

/** Burns needed before this street and the next ones move by `n` (a seen card burned, or put back). */
function shiftBurns(d: Draft, h: Hand, si: number, n: number): void {
  const before = changing(d, h, 'burnsBefore');
  for (let i = si; i < 3; i++) before[i as 0 | 1 | 2] += n;
}

const ROUND_OF: readonly BettingStreet[] = ['preflop', 'preflop', 'preflop', 'flop', 'turn', 'river'];
const ORDER: readonly BettingStreet[] = ['preflop', 'flop', 'turn', 'river'];

/**
 * Keeps the betting round in step with the board: a completed street opens its round; a card
 * taken off the board before anyone acted on the new street gives the previous round back.
 */
export function syncRound(d: Draft, h: Hand): void {
  const street = ROUND_OF[Math.min(h.board.length, 5)] as BettingStreet;
  const wanted = ORDER.indexOf(street);
  const current = ORDER.indexOf(h.betting.street);
  if (wanted > current) {
    // Every closed round stays in the hand for the pots, even when one event opens two streets at once.
    h.rounds = [...(h.rounds ?? []), h.betting];
    h.previousRound = h.betting;
    h.betting = nextRound(h.betting, street, postflopOrder(h.players, h.button));
  } else if (wanted < current && h.betting.lastActor === null && h.previousRound?.street === street) {
    h.betting = { ...h.previousRound, folded: h.betting.folded };
    h.previousRound = null;
    h.rounds = (h.rounds ?? []).slice(0, -1);
  }
  riverClosed(d, h);
}

/** The river is out and its round closed, or nobody can bet any more (an all-in run-out): cards are shown down. */
export function riverClosed(d: Draft, h: Hand): void {
  if (h.board.length >= 5 && roundOver(h.betting)) verdict(d, 'RIVER_CLOSED');
}

/**
 * The floor accepted the board and burns as they lie: each street still to come needs its own burn,
 * except the next one when its burn is already out.
 */
export function rebaseBurns(d: Draft, h: Hand): void {
  const next = h.board.length === 0 ? 0 : h.board.length <= 3 ? 1 : h.board.length - 2;
  if (next > 2) return;
  const burnOut = h.burns.length >= h.burnsBefore[next as 0 | 1 | 2];
  const before = changing(d, h, 'burnsBefore');
  for (let i = next; i < 3; i++) {
    before[i as 0 | 1 | 2] = h.burns.length + i - next + (burnOut ? 0 : 1);
  }
}

/** During a floor's scramble, board and burn are whatever the floor lays out. */
function rescramble(d: Draft, h: Hand, e: CardSeen): void {
  remove(changing(d, h, 'board'), e.uid);
  remove(changing(d, h, 'burns'), e.uid);
  changing(d, h, e.zone === 'board' ? 'board' : 'burns').push(e.uid);
  setRole(d, h, e.uid, e.zone === 'board' ? 'board' : 'burn');
  syncRound(d, h);
}
