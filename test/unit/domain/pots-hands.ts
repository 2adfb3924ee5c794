import fc from 'fast-check';
import { applyAction, type Betting, nextRound, openBetting } from '../../../src/domain/betting.js';
import type { BetZoneTotals, HandBets } from '../../../src/domain/contributions.js';
import type { Act } from '../../../src/domain/events.js';
import { defaultBlinds, postflopOrder, preflopOrder } from '../../../src/domain/seats.js';
import type { RefSeat } from '../../reference/pot-calculator.js';

/**
 * Random hands played by poker's betting rules, with the generator's own chip count as the truth:
 * stacks in whole chipUnits, a bet or raise at least the big blind and at least the last full raise, an
 * all-in of any size (a short one does not reopen the raise to those who acted), a call for what is
 * owed or all-in for less. The dealer keys each action into the table machine's betting model, with its
 * amount or (`hide`) a call, bet or raise sometimes without; a bet zone then reports some of the hidden
 * totals.
 */

export interface PlayedHand {
  hand: HandBets;
  button: number;
  chipUnit: number;
  /** What each player put in, as the generator counted it: after each round, the last entry the hand's. */
  truth: RefSeat[][];
  /** Some amount was keyed without being known to the model (and no bet zone told it). */
  hidden: boolean;
}

interface Seat {
  seat: number;
  stack: number;
  /** Chips put in this round. */
  round: number;
  paid: number[];
  folded: boolean;
  allIn: boolean;
  /** Acted since the last full raise: a short all-in does not let it raise again. */
  acted: boolean;
}

/** Choices read off a tape; past its end, always the first (check or call): shrinking plays passively. */
class Tape {
  private at = 0;
  constructor(private readonly values: readonly number[]) {}
  pick(n: number): number {
    return (this.values[this.at++] ?? 0) % n;
  }
}

const STREETS = ['flop', 'turn', 'river'] as const;

/** An action as the dealer keys it, with the amount the generator knows. */
interface Keyed {
  seat: number;
  act: Act;
  amount?: number;
}

export function playedHand(hide: boolean): fc.Arbitrary<PlayedHand> {
  return fc
    .record({
      players: fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 2, maxLength: 6 }),
      button: fc.nat(),
      chipUnit: fc.constantFrom(1, 5, 25),
      sbUnits: fc.integer({ min: 1, max: 2 }),
      anteUnits: fc.integer({ min: 0, max: 1 }),
      stacks: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 6, maxLength: 6 }),
      tape: fc.array(fc.nat({ max: 9999 }), { maxLength: 200, size: 'max' }),
    })
    .map((t) => play({ ...t, players: [...t.players].sort((a, b) => a - b) }, hide));
}

interface Deal {
  players: number[];
  button: number;
  chipUnit: number;
  sbUnits: number;
  anteUnits: number;
  stacks: number[];
  tape: number[];
}

function play(deal: Deal, hide: boolean): PlayedHand {
  const { players, chipUnit } = deal;
  const button = players[deal.button % players.length] as number;
  const { sb, bb } = defaultBlinds(button, players);
  const blinds: [number, number] = [deal.sbUnits * chipUnit, 2 * deal.sbUnits * chipUnit];
  const ante = deal.anteUnits * chipUnit;
  const tape = new Tape(deal.tape);
  const seats = players.map((seat, i): Seat => {
    const blind = seat === sb ? blinds[0] : seat === bb ? blinds[1] : 0;
    const extra = deal.stacks[i] ?? 0;
    // A stack of just the ante is all-in from posting it (never a blind: the model takes a blind whole).
    const stack = blind === 0 && ante > 0 && extra === 0 ? ante : ante + blind + (extra + 1) * chipUnit;
    return {
      seat,
      stack: stack - ante - blind,
      round: blind,
      paid: [],
      folded: false,
      allIn: stack === ante,
      acted: false,
    };
  });
  const game = new Game(seats, blinds[1], chipUnit, tape, hide);
  let b = openBetting(preflopOrder(players, bb), {
    sb,
    bb,
    amounts: blinds,
    allIn: seats.filter((s) => s.allIn).map((s) => s.seat),
  });
  b = game.round(b, blinds[1]);
  const rounds: Betting[] = [b];
  const truth = [game.close(ante)];
  for (const street of STREETS) {
    if (game.inHand() <= 1) break;
    b = nextRound(b, street, postflopOrder(players, button));
    b = game.round(b, 0);
    rounds.push(b);
    truth.push(game.close(ante));
  }
  const betZones: BetZoneTotals = {};
  rounds.forEach((round, r) => {
    for (const [seat, bet] of Object.entries(round.bets)) {
      if (bet !== null || tape.pick(2) === 0) continue;
      const paid = seats.find((s) => s.seat === Number(seat))?.paid[r] as number;
      betZones[round.street] = { ...betZones[round.street], [seat]: paid };
    }
  });
  const hidden = rounds.some((round) =>
    Object.entries(round.bets).some(
      ([seat, bet]) => bet === null && betZones[round.street]?.[Number(seat)] === undefined,
    ),
  );
  return { hand: { players, ante, rounds, betZones }, button, chipUnit, truth, hidden };
}

class Game {
  private bet = 0;
  private raise = 0;

  constructor(
    private readonly seats: Seat[],
    private readonly bigBlind: number,
    private readonly chipUnit: number,
    private readonly tape: Tape,
    private readonly hide: boolean,
  ) {}

  inHand(): number {
    return this.seats.filter((s) => !s.folded).length;
  }

  /** One betting round in the model's action order, until nobody owes an action; then keyed into the model. */
  round(b: Betting, bet: number): Betting {
    this.bet = bet;
    this.raise = this.bigBlind;
    const order = b.order;
    const acts: Keyed[] = [];
    let next = 0;
    for (;;) {
      if (this.inHand() <= 1) break;
      const k = [...order.keys()]
        .map((i) => (next + i) % order.length)
        .find((i) => this.owes(this.seat(order[i] as number)));
      if (k === undefined) break;
      next = k + 1;
      acts.push(this.act(this.seat(order[k] as number)));
    }
    return acts.reduce((m, a, i) => applyAction(m, a.seat, a.act, this.keyed(a, acts.slice(i + 1))), b);
  }

  /** The round is over: what each player put in so far. */
  close(ante: number): RefSeat[] {
    for (const s of this.seats) {
      s.paid.push(s.round);
      s.round = 0;
      s.acted = false;
    }
    return this.seats.map((s) => ({
      seat: s.seat,
      ante,
      total: s.paid.reduce((a, c) => a + c, 0),
      folded: s.folded,
      allIn: s.allIn,
    }));
  }

  private seat(n: number): Seat {
    return this.seats.find((s) => s.seat === n) as Seat;
  }

  private opponentsAble(s: Seat): number {
    return this.seats.filter((o) => o !== s && !o.folded && !o.allIn).length;
  }

  private owes(s: Seat): boolean {
    if (s.folded || s.allIn) return false;
    return s.round < this.bet || (!s.acted && this.opponentsAble(s) > 0);
  }

  private act(s: Seat): Keyed {
    const owed = this.bet - s.round;
    const most = s.round + s.stack;
    const choices: string[] = owed === 0 ? ['check'] : [s.stack > owed ? 'call' : 'allin', 'fold'];
    if (!s.acted && this.opponentsAble(s) > 0 && most > this.bet) {
      if (most > this.bet + this.raise) choices.push('raise');
      choices.push('allin');
    }
    const choice = choices[this.tape.pick(choices.length)];
    s.acted = true;
    switch (choice) {
      case 'check':
        return { seat: s.seat, act: 'check' };
      case 'fold':
        s.folded = true;
        return { seat: s.seat, act: 'fold' };
      case 'call':
        this.put(s, this.bet);
        return { seat: s.seat, act: 'call', amount: this.bet };
      case 'raise': {
        const sizes = (most - this.chipUnit - (this.bet + this.raise)) / this.chipUnit + 1;
        const to = this.bet + this.raise + this.tape.pick(sizes) * this.chipUnit;
        const act = this.bet === 0 ? 'bet' : 'raise';
        this.raiseTo(s, to);
        return { seat: s.seat, act, amount: to };
      }
      default:
        s.allIn = true;
        if (most > this.bet) this.raiseTo(s, most);
        else this.put(s, most);
        return { seat: s.seat, act: 'allin', amount: most };
    }
  }

  private put(s: Seat, to: number): void {
    s.stack -= to - s.round;
    s.round = to;
  }

  /** A raise of at least the last full one reopens the betting to everyone; a short all-in does not. */
  private raiseTo(s: Seat, to: number): void {
    if (to - this.bet >= this.raise) {
      this.raise = to - this.bet;
      for (const o of this.seats) if (o !== s) o.acted = false;
    }
    this.bet = to;
    this.put(s, to);
  }

  /**
   * The amount as keyed: with `hide`, a call, bet or raise is sometimes keyed without it, unless an all-in
   * follows in the round. The model guesses there: it gives the amount a later call reveals to the first
   * all-in or the level keyed without amount before it, even when a later all-in made that raise (a bet
   * without amount, an all-in for 24, a call for 24: the bet is taken for 24), and no pot can be right
   * after a wrong amount.
   */
  private keyed(a: Keyed, after: readonly Keyed[]): number | undefined {
    if (!this.hide || a.act === 'allin' || after.some((b) => b.act === 'allin')) return a.amount;
    return this.tape.pick(3) === 0 ? undefined : a.amount;
  }
}
