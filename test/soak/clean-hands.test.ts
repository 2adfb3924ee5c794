import { describe, expect, it } from 'vitest';
import {
  describeHand,
  evaluate,
  generateSession,
  generateSessionDetailed,
  type HandInfo,
  type HandStartBody,
  handAt,
  handScenario,
  outcomeLabel,
  type ScenarioEvent,
  type Session,
} from './clean-hands.js';

// Self-tests of the generator: a replay written here, again from the rules, checks every hand it makes.

const SESSIONS = 100;
const HANDS = 20; // 2,000 hands
const sessions: Session[] = Array.from({ length: SESSIONS }, (_, i) =>
  generateSessionDetailed(1000 + i, HANDS),
);

const EVENT_KEYS = new Set([
  'hand.start',
  'card',
  'card.seen',
  'gone',
  'card.gone',
  'shuffler',
  'button',
  'chips',
  'action',
  'dealer',
  'device',
  'seat',
]);
const STREET_CARDS = [0, 4, 6, 8];
const BOARD_ORDER = ['burn', 'board', 'board', 'board', 'burn', 'board', 'burn', 'board'];
const WINDOW_MS = 300;

function keyOf(e: ScenarioEvent): string {
  return Object.keys(e).find((k) => k !== 't') ?? '?';
}

function get<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`no element ${i}`);
  return x;
}

/** Seats after `from`, clockwise, `from` last. */
function around(from: number, seats: number): number[] {
  return Array.from({ length: seats }, (_, i) => ((from + i) % seats) + 1);
}

function nextPlayer(from: number, players: readonly number[], seats: number): number {
  const p = around(from, seats).find((s) => players.includes(s));
  if (p === undefined) throw new Error('no player');
  return p;
}

/** Seats strictly between `a` and `b` going clockwise. */
function between(a: number, b: number, seats: number): number[] {
  const out: number[] = [];
  for (const s of around(a, seats)) {
    if (s === b) break;
    out.push(s);
  }
  return out;
}

interface Arrival {
  zone: string;
  t: number;
  i: number;
}

/**
 * Listed arrivals against the true order: equal, except pairs of successive events less than 300 ms
 * apart reported in swapped order.
 */
function matchOrder(actual: readonly Arrival[], expected: readonly string[]): string | null {
  if (actual.length !== expected.length) return `${actual.length} cards where ${expected.length} were due`;
  for (let i = 0; i < actual.length; i++) {
    const a = get(actual, i);
    if (a.zone === expected[i]) continue;
    const b = actual[i + 1];
    if (
      b &&
      b.zone === expected[i] &&
      a.zone === expected[i + 1] &&
      b.i === a.i + 1 &&
      b.t - a.t < WINDOW_MS
    ) {
      i++;
      continue;
    }
    return `card ${i + 1} (#${a.i}) went to ${a.zone} where ${expected[i]} was due`;
  }
  return null;
}

/** Replays one hand from its events, with only the starting stacks taken from the generator. */
class HandReplay {
  readonly problems: string[] = [];
  readonly order: number[];
  readonly button: number;
  readonly sb: number | null;
  readonly bb: number;
  readonly players: number[];
  private readonly deck: string;
  private readonly bbAmt: number;
  private readonly stack = new Map<number, number>();
  private readonly committed = new Map<number, number>();
  private readonly folded = new Set<number>();
  private readonly allIn = new Set<number>();
  private readonly acted = new Set<number>();
  private readonly holes = new Map<number, string[]>();
  private readonly zoneOf = new Map<string, string>();
  private readonly lifted = new Set<string>();
  private readonly hole: Arrival[] = [];
  private readonly board: Arrival[] = [];
  private current: number;
  private minRaise: number;
  private street = 0;
  private turn = 0;
  private closed = false;
  private noMore = -1; // street after which no more betting was possible
  private won = false;
  private voluntary = false;
  private actions = 0;
  private ended = false;
  private collected: number;
  private broken = false;
  // The showdown: who raised last in the round being bet, and in the last round that was bet.
  private raiser: number | null = null;
  private firstToShow: number | null = null;
  /** Every hand goes face up for an all-in (ALL_IN_SHOWDOWN), before the cards still to come. */
  private faceUp = false;
  /** Seats still in, in the order they tabled or mucked unseen; the board's size at each. */
  private readonly shows: { seat: number; tabled: boolean; board: number }[] = [];
  private pushed = false;

  constructor(
    start: Extract<ScenarioEvent, { 'hand.start': unknown }>['hand.start'],
    private readonly info: HandInfo,
    seats: number,
    private readonly profile: string,
  ) {
    this.players = start.players;
    this.button = start.button;
    this.deck = start.deck;
    this.order = around(start.button, seats).filter((s) => start.players.includes(s));
    const heads = this.order.length === 2;
    const defSb = heads ? start.button : get(this.order, 0);
    const defBb = heads ? get(this.order, 0) : get(this.order, 1);
    this.sb = start.sb === undefined ? defSb : start.sb;
    this.bb = start.bb ?? defBb;
    if ((start.sb !== undefined || start.bb !== undefined) && this.sb === defSb && this.bb === defBb)
      this.fail('sb/bb given although they are the default');
    if (heads && (this.sb !== start.button || !this.players.includes(start.button)))
      this.fail('heads-up: the button must be a player posting the small blind');
    if (!heads) {
      const sbSeat = this.sb ?? null;
      const upTo = sbSeat ?? this.bb;
      const early = between(start.button, upTo, seats).filter((s) => this.players.includes(s));
      if (early.length > 0) this.fail(`players ${early} between the button and the blinds`);
      if (sbSeat !== null && between(sbSeat, this.bb, seats).some((s) => this.players.includes(s)))
        this.fail('a player between the blinds');
    }
    const [sbAmt, bbAmt] = start.blinds;
    this.bbAmt = bbAmt;
    this.current = bbAmt;
    this.minRaise = bbAmt;
    const ante = start.ante ?? 0;
    this.collected = ante * this.players.length;
    for (const seat of this.players) {
      const s = info.stacks[seat];
      if (s === undefined) {
        this.fail(`no stack for seat ${seat}`);
        continue;
      }
      const blind = seat === this.bb ? bbAmt : seat === this.sb ? sbAmt : 0;
      if (s <= ante + blind) this.fail(`seat ${seat} all-in on the ante/blind (${s})`);
      this.stack.set(seat, s - ante - blind);
      this.committed.set(seat, blind);
      this.holes.set(seat, []);
    }
    this.turn = (this.order.indexOf(this.bb) + 1) % this.order.length;
  }

  fail(msg: string, at?: number): void {
    if (this.broken) return;
    this.problems.push(at === undefined ? msg : `#${at}: ${msg}`);
    this.broken = true; // one problem per hand: the rest would only cascade
  }

  private cm(seat: number): number {
    return this.committed.get(seat) ?? 0;
  }

  private live(): number[] {
    return this.order.filter((s) => !this.folded.has(s));
  }

  private canAct(): number[] {
    return this.live().filter((s) => !this.allIn.has(s));
  }

  private nextActor(): number | undefined {
    for (let k = 0; k < this.order.length; k++) {
      const s = get(this.order, (this.turn + k) % this.order.length);
      if (!this.folded.has(s) && !this.allIn.has(s) && (!this.acted.has(s) || this.cm(s) < this.current))
        return s;
    }
    return undefined;
  }

  card(zone: string, code: string, t: number, i: number): void {
    if (this.ended) return this.fail('card after hand-end', i);
    const pattern = this.deck === 'A' ? /^[2-9TJQKA][shdc]$/ : /^B:[2-9TJQKA][shdc]$/;
    if (!pattern.test(code)) return this.fail(`card ${code} is not a deck ${this.deck} card`, i);
    const was = this.zoneOf.get(code);
    if (zone === 'muck') {
      if (was === 'muck') return;
      const seat = was?.startsWith('seat:') ? Number(was.slice(5)) : null;
      if (seat === null) return this.fail(`${code} to the muck from ${was}`, i);
      if (!this.folded.has(seat)) this.showdownMuck(seat, i);
      this.zoneOf.set(code, 'muck');
      this.lifted.delete(code);
      return;
    }
    if (was !== undefined) {
      if (was !== zone) return this.fail(`${code} seen at ${zone} while at ${was}`, i);
      this.lifted.delete(code); // a repeated read, or the end of a peek
      return;
    }
    this.zoneOf.set(code, zone);
    if (zone.startsWith('seat:')) {
      const seat = Number(zone.slice(5));
      const h = this.holes.get(seat);
      if (!h) return this.fail(`card to seat ${seat}, not a player`, i);
      if (this.actions > 0 || this.board.length > 0) return this.fail('hole card after the deal', i);
      h.push(code);
      if (h.length > 2) return this.fail(`third card to seat ${seat}`, i);
      this.hole.push({ zone, t, i });
      return;
    }
    if (zone !== 'board' && zone !== 'burn') return this.fail(`unknown zone ${zone}`, i);
    if (this.won) return this.fail('board card after the hand was won', i);
    if (!this.closed) return this.fail(`${zone} card while the ${this.street} betting round is open`, i);
    if (this.hole.length !== 2 * this.players.length) return this.fail('board before the deal ended', i);
    this.board.push({ zone, t, i });
    if (this.board.length > 8) return this.fail('more than 8 burn/board cards', i);
    if (this.board.length === STREET_CARDS[this.street + 1]) {
      this.street++;
      if (this.noMore < 0) {
        this.closed = false;
        this.current = 0;
        this.minRaise = this.bbAmt;
        this.acted.clear();
        for (const s of this.players) this.committed.set(s, 0);
        this.turn = 0; // first player after the button
        this.raiser = null;
      }
    }
  }

  gone(zone: string, code: string, i: number): void {
    if (this.ended) return this.fail('gone after hand-end', i);
    if (this.zoneOf.get(code) !== zone || !zone.startsWith('seat:'))
      return this.fail(`${code} gone from ${zone}`, i);
    this.lifted.add(code);
  }

  action(a: { seat: number; act: string; amount?: number }, i: number): void {
    if (this.ended) return this.fail('action after hand-end', i);
    if (this.won || this.noMore >= 0) return this.fail('action with no betting possible', i);
    if (this.hole.length !== 2 * this.players.length) return this.fail('action before the deal ended', i);
    if (this.board.length !== STREET_CARDS[this.street])
      return this.fail('action before the street was out', i);
    if (this.closed) return this.fail('action after the round closed', i);
    const due = this.nextActor();
    if (a.seat !== due) return this.fail(`seat ${a.seat} acted, seat ${due} was due`, i);
    const seat = a.seat;
    const have = this.stack.get(seat) ?? 0;
    const before = this.cm(seat);
    const toCall = this.current - before;
    const mayRaise = !this.acted.has(seat) && this.canAct().some((s) => s !== seat);
    const amount = a.amount;
    this.actions++;
    if (a.act === 'fold' || a.act === 'check') {
      if (amount !== undefined) return this.fail(`${a.act} with an amount`, i);
      if (a.act === 'fold' && toCall === 0) return this.fail('fold where a check was free', i);
      if (a.act === 'check' && toCall !== 0) return this.fail('check facing a bet', i);
    } else {
      if (amount === undefined) return this.fail(`${a.act} without an amount`, i);
      if (amount < before) return this.fail(`round total down from ${before} to ${amount}`, i);
      const add = amount - before;
      if (add > have) return this.fail(`puts in ${add} with ${have} behind`, i);
      if (a.act === 'allin' ? add !== have : add === have)
        return this.fail(`${a.act} of ${add} with ${have}`, i);
      if (a.act === 'call' && (toCall === 0 || amount !== this.current)) return this.fail('bad call', i);
      if (a.act === 'bet' && (this.current !== 0 || amount < this.bbAmt || !mayRaise))
        return this.fail('bad bet', i);
      if (a.act === 'raise' && (this.current === 0 || amount < this.current + this.minRaise || !mayRaise))
        return this.fail(`bad raise to ${amount} (current ${this.current}, min raise ${this.minRaise})`, i);
      if (a.act === 'allin' && amount > this.current && !mayRaise)
        return this.fail('all-in raise without the right', i);
      if (!['call', 'bet', 'raise', 'allin'].includes(a.act)) return this.fail(`unknown act ${a.act}`, i);
      if (amount > this.current) this.raiser = seat;
      this.stack.set(seat, have - add);
      this.committed.set(seat, amount);
      if (have === add) this.allIn.add(seat);
      if (this.street === 0) this.voluntary = true;
      if (amount > this.current) {
        if (amount - this.current >= this.minRaise) {
          this.minRaise = amount - this.current;
          this.acted.clear();
        }
        this.current = amount;
      }
    }
    if (a.act === 'fold') this.folded.add(seat);
    this.acted.add(seat);
    this.turn = (this.order.indexOf(seat) + 1) % this.order.length;
    if (this.live().length === 1) this.won = true;
    if (this.won || this.nextActor() === undefined) this.closeRound();
  }

  private closeRound(): void {
    this.closed = true;
    const bets = this.players.map((s) => this.cm(s)).sort((x, y) => y - x);
    const back = get(bets, 0) - (bets[1] ?? 0);
    this.collected += bets.reduce((n, x) => n + x, 0) - back;
    if (!this.won && this.canAct().length < 2) this.noMore = this.street;
    if (this.won) return;
    this.firstToShow = this.raiser;
    if (this.allInShowdown()) this.faceUp = true;
  }

  /**
   * RULINGS.md's ALL_IN_SHOWDOWN: two or more all-in and no more betting; tda-2024 (#16): one all-in,
   * and no more betting or the river's betting over.
   */
  private allInShowdown(): boolean {
    const allIn = this.live().filter((s) => this.allIn.has(s)).length;
    const over = this.noMore >= 0;
    if (this.profile === 'tda-2024') return allIn > 0 && (over || this.street === 3);
    return allIn > 1 && over;
  }

  /** No more betting: the hand goes to the showdown. */
  private bettingOver(): boolean {
    return !this.won && (this.noMore >= 0 || (this.street === 3 && this.closed));
  }

  /** Seats still in that neither tabled nor mucked. */
  private undecided(): number[] {
    return this.live().filter((s) => !this.shows.some((x) => x.seat === s));
  }

  private shown(zone: string | undefined, i: number): void {
    const seat = Number(zone?.slice(5));
    if (!zone?.startsWith('seat:') || !this.live().includes(seat)) return this.fail(`shown ${zone}`, i);
    if (!this.bettingOver()) return this.fail(`seat ${seat} shown with betting to come`, i);
    if (!this.undecided().includes(seat)) return this.fail(`seat ${seat} shown twice`, i);
    this.shows.push({ seat, tabled: true, board: this.board.length });
  }

  /**
   * A hand still in reaches the muck: unseen, only at its turn to show, beaten by a hand already tabled
   * (never in a face-up all-in); once tabled, only when every hand is decided, and a winner's only after
   * the push.
   */
  private showdownMuck(seat: number, i: number): void {
    const mine = this.shows.find((x) => x.seat === seat);
    if (mine?.tabled) {
      if (this.undecided().length > 0) return this.fail(`tabled seat ${seat} mucked mid-showdown`, i);
      if (this.info.winners.includes(seat) && !this.pushed)
        return this.fail(`winner ${seat} mucked before the push`, i);
      return;
    }
    if (mine) return; // its second card
    if (this.won) {
      if (!this.pushed) this.fail(`winner ${seat} mucked before the push`, i);
      return;
    }
    if (!this.bettingOver() || this.faceUp) return this.fail(`seat ${seat} mucked, still in`, i);
    if (!this.shows.some((x) => x.tabled))
      return this.fail(`seat ${seat} mucked before any hand was shown`, i);
    this.shows.push({ seat, tabled: false, board: this.board.length });
  }

  /** The show order (RULINGS.md): the last to bet or raise in the last round bet first, else the first left of the button. */
  private showOrder(): number[] {
    const live = this.live();
    const first = Math.max(0, live.indexOf(this.firstToShow ?? -1));
    return [...live.slice(first), ...live.slice(0, first)];
  }

  /** How the hands in were shown: all tabled for an all-in before the next card, else in the show order. */
  private checkShowdown(): void {
    const left = this.undecided();
    if (left.length > 0) return this.fail(`seats ${left} neither tabled nor mucked`);
    const seats = this.shows.map((x) => x.seat);
    if (this.faceUp) {
      const boardThen = STREET_CARDS[this.noMore] ?? 8; // where the betting stopped
      if (this.shows.some((x) => !x.tabled || x.board !== boardThen))
        this.fail(`face up: ${JSON.stringify(this.shows)}, all tabled with ${boardThen} board cards due`);
    } else if (JSON.stringify(seats) !== JSON.stringify(this.showOrder()) || this.board.length !== 8)
      this.fail(`shown in the order [${seats}], the show order is [${this.showOrder()}]`);
  }

  chips(zone: string, amount: number, i: number): void {
    if (zone === 'pot') {
      if (amount !== 0 && amount !== this.collected)
        this.fail(`pot ${amount}, ${this.collected} collected`, i);
      if (amount === 0 && this.decided()) this.pushed = true;
      return;
    }
    const seat = Number(zone.slice(4));
    if (!zone.startsWith('bet:') || !this.players.includes(seat)) return this.fail(`chips on ${zone}`, i);
    if (amount !== 0 && amount !== this.cm(seat))
      this.fail(`${zone} reads ${amount}, ${this.cm(seat)} bet`, i);
  }

  dealer(input: string, i: number, zone?: string): void {
    if (input === 'deal-done') {
      if (this.hole.length !== 2 * this.players.length || this.actions > 0)
        this.fail('deal-done out of place', i);
    } else if (input === 'hand-end') {
      if (!this.complete()) this.fail('hand-end before the hand was over', i);
      this.ended = true;
    } else if (input === 'shown') this.shown(zone, i);
    else if (input === 'pushed') {
      if (!this.decided()) this.fail('pushed before every pot was decided', i);
      this.pushed = true;
    } else this.fail(`dealer input ${input}`, i);
  }

  /** Every pot has its winner: won by a fold, or the board out and every hand in tabled or mucked. */
  private decided(): boolean {
    return this.won || (this.complete() && this.undecided().length === 0);
  }

  private complete(): boolean {
    return this.won || (this.board.length === 8 && this.closed);
  }

  /** Checks at the end of the hand; returns how it ended. */
  finish(): string {
    if (!this.complete()) this.fail('hand not finished');
    else if (!this.won) this.checkShowdown();
    for (const [seat, h] of this.holes) if (h.length !== 2) this.fail(`seat ${seat} got ${h.length} cards`);
    const dealOrder = [...this.order, ...this.order].map((s) => `seat:${s}`);
    const holeProblem = matchOrder(this.hole, dealOrder);
    if (holeProblem) this.fail(`deal order: ${holeProblem}`);
    const boardProblem = matchOrder(this.board, BOARD_ORDER.slice(0, this.board.length));
    if (boardProblem) this.fail(`burn/board order: ${boardProblem}`);
    for (const code of this.lifted) this.fail(`${code} lifted and never read again`);
    const name = ['preflop', 'flop', 'turn', 'river'];
    if (this.won) return this.street === 0 && !this.voluntary ? 'walk' : `fold:${name[this.street]}`;
    if (this.noMore >= 0) return `allin:${name[this.noMore]}`;
    return 'showdown';
  }
}

/** Replays a whole session; returns the problems found, each naming its hand. */
/** The hand an event starts: a `hand.start`'s, or the one the generator meant a `next-hand` to start. */
function startOf(session: Session, e: ScenarioEvent): HandStartBody | undefined {
  if ('hand.start' in e) return e['hand.start'];
  return 'dealer' in e ? session.started.get(e.dealer) : undefined;
}

function checkSession(session: Session): string[] {
  const { events } = session.scenario;
  const seats = session.scenario.table.seats;
  const problems: string[] = [];
  let prevT = Number.NEGATIVE_INFINITY;
  for (const [i, e] of events.entries()) {
    const keys = Object.keys(e);
    if (keys.length !== 2 || !keys.includes('t') || !EVENT_KEYS.has(keyOf(e)))
      problems.push(`#${i}: keys ${keys.join(',')}`);
    if (!Number.isInteger(e.t) || e.t < prevT) problems.push(`#${i}: t ${e.t} after ${prevT}`);
    prevT = e.t;
  }
  let prev: {
    info: HandInfo;
    button: number;
    bb: number;
    sbSeat: number;
    players: number[];
    deck: string;
  } | null = null;
  let expectFirst = 0;
  for (const info of session.hands) {
    const where = `hand ${info.index}`;
    if (info.first !== expectFirst)
      problems.push(`${where}: starts at #${info.first}, expected #${expectFirst}`);
    expectFirst = info.last + 1;
    let replay: HandReplay | null = null;
    let sbSeat = 0; // the small blind's seat, even when dead: the previous big blind's
    let firstCard = true;
    for (let i = info.first; i <= info.last; i++) {
      const e = get(events, i);
      const start = startOf(session, e);
      if (start) {
        if (replay) problems.push(`${where} #${i}: second hand.start`);
        replay = new HandReplay(start, info, seats, session.config.profile);
        sbSeat = replay.sb ?? prev?.bb ?? replay.bb;
        if (prev && start.deck === prev.deck) replay.fail('deck did not alternate');
        if (prev) {
          // Dead-button rule: the big blind advances one player; heads-up the button posts the small blind.
          const heads = start.players.length === 2;
          // french-casino has no written button rule: the button moves to the next player.
          const moving = session.config.profile === 'french-casino' && !heads;
          const movedTo = nextPlayer(prev.button, start.players, seats);
          const afterButton = nextPlayer(movedTo, start.players, seats);
          const bb = moving
            ? nextPlayer(afterButton, start.players, seats)
            : nextPlayer(prev.bb, start.players, seats);
          const sb = moving
            ? afterButton
            : heads
              ? start.players.find((s) => s !== bb)
              : start.players.includes(prev.bb)
                ? prev.bb
                : null;
          const button = moving ? movedTo : heads ? sb : prev.sbSeat;
          if (replay.bb !== bb || replay.sb !== sb || replay.button !== button)
            replay.fail(
              `button/sb/bb ${replay.button}/${replay.sb}/${replay.bb}, the rule gives ${button}/${sb}/${bb}`,
            );
          const fresh = start.players.filter((s) => !prev?.players.includes(s));
          const allowed = between(replay.bb, replay.button, seats);
          if (fresh.some((s) => !allowed.includes(s)))
            replay.fail(`new player(s) ${fresh} dealt in out of place`);
        }
        continue;
      }
      if (!replay) {
        if ('seat' in e) continue; // the dealer marks seats between hands
        if ('shuffler' in e) {
          const deck = events
            .slice(i)
            .map((x) => startOf(session, x))
            .find((x) => x !== undefined)?.deck;
          if (e.shuffler.deck !== deck || e.shuffler.count !== 52 || e.shuffler.state !== 'ready')
            problems.push(`${where} #${i}: shuffler ${JSON.stringify(e.shuffler)} before deck ${deck}`);
        } else problems.push(`${where} #${i}: ${keyOf(e)} before hand.start`);
        continue;
      }
      if ('card' in e) {
        if (firstCard && session.config.puck) {
          const puck = events.slice(info.first, i).find((x) => 'button' in x);
          if (!puck) replay.fail('no puck read before the first card', i);
        }
        firstCard = false;
        replay.card(e.card.zone, e.card.card, e.t, i);
      } else if ('gone' in e) replay.gone(e.gone.zone, e.gone.card, i);
      else if ('action' in e) replay.action({ amount: session.unkeyed.get(e.action), ...e.action }, i);
      else if ('chips' in e) replay.chips(e.chips.zone, e.chips.amount, i);
      else if ('dealer' in e) replay.dealer(e.dealer.input, i, e.dealer.zone);
      else if ('button' in e) {
        if (e.button.seat !== replay.button) replay.fail(`puck on ${e.button.seat}`, i);
      } else replay.fail(`unexpected ${keyOf(e)}`, i);
    }
    if (!replay) {
      problems.push(`${where}: no hand.start`);
      continue;
    }
    const ended = replay.finish();
    if (ended !== outcomeLabel(info.outcome))
      replay.fail(`ended ${ended}, generator says ${outcomeLabel(info.outcome)}`);
    for (const s of info.swaps) {
      const a = get(events, s);
      const b = get(events, s + 1);
      if (!('card' in a) || !('card' in b) || b.t - a.t >= WINDOW_MS)
        replay.fail(`swap at #${s} not a close pair`);
    }
    for (const p of replay.problems) problems.push(`${where}: ${p}`);
    const deck =
      events
        .slice(info.first)
        .map((x) => startOf(session, x))
        .find((x) => x !== undefined)?.deck ?? '';
    prev = {
      info,
      button: replay.button,
      bb: replay.bb,
      sbSeat,
      players: replay.players,
      deck,
    };
  }
  if (expectFirst !== events.length) problems.push(`events after the last hand: #${expectFirst}`);
  return problems;
}

function report(session: Session, problems: readonly string[]): string {
  const m = problems[0]?.match(/^hand (\d+)/);
  const hand = m ? Number(m[1]) : 0;
  return `${problems.slice(0, 5).join('\n')}\n${describeHand(session, hand)}`;
}

describe('clean-hands generator', () => {
  it('is deterministic for a seed', () => {
    expect(generateSession(42, 5)).toEqual(generateSession(42, 5));
    expect(generateSession(42, 5)).not.toEqual(generateSession(43, 5));
  });

  it('writes scenarios in the DESIGN.md format', () => {
    for (const { scenario } of sessions.slice(0, 10)) {
      expect(Object.keys(scenario).sort()).toEqual(['decks', 'events', 'expect', 'name', 'profile', 'table']);
      expect(['main-event-2014', 'french-casino', 'tda-2007', 'tda-2024']).toContain(scenario.profile);
      expect(scenario.table.seats).toBeGreaterThanOrEqual(2);
      expect(scenario.table.seats).toBeLessThanOrEqual(10);
      expect(scenario.decks).toEqual(['A', 'B']);
      expect(scenario.expect).toEqual([]);
      expect(JSON.parse(JSON.stringify(scenario))).toEqual(scenario);
    }
  });

  it('deals, bets and times every hand cleanly (2,000 hands replayed)', () => {
    for (const session of sessions) {
      const problems = checkSession(session);
      if (problems.length > 0) expect.fail(`seed ${session.seed}:\n${report(session, problems)}`);
    }
  });

  it('catches a broken hand (the replay is not vacuous)', () => {
    const session = generateSessionDetailed(7, 3, { noise: { repeat: 0, peek: 0, swap: 0 } });
    const events = session.scenario.events;
    const broken = structuredClone(session);
    const firstAction = events.findIndex((e) => 'action' in e);
    const burn = events.findIndex((e) => 'card' in e && e.card.zone === 'burn');
    // A flop burned before preflop betting: the burn moves up to just before the first action.
    const moved = get(broken.scenario.events, burn);
    broken.scenario.events.splice(burn, 1);
    broken.scenario.events.splice(firstAction, 0, { ...moved, t: get(events, firstAction).t });
    expect(checkSession(broken).length).toBeGreaterThan(0);
    const swapped = structuredClone(session);
    const h0 = get(session.hands, 0);
    const hole = swapped.scenario.events
      .slice(h0.first, h0.last + 1)
      .filter((e) => 'card' in e && e.card.zone.startsWith('seat:'));
    // The first and the last hole card trade places: a seat skipped, beyond any reordering window.
    const [c1, c2] = [get(hole, 0), get(hole, hole.length - 1)];
    if ('card' in c1 && 'card' in c2) [c1.card, c2.card] = [c2.card, c1.card];
    expect(checkSession(swapped).some((p) => p.includes('deal order'))).toBe(true);
  });

  it('covers the situations a soak test needs', () => {
    const count = new Map<string, number>();
    const bump = (k: string) => count.set(k, (count.get(k) ?? 0) + 1);
    for (const session of sessions) {
      bump(`profile:${session.config.profile}`);
      let prevPlayers: number[] | null = null;
      for (const h of session.hands) {
        bump(outcomeLabel(h.outcome));
        if (h.deadButton) bump('dead button');
        if (h.sb === null) bump('no small blind');
        if (h.players.length === 2) bump('heads-up');
        if (h.players.length >= 9) bump('nine or ten players');
        if (prevPlayers && h.players.some((s) => !prevPlayers?.includes(s))) bump('player joined');
        if (prevPlayers?.some((s) => !h.players.includes(s))) bump('player left');
        prevPlayers = h.players;
        for (const s of h.swaps) {
          const a = get(session.scenario.events, s);
          const b = get(session.scenario.events, s + 1);
          if ('card' in a && 'card' in b && a.card.zone !== b.card.zone)
            bump(`swap ${a.card.zone}/${b.card.zone}`);
        }
        const evs = session.scenario.events.slice(h.first, h.last + 1);
        if (evs.some((e) => 'gone' in e)) bump('peek or gone');
        if (evs.some((e) => 'card' in e && e.card.zone === 'muck')) bump('muck');
        if (evs.some((e) => 'card' in e && e.card.card.startsWith('B:'))) bump('deck B');
        if (evs.some((e) => 'dealer' in e && e.dealer.input === 'deal-done')) bump('deal-done');
        if (!evs.some((e) => 'dealer' in e && e.dealer.input === 'hand-end')) bump('no hand-end');
        if (evs.some((e) => 'action' in e && e.action.act === 'allin')) bump('allin act');
        if (evs.some((e) => 'shuffler' in e)) bump('shuffler');
        if (evs.some((e) => 'button' in e)) bump('puck');
        if (evs.some((e) => 'chips' in e)) bump('chips');
        for (const e of evs) if ('seat' in e) bump(`seat ${e.seat.status}`);
        if (evs.some((e) => 'dealer' in e && e.dealer.input === 'next-hand')) bump('next-hand');
        if (evs.some((e) => 'hand.start' in e && e['hand.start'].ante)) bump('ante');
        if (evs.some((e) => 'dealer' in e && e.dealer.input === 'pushed')) bump('pushed');
        if (h.showdown) bump(h.showdown.faceUp ? 'face up for an all-in' : 'shown in order');
        if (h.showdown?.mucked.length) bump('mucked unseen');
        if (h.unknownAmounts && h.showdown) bump('showdown with an amount unknown');
        for (const a of h.awards) {
          if (a.pot > 0) bump('side pot');
          if (a.winners.length > 1) bump('split pot');
          const shares = Object.values(a.shares);
          if (new Set(shares).size > 1) bump('odd chip');
          if (shares.reduce((n, x) => n + x, 0) < a.amount) bump('raked');
        }
        let current = h.blinds[1];
        let allInBefore = false;
        const burns = new Set<string>();
        for (const e of evs) {
          if ('card' in e && e.card.zone === 'burn' && !burns.has(e.card.card)) {
            burns.add(e.card.card);
            current = 0;
          }
          if (!('action' in e)) continue;
          const { act } = e.action;
          const amount = e.action.amount ?? session.unkeyed.get(e.action);
          if (amount === undefined) continue;
          if (e.action.amount === undefined) {
            bump(`${act} without an amount`);
            if (session.config.chips) bump('amount from the bet zone');
          }
          if (act === 'allin' && amount < current) bump('all-in for less');
          if (act === 'allin' && amount > current && amount - current < h.blinds[1]) bump('incomplete raise');
          if (allInBefore && act !== 'allin' && burns.size > 0) bump('betting beside an all-in');
          if (act === 'allin') allInBefore = true;
          current = Math.max(current, amount);
        }
      }
    }
    const needed = [
      'profile:main-event-2014',
      'profile:french-casino',
      'next-hand',
      'seat in',
      'seat out',
      'seat absent',
      'seat waiting',
      'bet without an amount',
      'raise without an amount',
      'allin without an amount',
      'call without an amount',
      'amount from the bet zone',
      'profile:tda-2007',
      'profile:tda-2024',
      'walk',
      'fold:preflop',
      'fold:flop',
      'fold:turn',
      'fold:river',
      'showdown',
      'allin:preflop',
      'allin:flop',
      'allin:turn',
      'allin:river',
      'dead button',
      'no small blind',
      'heads-up',
      'nine or ten players',
      'player joined',
      'player left',
      'swap burn/board',
      'swap board/burn',
      'peek or gone',
      'muck',
      'deck B',
      'deal-done',
      'no hand-end',
      'allin act',
      'all-in for less',
      'incomplete raise',
      'betting beside an all-in',
      'shuffler',
      'puck',
      'chips',
      'ante',
      'pushed',
      'face up for an all-in',
      'shown in order',
      'mucked unseen',
      'showdown with an amount unknown',
      'side pot',
      'split pot',
      'odd chip',
      'raked',
    ];
    const missing = needed.filter((k) => (count.get(k) ?? 0) < 3);
    expect(missing, JSON.stringify(Object.fromEntries(count))).toEqual([]);
  });

  it('generates 10,000 hands in a couple of seconds', () => {
    const t0 = performance.now();
    let hands = 0;
    for (let seed = 0; hands < 10_000; seed++) {
      generateSession(seed, 20);
      hands += 20;
    }
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('prints a failing hand compactly', () => {
    const session = get(sessions, 0);
    const h = get(session.hands, 1);
    const text = describeHand(session, 1, h.first + 2);
    expect(text).toContain(`seed ${session.seed} hand 1/`);
    const showdown = h.showdown ? 1 : 0;
    expect(text.split('\n')).toHaveLength(3 + h.awards.length + showdown + h.last - h.first + 1);
    expect(text).toContain(`>> #${h.first + 2} t=`);
    expect(handAt(session, h.first)?.index).toBe(1);
    const alone = handScenario(session, 1);
    expect(alone.events).toEqual(session.scenario.events.slice(h.first, h.last + 1));
    expect(alone.profile).toBe(session.scenario.profile);
  });

  it('ranks showdown hands', () => {
    const royal = evaluate(['As', 'Ks', 'Qs', 'Js', 'Ts', '2d', '3c']);
    const quads = evaluate(['9s', '9h', '9d', '9c', 'As', '2d', '3c']);
    const wheel = evaluate(['As', '2h', '3d', '4c', '5s', 'Kd', 'Qc']);
    const six = evaluate(['6s', '2h', '3d', '4c', '5s', 'Kd', 'Qc']);
    const boat = evaluate(['B:Ks', 'B:Kh', 'B:Kd', 'B:2c', 'B:2s', 'B:3d', 'B:3c']);
    const flush = evaluate(['Ah', '9h', '7h', '4h', '2h', 'Kd', 'Kc']);
    expect(royal).toBeGreaterThan(quads);
    expect(quads).toBeGreaterThan(boat);
    expect(boat).toBeGreaterThan(flush);
    expect(six).toBeGreaterThan(wheel);
    expect(evaluate(['As', 'Ad', '7h', '6c', '2h', '3s', '9d'])).toBeGreaterThan(
      evaluate(['Ks', 'Kd', 'Ah', 'Qc', 'Jh', '3s', '9d']),
    );
  });
});
