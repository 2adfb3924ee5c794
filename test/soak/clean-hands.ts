/**
 * Random CLEAN Texas Hold'em hands for the soak test.
 *
 * Written from DESIGN.md ("Domain events", "Scenario files"), RULINGS.md ("Terms the machine must
 * compute") and the rulebooks, not from the table machine: every hand is dealt and bet legally, so the
 * machine must raise no incident on them. Reader noise stays within what a multiplexed RFID reader does
 * (repeated reads, peeks, swaps of reads less than 300 ms apart). Contested hands end as RULINGS.md "Pots
 * and showdown" has them end: hands tabled in the show order (or all face up for an all-in), beaten hands
 * sometimes mucked unseen, the pots pushed, then the cards to the muck; the awards it expects are worked
 * out here, from the chips it bet, with no code of src/domain.
 */

import { mulberry32 } from '../../simulators/random.js';
import { REFERENCE_CATEGORIES, type ReferenceCategory } from '../reference/evaluator.js';

export const PROFILES = ['main-event-2014', 'french-casino', 'tda-2007', 'tda-2024'] as const;
export type ProfileId = (typeof PROFILES)[number];
export type DeckId = 'A' | 'B';
export type Act = 'fold' | 'check' | 'call' | 'bet' | 'raise' | 'allin';

export interface HandStartBody {
  button: number;
  players: number[];
  blinds: [number, number];
  ante?: number;
  deck: DeckId;
  sb?: number | null;
  bb?: number;
}
export interface CardBody {
  zone: string;
  card: string;
}
export interface ActionBody {
  seat: number;
  act: Act;
  amount?: number;
}

/** One scenario event: `t` plus exactly one event key (DESIGN.md "Scenario files"). */
export type ScenarioEvent =
  | { t: number; 'hand.start': HandStartBody }
  | { t: number; card: CardBody }
  | { t: number; gone: CardBody }
  | { t: number; shuffler: { state: 'ready'; deck: DeckId; count: number } }
  | { t: number; button: { seat: number } }
  | { t: number; chips: { zone: string; amount: number } }
  | { t: number; action: ActionBody }
  | { t: number; dealer: DealerBody }
  | { t: number; seat: SeatBody };

export interface DealerBody {
  input: 'deal-done' | 'hand-end' | 'next-hand' | 'shown' | 'pushed';
  /** `shown`: the seat that tabled its hand. */
  zone?: string;
}
export interface SeatBody {
  seat: number;
  status: 'in' | 'out' | 'absent' | 'waiting';
}
export interface LevelBody {
  blinds: [number, number];
  ante: number;
  minutes: number;
}

/** A cash game's house cut (DESIGN.md: the scenario table's `rake`). */
export interface RakeBody {
  percent: number;
  cap: number;
}

export interface Scenario {
  name: string;
  profile: ProfileId;
  table: { seats: number; levels?: LevelBody[]; chipUnit: number; rake?: RakeBody };
  decks: DeckId[];
  events: ScenarioEvent[];
  expect: unknown[];
}

export const STREETS = ['preflop', 'flop', 'turn', 'river'] as const;
export type StreetName = (typeof STREETS)[number];

/**
 * How a hand ended. `walk`: everyone folded to the big blind. `fold`: won uncontested on `street`.
 * `showdown`: river betting completed with two or more players. `allin`: no more betting possible
 * after `street` with two or more players in (the rest of the board, if any, dealt without betting).
 */
export type Outcome =
  | { kind: 'walk'; street: 'preflop' }
  | { kind: 'fold' | 'showdown' | 'allin'; street: StreetName };

export interface HandInfo {
  /** 0-based hand number in the session. */
  index: number;
  /** Inclusive range of this hand's events in `scenario.events` (shuffler report before it included). */
  first: number;
  last: number;
  deck: DeckId;
  button: number;
  /** The button seat holds no player (empty or eliminated). */
  deadButton: boolean;
  sb: number | null;
  bb: number;
  /** Players, clockwise from the first after the button. */
  players: number[];
  blinds: [number, number];
  ante: number;
  /** Stacks at the start of the hand, before antes and blinds. */
  stacks: Record<number, number>;
  outcome: Outcome;
  /** Every seat that wins (a share of) a pot. */
  winners: number[];
  /** The awards the machine must make, in the order it makes them (side pots first, the highest first). */
  awards: ExpectedAward[];
  /** How the hands were shown; null when the hand was won by a fold. */
  showdown: ShowdownInfo | null;
  /**
   * A contribution was keyed without its amount at a table with no chip sensors: the machine cannot know
   * it, so an award's amount and shares may be null, or the pots not layered at all (SHOWDOWN_RANKING).
   */
  unknownAmounts: boolean;
  /** Event indices i such that events i and i+1 are two card reads reported in swapped order. */
  swaps: number[];
}

/** A pot (RULINGS.md "Pots and showdown") and how it goes: DESIGN.md's `award` line, `at` aside. */
export interface ExpectedAward {
  pot: number;
  /** Before the rake. */
  amount: number;
  /** Seats still in the hand who paid up to the pot's level, ascending. */
  eligible: number[];
  /** Ascending. */
  winners: number[];
  /** What each winner gets, after the rake. */
  shares: Record<number, number>;
  /** The tabled hands among the eligible seats, by category code. */
  hands: Record<number, HandCategory>;
}

export interface ShowdownInfo {
  /** ALL_IN_SHOWDOWN: every hand was turned face up for an all-in, before any card still to come. */
  faceUp: boolean;
  /** The order SHOW_ORDER calls the hands in; null when they were turned face up. */
  showOrder: number[] | null;
  /** Seats in the order they tabled. */
  tabled: number[];
  /** Seats that mucked without showing, in order. */
  mucked: number[];
  /** The tabled hands still in, best first, tied seats together (SHOWDOWN_RANKING when pots cannot be made). */
  ranking: number[][];
  /** The dealer said the pots were pushed (`dealer: pushed` or the pot sensor back to 0). */
  pushed: boolean;
}

/** Category codes, the order of `evaluate`'s categories (the reference evaluator's list, not src/domain's). */
export type HandCategory = ReferenceCategory;

export interface Session {
  seed: number;
  config: SessionConfig;
  scenario: Scenario;
  hands: HandInfo[];
  /** The amounts of the actions keyed without one, for a referee that checks the hands were legal. */
  unkeyed: Map<ActionBody, number>;
  /** The hand each `next-hand` should start, as its `hand.start` would say it. */
  started: Map<DealerBody, HandStartBody>;
}

export interface SessionConfig {
  profile: ProfileId;
  /** Table size, 2–10. */
  seats: number;
  /** Seats holding a player at the start of the session. */
  occupied: number[];
  startDeck: DeckId;
  shuffler: boolean;
  puck: boolean;
  chips: boolean;
  /** The chip sensors also report bet zones going back to 0 when the dealer collects. */
  chipZeroes: boolean;
  /** Chances: a repeated read per card, a peek per hole card, a swap per close pair of reads. */
  noise: { repeat: number; peek: number; swap: number };
  /** Chance a folded player's cards are read in the muck (and a hand's cards once its pot is pushed). */
  muck: number;
  /** Chance a hand beaten by one already tabled is mucked unseen rather than shown. */
  muckBeaten: number;
  /** Chance the dealer presses `pushed` once the pots are pushed (where the pot sensor would tell anyway too). */
  pushed: number;
  dealDone: number;
  handEnd: number;
  /**
   * Chance a bet, raise, all-in or call is keyed without its amount (the dealer's keypad left it out);
   * at tables with chip sensors the amount still shows in the bet zone after the action.
   */
  unkeyed: number;
}

// ---------------------------------------------------------------------------------------------------------
// PRNG

export { mulberry32 };

class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return at(xs, Math.floor(this.next() * xs.length));
  }
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of pairs) total += w;
    let r = this.next() * total;
    for (const [x, w] of pairs) {
      r -= w;
      if (r < 0) return x;
    }
    return at(pairs, pairs.length - 1)[0];
  }
  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const x = at(xs, i);
      xs[i] = at(xs, j);
      xs[j] = x;
    }
    return xs;
  }
}

function at<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`index ${i} out of range (${xs.length})`);
  return x;
}

// ---------------------------------------------------------------------------------------------------------
// Cards and showdown

const RANKS = '23456789TJQKA';
const SUITS = 'shdc';
const FACES: readonly string[] = [...SUITS].flatMap((s) => [...RANKS].map((r) => `${r}${s}`));

export function cardCode(face: string, deck: DeckId): string {
  return deck === 'A' ? face : `B:${face}`;
}

function faceOf(code: string): string {
  return code.startsWith('B:') ? code.slice(2) : code;
}

function straightHigh(mask: number): number {
  for (let hi = 12; hi >= 4; hi--) {
    const w = 0x1f << (hi - 4);
    if ((mask & w) === w) return hi;
  }
  return (mask & 0x100f) === 0x100f ? 3 : -1; // the wheel, A-2-3-4-5
}

function topBits(mask: number, n: number): number[] {
  const out: number[] = [];
  for (let r = 12; r >= 0 && out.length < n; r--) if (mask & (1 << r)) out.push(r);
  return out;
}

function score(category: number, kickers: readonly number[]): number {
  let s = category;
  for (let i = 0; i < 5; i++) s = s * 13 + (kickers[i] ?? 0);
  return s;
}

/** Value of the best five-card hand among the given cards (higher is better). */
export function evaluate(codes: readonly string[]): number {
  const counts = new Array<number>(13).fill(0);
  const suitMask = [0, 0, 0, 0];
  const suitCount = [0, 0, 0, 0];
  let mask = 0;
  for (const code of codes) {
    const f = faceOf(code);
    const r = RANKS.indexOf(f.charAt(0));
    const s = SUITS.indexOf(f.charAt(1));
    counts[r] = (counts[r] ?? 0) + 1;
    suitMask[s] = (suitMask[s] ?? 0) | (1 << r);
    suitCount[s] = (suitCount[s] ?? 0) + 1;
    mask |= 1 << r;
  }
  const flushSuit = suitCount.findIndex((c) => c >= 5);
  const flushMask = flushSuit >= 0 ? at(suitMask, flushSuit) : 0;
  if (flushSuit >= 0) {
    const sf = straightHigh(flushMask);
    if (sf >= 0) return score(8, [sf]);
  }
  const quads: number[] = [];
  const trips: number[] = [];
  const pairs: number[] = [];
  for (let r = 12; r >= 0; r--) {
    const c = at(counts, r);
    if (c === 4) quads.push(r);
    else if (c === 3) trips.push(r);
    else if (c === 2) pairs.push(r);
  }
  const kick = (exclude: number[], n: number) =>
    topBits(
      exclude.reduce((m, r) => m & ~(1 << r), mask),
      n,
    );
  const [q] = quads;
  if (q !== undefined) return score(7, [q, ...kick([q], 1)]);
  const [t0, t1] = trips;
  const [p0, p1] = pairs;
  if (t0 !== undefined) {
    const pairUp = Math.max(t1 ?? -1, p0 ?? -1);
    if (pairUp >= 0) return score(6, [t0, pairUp]);
  }
  if (flushSuit >= 0) return score(5, topBits(flushMask, 5));
  const st = straightHigh(mask);
  if (st >= 0) return score(4, [st]);
  if (t0 !== undefined) return score(3, [t0, ...kick([t0], 2)]);
  if (p0 !== undefined && p1 !== undefined) return score(2, [p0, p1, ...kick([p0, p1], 1)]);
  if (p0 !== undefined) return score(1, [p0, ...kick([p0], 3)]);
  return score(0, topBits(mask, 5));
}

// ---------------------------------------------------------------------------------------------------------
// Table geometry

/** Seats after `from`, clockwise (increasing seat numbers, wrapping), `from` itself last. */
function clockwiseFrom(from: number, seats: number): number[] {
  const out: number[] = [];
  for (let i = 1; i <= seats; i++) out.push(((from - 1 + i) % seats) + 1);
  return out;
}

function nextOf(from: number, among: ReadonlySet<number>, seats: number): number {
  for (const s of clockwiseFrom(from, seats)) if (among.has(s)) return s;
  throw new Error('no player');
}

// ---------------------------------------------------------------------------------------------------------
// Session

const TOURNAMENT_LEVELS: readonly (readonly [number, number])[] = [
  [25, 50],
  [50, 100],
  [75, 150],
  [100, 200],
  [150, 300],
  [200, 400],
  [300, 600],
  [400, 800],
  [500, 1000],
  [1000, 2000],
];
const CASH_LEVELS: readonly (readonly [number, number])[] = [
  [1, 2],
  [2, 5],
  [5, 10],
];

interface Player {
  seat: number;
  stack: number;
  committed: number;
  total: number;
  folded: boolean;
  allIn: boolean;
  /** Acted since the last full bet/raise (posting a blind is not acting). */
  acted: boolean;
  cards: string[];
  /** This round's total came from an action keyed without its amount, and no bet zone reported it. */
  roundUnknown: boolean;
  /** A round's total of this hand is one the machine cannot know. */
  unknown: boolean;
}

/** A card's stay in one zone, for scheduling reader noise. */
interface Life {
  code: string;
  zone: string;
  from: number;
  to: number;
  /** Earliest time for a peek (seat cards only: after the seat's second card). */
  peekFrom: number | null;
}

interface Plan {
  kind: 'walk' | 'fold' | 'showdown' | 'allin';
  street: number;
}

interface SessionState {
  rng: Rng;
  cfg: SessionConfig;
  tournament: boolean;
  unit: number;
  level: number;
  anteOn: boolean;
  stacks: Map<number, number>;
  prevBb: number | null;
  prevSbSeat: number | null;
  prevButton: number | null;
  t: number;
  unkeyed: Map<ActionBody, number>;
  started: Map<DealerBody, HandStartBody>;
  /** A tournament's blind schedule from its first level, and the first hand's `t` it is timed from. */
  schedule: LevelBody[] | null;
  firstLevel: number;
  firstT: number | null;
  /** Seats the dealer marks before the next hand. */
  seatChanges: SeatBody[];
  absent: Set<number>;
  /** A cash game's house cut, taken by the house from each pot. */
  rake: RakeBody | null;
}

function randomConfig(rng: Rng, o: Partial<SessionConfig>): SessionConfig {
  // Mostly full nine- and ten-seat tables, all sizes 2–10 possible.
  const seats =
    o.seats ??
    rng.weighted<number>([
      [2, 0.06],
      [3, 0.05],
      [4, 0.05],
      [5, 0.05],
      [6, 0.14],
      [7, 0.05],
      [8, 0.15],
      [9, 0.3],
      [10, 0.15],
    ]);
  const count = rng.chance(0.75) ? seats - rng.int(0, Math.min(2, seats - 2)) : rng.int(2, seats);
  const occupied = o.occupied ?? rng.shuffle(Array.from({ length: seats }, (_, i) => i + 1)).slice(0, count);
  const quiet = rng.chance(0.15);
  const chips = rng.chance(0.5);
  return {
    profile: rng.pick(PROFILES),
    seats,
    occupied: [...occupied].sort((a, b) => a - b),
    startDeck: rng.chance(0.5) ? 'A' : 'B',
    shuffler: rng.chance(0.5),
    puck: rng.chance(0.5),
    chips,
    chipZeroes: chips && rng.chance(0.5),
    noise: quiet
      ? { repeat: 0, peek: 0, swap: 0 }
      : { repeat: rng.next() * 0.3, peek: rng.next() * 0.4, swap: 0.2 + rng.next() * 0.7 },
    muck: rng.next(),
    muckBeaten: rng.next(),
    pushed: chips ? rng.next() * 0.5 : 0.5 + rng.next() * 0.5,
    dealDone: rng.next() * 0.6,
    handEnd: 0.6 + rng.next() * 0.4,
    unkeyed: rng.chance(0.4) ? rng.next() * 0.6 : 0,
    ...o,
  };
}

function blindsOf(s: SessionState): [number, number] {
  const levels = s.tournament ? TOURNAMENT_LEVELS : CASH_LEVELS;
  const [sb, bb] = at(levels, Math.min(s.level, levels.length - 1));
  return [sb, bb];
}

function anteOf(s: SessionState): number {
  if (!s.anteOn) return 0;
  const [, bb] = blindsOf(s);
  return Math.max(s.unit, Math.round(bb / 10 / s.unit) * s.unit);
}

function newStack(s: SessionState): number {
  const [, bb] = blindsOf(s);
  const bbs = s.rng.weighted<[number, number]>([
    [[3, 15], 0.15],
    [[15, 60], 0.4],
    [[60, 250], 0.45],
  ]);
  return Math.round((bb * (bbs[0] + s.rng.next() * (bbs[1] - bbs[0]))) / s.unit) * s.unit;
}

/**
 * Below this a blind or ante could put a player all-in, which the event stream (it has no stacks) cannot
 * show: such a player leaves or tops up between hands.
 */
function minStack(s: SessionState): number {
  return 2 * blindsOf(s)[1] + anteOf(s);
}

/**
 * Generates one session: `hands` clean hands in a row at one random table, as one scenario object, with
 * per-hand information for debugging. Deterministic for a given seed.
 */
export function generateSessionDetailed(
  seed: number,
  hands: number,
  options: Partial<SessionConfig> = {},
): Session {
  const rng = new Rng(seed);
  const cfg = randomConfig(rng, options);
  const tournament = cfg.profile !== 'french-casino' || rng.chance(0.5);
  const s: SessionState = {
    rng,
    cfg,
    tournament,
    unit: tournament ? 25 : 1,
    level: rng.int(0, tournament ? 6 : 2),
    anteOn: tournament && rng.chance(0.4),
    stacks: new Map(),
    prevBb: null,
    prevSbSeat: null,
    prevButton: null,
    t: rng.int(0, 5000),
    unkeyed: new Map(),
    started: new Map(),
    schedule: null,
    firstLevel: 0,
    firstT: null,
    seatChanges: cfg.occupied.map((seat) => ({ seat, status: 'in' as const })),
    absent: new Set(),
    rake: null,
  };
  s.rake = !tournament && rng.chance(0.5) ? houseRake(s) : null;
  s.firstLevel = s.level;
  if (tournament) s.schedule = scheduleOf(s);
  for (const seat of cfg.occupied) s.stacks.set(seat, Math.max(newStack(s), minStack(s)));
  const events: ScenarioEvent[] = [];
  const infos: HandInfo[] = [];
  for (let h = 0; h < hands; h++) {
    const { events: handEvents, info } = playHand(s, h);
    const offset = events.length;
    for (const e of handEvents) events.push(e);
    infos.push({
      ...info,
      first: offset,
      last: events.length - 1,
      swaps: info.swaps.map((i) => i + offset),
    });
    betweenHands(s);
  }
  const table: Scenario['table'] = { seats: cfg.seats, chipUnit: s.unit };
  if (s.schedule) table.levels = s.schedule;
  if (s.rake) table.rake = s.rake;
  const scenario: Scenario = {
    name: `soak: ${hands} clean hands, seed ${seed}`,
    profile: cfg.profile,
    table,
    decks: ['A', 'B'],
    events,
    expect: [],
  };
  return { seed, config: cfg, scenario, hands: infos, unkeyed: s.unkeyed, started: s.started };
}

/** One scenario object holding `hands` clean hands in a row at one table. */
export function generateSession(seed: number, hands: number, options: Partial<SessionConfig> = {}): Scenario {
  return generateSessionDetailed(seed, hands, options).scenario;
}

/** A cash table's rake: a few percent of each pot, capped at a few big blinds a hand. */
function houseRake(s: SessionState): RakeBody {
  const [, bb] = blindsOf(s);
  return { percent: s.rng.pick([2, 3, 5, 10]), cap: bb * s.rng.int(1, 6) };
}

/**
 * A tournament's levels from the session's first one, 8 to 20 minutes each; the last one holds. Each
 * level's ante is the session's (a tenth of the big blind) or none.
 */
function scheduleOf(s: SessionState): LevelBody[] {
  return TOURNAMENT_LEVELS.slice(s.level).map(([sb, bb]) => ({
    blinds: [sb, bb],
    ante: s.anteOn ? Math.max(s.unit, Math.round(bb / 10 / s.unit) * s.unit) : 0,
    minutes: s.rng.int(8, 20),
  }));
}

/** The schedule's level at `t`, counted from the first hand: each level's minutes, the last one kept. */
function levelAt(s: SessionState, t: number): number {
  if (!s.schedule || s.firstT === null) return s.level;
  let elapsed = (t - s.firstT) / 60_000;
  for (const [i, level] of s.schedule.entries()) {
    if (elapsed < level.minutes) return s.firstLevel + i;
    elapsed -= level.minutes;
  }
  return s.firstLevel + s.schedule.length - 1;
}

/** Busts, departures, top-ups and players stepping away between two hands, as the dealer marks them. */
function betweenHands(s: SessionState): void {
  const { rng } = s;
  const min = minStack(s);
  const leave = (seat: number) => {
    s.stacks.delete(seat);
    s.absent.delete(seat);
    s.seatChanges.push({ seat, status: 'out' });
  };
  for (const [seat, stack] of [...s.stacks]) {
    if (stack >= min) continue;
    if (s.stacks.size > 2 && rng.chance(s.tournament ? 0.3 : 0.15)) leave(seat);
    else s.stacks.set(seat, Math.max(newStack(s), min)); // re-entry / rebuy
  }
  if (s.stacks.size > 2 && rng.chance(0.03)) leave(rng.pick([...s.stacks.keys()]));
  // An absent player is still dealt in (main-event-2014 §I.h): the mark changes nothing in the hand.
  if (rng.chance(0.05)) {
    const seat = rng.pick([...s.stacks.keys()]);
    const back = s.absent.has(seat);
    if (back) s.absent.delete(seat);
    else s.absent.add(seat);
    s.seatChanges.push({ seat, status: back ? 'in' : 'absent' });
  }
}

/**
 * A tournament table takes in a moved player now and then, seated after the big blind and before the
 * button: never between the blinds nor between the button and the small blind, where the rules would
 * not deal him in. french-casino tables are left alone (a new player there posts a big blind).
 */
function seatNewPlayer(s: SessionState, pos: Positions): void {
  // french-casino's newcomer posts a big blind of his own: its scenarios show it, not the soak.
  if (!s.tournament || s.cfg.profile === 'french-casino' || s.stacks.size < 3 || !s.rng.chance(0.25)) return;
  const free: number[] = [];
  for (const seat of clockwiseFrom(pos.bb, s.cfg.seats)) {
    if (seat === pos.button) break;
    if (!s.stacks.has(seat)) free.push(seat);
  }
  if (free.length === 0) return;
  const seat = s.rng.pick(free);
  s.stacks.set(seat, Math.max(newStack(s), minStack(s)));
  // A tournament's new player starts like any player: marked waiting or in, he is dealt in here.
  s.seatChanges.push({ seat, status: s.rng.chance(0.5) ? 'waiting' : 'in' });
}

interface Positions {
  button: number;
  sbSeat: number;
  sb: number | null;
  bb: number;
}

/**
 * Dead-button rule: the big blind advances one player; small blind and button follow seat by seat.
 * french-casino's moving button: the next player has it.
 */
function positions(s: SessionState): Positions {
  const { seats } = s.cfg;
  const active = new Set(s.stacks.keys());
  if (s.prevBb === null || s.prevSbSeat === null) {
    if (active.size === 2) {
      const button = s.rng.pick([...active]);
      return { button, sbSeat: button, sb: button, bb: nextOf(button, active, seats) };
    }
    // The session may start on a dead button (a table already running).
    const button = s.rng.int(1, seats);
    const sb = nextOf(button, active, seats);
    return { button, sbSeat: sb, sb, bb: nextOf(sb, active, seats) };
  }
  const bb = nextOf(s.prevBb, active, seats);
  if (active.size === 2) {
    // Heads-up: the button posts the small blind; the big blind still moves on (§II.j, TDA #35).
    const button = nextOf(bb, active, seats);
    return { button, sbSeat: button, sb: button, bb };
  }
  if (s.cfg.profile === 'french-casino' && s.prevButton !== null) {
    // No written button rule: the button goes to the next player, the next two post.
    const button = nextOf(s.prevButton, active, seats);
    const sb = nextOf(button, active, seats);
    return { button, sbSeat: sb, sb, bb: nextOf(sb, active, seats) };
  }
  const sbSeat = s.prevBb;
  return { button: s.prevSbSeat, sbSeat, sb: active.has(sbSeat) ? sbSeat : null, bb };
}

function choosePlan(rng: Rng): Plan {
  return rng.weighted<Plan>([
    [{ kind: 'walk', street: 0 }, 0.07],
    [{ kind: 'fold', street: 0 }, 0.16],
    [{ kind: 'fold', street: 1 }, 0.15],
    [{ kind: 'fold', street: 2 }, 0.12],
    [{ kind: 'fold', street: 3 }, 0.12],
    [{ kind: 'showdown', street: 4 }, 0.2],
    [{ kind: 'allin', street: 0 }, 0.08],
    [{ kind: 'allin', street: 1 }, 0.05],
    [{ kind: 'allin', street: 2 }, 0.03],
    [{ kind: 'allin', street: 3 }, 0.02],
  ]);
}

interface Emitted {
  t: number;
  ev: ScenarioEvent;
}

function playHand(s: SessionState, index: number): { events: ScenarioEvent[]; info: HandInfo } {
  const { rng, cfg } = s;
  const pos = positions(s);
  // The hand starts after the shuffler hands its deck over: its level is the one in force then.
  const deck: DeckId = index % 2 === 0 ? cfg.startDeck : cfg.startDeck === 'A' ? 'B' : 'A';
  const tShuffler = cfg.shuffler ? Math.max(s.t, s.t + rng.int(500, 4000)) : s.t;
  const tStart = Math.max(tShuffler, tShuffler + (index === 0 ? rng.int(500, 3000) : rng.int(3000, 15000)));
  s.level = levelAt(s, tStart);
  seatNewPlayer(s, pos);
  const [sbAmt, bbAmt] = blindsOf(s);
  const ante = anteOf(s);
  const seatsAround = clockwiseFrom(pos.button, cfg.seats);
  const order = seatsAround.filter((seat) => s.stacks.has(seat));
  const stacksAtStart: Record<number, number> = {};
  const players: Player[] = order.map((seat) => {
    const stack = s.stacks.get(seat) ?? 0;
    stacksAtStart[seat] = stack;
    return {
      seat,
      stack,
      committed: 0,
      total: 0,
      folded: false,
      allIn: false,
      acted: false,
      cards: [],
      roundUnknown: false,
      unknown: false,
    };
  });
  const bySeat = new Map(players.map((p) => [p.seat, p]));
  const main: Emitted[] = [];
  const lives: Life[] = [];
  const emit = (t: number, ev: ScenarioEvent) => {
    const tt = Math.max(Math.round(t), s.t);
    s.t = tt;
    ev.t = tt;
    main.push({ t: tt, ev });
    return tt;
  };
  const pitch = () => rng.int(150, 600);
  const actionGap = () => 500 + Math.floor(4500 * rng.next() ** 2);

  // Between hands: the shuffler hands over this hand's deck; the dealer marks the seats that changed.
  if (cfg.shuffler) emit(tShuffler, { t: 0, shuffler: { state: 'ready', deck, count: 52 } });
  for (const change of s.seatChanges.splice(0)) emit(s.t + 50, { t: 0, seat: change });
  const start: HandStartBody = {
    button: pos.button,
    players: [...order].sort((a, b) => a - b),
    blinds: [sbAmt, bbAmt],
    deck,
  };
  if (ante > 0) start.ante = ante;
  // Default blinds: the first two players after the button; heads-up the button is the small blind.
  const heads = order.length === 2;
  const defSb = heads ? pos.button : at(order, 0);
  const defBb = heads ? at(order, 0) : at(order, 1);
  if (pos.sb !== defSb || pos.bb !== defBb) {
    start.sb = pos.sb;
    start.bb = pos.bb;
  }
  // The first hand of a session comes from elsewhere (a table already running, maybe on a dead
  // button); the table starts every later one itself, by the rules, from the seats.
  let t0: number;
  if (index === 0) {
    t0 = emit(tStart, { t: 0, 'hand.start': start });
    s.firstT = t0;
  } else {
    const dealer: DealerBody = { input: 'next-hand' };
    s.started.set(dealer, start);
    t0 = emit(tStart, { t: 0, dealer });
  }

  // Antes and blinds.
  let pot = 0;
  for (const p of players) {
    p.stack -= ante;
    p.total += ante;
    pot += ante;
  }
  const post = (seat: number | null, amount: number) => {
    if (seat === null) return;
    const p = bySeat.get(seat);
    if (!p) throw new Error(`blind on seat ${seat} without a player`);
    p.stack -= amount;
    p.committed += amount;
    p.total += amount;
  };
  post(pos.sb, sbAmt);
  post(pos.bb, bbAmt);
  if (cfg.puck) emit(t0 + rng.int(100, 1200), { t: 0, button: { seat: pos.button } });
  if (cfg.chips) {
    let tb = t0 + rng.int(100, 900);
    if (ante > 0) tb = emit(tb, { t: 0, chips: { zone: 'pot', amount: pot } }) + rng.int(50, 300);
    for (const p of players)
      if (p.committed > 0)
        tb = emit(tb, { t: 0, chips: { zone: `bet:${p.seat}`, amount: p.committed } }) + 80;
  }

  // The deal: one card at a time clockwise from the first player after the button, two rounds.
  const stub = rng.shuffle([...FACES]).map((f) => cardCode(f, deck));
  let next = 0;
  const draw = () => at(stub, next++);
  let tc = Math.max(s.t, t0 + rng.int(1500, 4000));
  for (let round = 0; round < 2; round++) {
    for (const p of players) {
      const code = draw();
      tc = emit(tc, { t: 0, card: { zone: `seat:${p.seat}`, card: code } });
      p.cards.push(code);
      lives.push({ code, zone: `seat:${p.seat}`, from: tc, to: Number.POSITIVE_INFINITY, peekFrom: null });
      tc += pitch();
    }
  }
  for (const l of lives) l.peekFrom = s.t;
  const seatLives = new Map(lives.map((l) => [l.code, l]));
  let lastAction = s.t;
  if (rng.chance(cfg.dealDone))
    lastAction = emit(s.t + rng.int(200, 1500), { t: 0, dealer: { input: 'deal-done' } });

  const plan = choosePlan(rng);
  let voluntary = false; // chips put in preflop beyond the blinds
  const live = () => players.filter((p) => !p.folded);
  const canBet = () => players.filter((p) => !p.folded && !p.allIn).length;

  /** A hand's cards off its seat (lifted first, sometimes) and read in the muck; returns the time after. */
  const toMuck = (p: Player, t: number) => {
    let tm = t;
    const withGone = rng.chance(0.5);
    for (const code of p.cards) {
      const l = seatLives.get(code);
      if (l) l.to = Math.min(l.to, tm);
      if (withGone) tm = emit(tm, { t: 0, gone: { zone: `seat:${p.seat}`, card: code } }) + rng.int(50, 300);
      tm = emit(tm, { t: 0, card: { zone: 'muck', card: code } });
      lives.push({ code, zone: 'muck', from: tm, to: Number.POSITIVE_INFINITY, peekFrom: null });
      tm += rng.int(100, 400);
    }
    return tm;
  };

  const fold = (p: Player, t: number) => {
    p.folded = true;
    for (const code of p.cards) {
      const l = seatLives.get(code);
      if (l) l.to = t;
    }
    if (rng.chance(cfg.muck)) toMuck(p, t + rng.int(200, 700));
  };

  /** The last player to bet or raise in the round being played (show order: RULINGS.md). */
  let aggressor: number | null = null;
  /** Plays one betting round; returns false when everyone but one player folded. */
  const bettingRound = (street: number): boolean => {
    aggressor = null;
    let current = street === 0 ? bbAmt : 0;
    let minRaise = bbAmt;
    let raises = 0;
    for (const p of players) p.acted = false;
    const firstIdx =
      street === 0 ? (order.indexOf(pos.bb) + 1) % players.length : 0; /* first after the button */
    let idx = firstIdx;
    for (let steps = 0; ; steps++) {
      if (steps > 1000) throw new Error('betting round does not end');
      if (live().length === 1) return false;
      let actor: Player | undefined;
      for (let k = 0; k < players.length; k++) {
        const p = at(players, (idx + k) % players.length);
        if (!p.folded && !p.allIn && (!p.acted || p.committed < current)) {
          actor = p;
          idx = (idx + k) % players.length;
          break;
        }
      }
      if (!actor) return true;
      const p = actor;
      const toCall = current - p.committed;
      const maxTo = p.committed + p.stack;
      const othersCanAct = players.some((o) => o !== p && !o.folded && !o.allIn);
      const mayRaise = !p.acted && othersCanAct && maxTo > current;
      const minTo = current === 0 ? bbAmt : current + minRaise;
      const choice = decide({
        rng,
        plan,
        street,
        toCall,
        opened: raises > 0,
        raises,
        mayRaise,
        short: p.stack < 12 * bbAmt,
        lastOne: live().length === 2,
      });
      let act: Act;
      let amount: number | undefined;
      if (choice === 'fold' && toCall > 0) {
        act = 'fold';
      } else if (choice === 'raise' || choice === 'allin') {
        let to = maxTo;
        if (choice === 'raise' && mayRaise) {
          const potNow = pot + players.reduce((n, o) => n + o.committed, 0);
          const target = rng.weighted<number>([
            [minTo, 0.35],
            [current === 0 ? potNow * (0.3 + rng.next() * 0.9) : current * (2 + rng.next() * 1.5), 0.55],
            [maxTo, 0.04],
          ]);
          to = Math.max(minTo, Math.round(target / s.unit) * s.unit);
        }
        if (!mayRaise) to = Math.min(maxTo, current); // no raise right: call (all-in for less if short)
        if (to >= maxTo) {
          to = maxTo;
          act = 'allin';
        } else act = to > current ? (current === 0 ? 'bet' : 'raise') : toCall > 0 ? 'call' : 'check';
        if (act === 'check') amount = undefined;
        else amount = to;
      } else if (toCall > 0) {
        if (maxTo <= current) {
          act = 'allin';
          amount = maxTo;
        } else {
          act = 'call';
          amount = current;
        }
      } else {
        act = 'check';
      }
      const action: ActionBody = { seat: p.seat, act };
      if (amount !== undefined && rng.chance(cfg.unkeyed)) s.unkeyed.set(action, amount);
      else if (amount !== undefined) action.amount = amount;
      // A total keyed without its amount is known only where a bet zone reports it (RULINGS.md).
      if (amount !== undefined) p.roundUnknown = action.amount === undefined && !cfg.chips;
      const t = emit(Math.max(lastAction + actionGap(), s.t + 100), { t: 0, action });
      lastAction = t;
      p.acted = true;
      if (act === 'fold') {
        fold(p, t);
        continue;
      }
      if (amount !== undefined && amount > p.committed) {
        const add = amount - p.committed;
        p.stack -= add;
        p.total += add;
        p.committed = amount;
        if (p.stack === 0) p.allIn = true;
        if (street === 0) voluntary = true;
        if (amount > current) {
          if (amount - current >= minRaise) {
            minRaise = amount - current;
            for (const o of players) if (o !== p) o.acted = false;
          }
          current = amount;
          aggressor = p.seat;
          raises++;
        }
        if (cfg.chips) emit(t + rng.int(100, 400), { t: 0, chips: { zone: `bet:${p.seat}`, amount } });
      }
      idx = (idx + 1) % players.length;
    }
  };

  /** After a round: the uncalled part of the highest bet goes back, then the bets go to the pot. */
  const collect = () => {
    const sorted = [...players].sort((a, b) => b.committed - a.committed);
    const top = at(sorted, 0);
    const second = sorted[1]?.committed ?? 0;
    if (top.committed > second) {
      const back = top.committed - second;
      top.stack += back;
      top.total -= back;
      top.committed = second;
    }
    let any = false;
    for (const p of players) {
      pot += p.committed;
      if (p.committed > 0) any = true;
    }
    let tt = Math.max(s.t + 100, lastAction + rng.int(300, 1200));
    if (cfg.chips && any) {
      if (cfg.chipZeroes)
        for (const p of players)
          if (p.committed > 0) tt = emit(tt, { t: 0, chips: { zone: `bet:${p.seat}`, amount: 0 } }) + 60;
      emit(tt, { t: 0, chips: { zone: 'pot', amount: pot } });
    }
    for (const p of players) {
      p.committed = 0;
      if (p.roundUnknown) p.unknown = true;
      p.roundUnknown = false;
    }
  };

  const dealStreet = (street: number, quick: boolean) => {
    let tt = quick ? s.t + pitch() : Math.max(s.t + rng.int(400, 1500), lastAction + rng.int(800, 3000));
    for (let k = 0; k < (street === 1 ? 4 : 2); k++) {
      const code = draw();
      const zone = k === 0 ? 'burn' : 'board';
      tt = emit(tt, { t: 0, card: { zone, card: code } });
      lives.push({ code, zone, from: tt, to: Number.POSITIVE_INFINITY, peekFrom: null });
      tt += pitch();
    }
    lastAction = Math.max(lastAction, s.t);
  };

  const tabling: Tabling = { s, players, emit, toMuck, tabled: [], mucked: [] };
  let outcome: Outcome | null = null;
  let runOutFrom = -1; // first street dealt with no more betting possible
  let lastAggressor: number | null = null; // of the last round that was bet
  let faceUp = false;
  for (let street = 0; street < 4; street++) {
    if (street > 0) dealStreet(street, runOutFrom >= 0 && street > runOutFrom && rng.chance(0.5));
    if (runOutFrom >= 0) continue;
    if (canBet() < 2) throw new Error('betting round with fewer than two players able to act');
    const contested = bettingRound(street);
    collect();
    lastAggressor = aggressor;
    const name = at(STREETS, street);
    if (!contested) {
      outcome =
        street === 0 && !voluntary ? { kind: 'walk', street: 'preflop' } : { kind: 'fold', street: name };
      break;
    }
    if (plan.kind === 'fold' && plan.street === street) plan.street++; // nobody bet: the fold comes later
    if (canBet() < 2) {
      outcome = { kind: 'allin', street: name };
      runOutFrom = street + 1;
    }
    // An all-in with no betting to come: every hand face up before the cards still to come (RULINGS.md).
    if (!faceUp && allInShowdownDue(cfg.profile, players, street === 3)) {
      faceUp = true;
      tableAll(tabling);
    }
  }
  outcome ??= { kind: 'showdown', street: 'river' };

  const board = stub.slice(2 * players.length, next).filter((_, i) => i !== 0 && i !== 4 && i !== 6);
  const scores = new Map(live().map((p) => [p.seat, evaluate([...p.cards, ...board])]));
  const pots = layerPots(players, ante);
  const contested = live().length > 1;
  const showing = contested && !faceUp ? showOrder(players, lastAggressor) : null;
  if (showing) showInOrder(tabling, showing, pots, scores);
  const awards = awardPots(
    pots,
    tabling,
    scores,
    { button: pos.button, seats: cfg.seats, unit: s.unit },
    s.rake,
  );
  const raked = pay(awards, bySeat);
  let chipsAfter = raked;
  for (const p of players) {
    s.stacks.set(p.seat, p.stack);
    chipsAfter += p.stack;
  }
  const chipsBefore = Object.values(stacksAtStart).reduce((n, x) => n + x, 0);
  if (chipsAfter !== chipsBefore) throw new Error(`chips not conserved: ${chipsBefore} -> ${chipsAfter}`);
  const winners = [...new Set(awards.flatMap((a) => a.winners))];

  // End of hand: the pots are pushed, the hands go to the muck (a winner's only once its pot is pushed);
  // the dealer mostly presses hand-end (else the next hand.start ends it).
  const pushed = endOfHand(tabling, winners, contested ? rng.int(2000, 8000) : rng.int(800, 3000));
  if (rng.chance(cfg.handEnd)) emit(s.t + rng.int(200, 1500), { t: 0, dealer: { input: 'hand-end' } });
  const handEnd = s.t;

  s.prevBb = pos.bb;
  s.prevSbSeat = pos.sbSeat;
  s.prevButton = pos.button;

  const noisy = addNoise(rng, cfg, main, lives, handEnd, cfg.puck ? pos.button : null, t0);
  const swaps = swapReads(rng, cfg.noise.swap, noisy);
  return {
    events: noisy,
    info: {
      index,
      first: 0,
      last: noisy.length - 1,
      deck,
      button: pos.button,
      deadButton: !bySeat.has(pos.button),
      sb: pos.sb,
      bb: pos.bb,
      players: order,
      blinds: [sbAmt, bbAmt],
      ante,
      stacks: stacksAtStart,
      outcome,
      winners,
      awards,
      showdown: contested ? showdownInfo(tabling, showing, scores, pushed) : null,
      unknownAmounts: players.some((p) => p.unknown),
      swaps,
    },
  };
}

interface DecideCtx {
  rng: Rng;
  plan: Plan;
  street: number;
  toCall: number;
  /** A voluntary bet or raise was made this round. */
  opened: boolean;
  raises: number;
  mayRaise: boolean;
  short: boolean;
  /** Folding would leave one player. */
  lastOne: boolean;
}

/** The random player: picks fold, call (or check), raise (or bet) or all-in; the caller makes it legal. */
function decide(c: DecideCtx): 'fold' | 'call' | 'raise' | 'allin' {
  const { rng, plan, street } = c;
  const facing = c.toCall > 0;
  const raiseP = (p: number) => (c.mayRaise ? p * 0.5 ** c.raises : 0);
  if (plan.kind === 'walk' && street === 0) return 'fold';
  if (plan.kind === 'allin' && street === plan.street) {
    if (!c.opened) return c.mayRaise && rng.chance(0.55) ? 'allin' : 'call';
    if (rng.chance(0.6)) return 'call';
    return c.mayRaise && rng.chance(0.1) ? 'allin' : 'fold';
  }
  if (plan.kind === 'fold' && street === plan.street) {
    if (!c.opened)
      return rng.chance(0.45) && c.mayRaise ? 'raise' : facing && rng.chance(0.3) ? 'fold' : 'call';
    const r = rng.next();
    if (r < 0.82) return facing ? 'fold' : 'call';
    if (r < 0.95) return 'call';
    return rng.chance(raiseP(1)) ? 'raise' : 'call';
  }
  // Streets before the planned ending, and showdown hands.
  if (c.short && facing && c.mayRaise && rng.chance(0.08)) return 'allin';
  const foldP = plan.kind === 'showdown' || plan.kind === 'allin' ? 0.08 : 0.15;
  const r = rng.next();
  if (!c.opened) {
    if (r < raiseP(street === 0 ? 0.2 : 0.3)) return 'raise';
    if (facing && !c.lastOne && rng.chance(foldP)) return 'fold';
    return 'call';
  }
  if (facing && !c.lastOne && r < foldP) return 'fold';
  if (rng.chance(raiseP(0.12))) return 'raise';
  return 'call';
}

// ---------------------------------------------------------------------------------------------------------
// Showdown and pots (RULINGS.md "Pots and showdown"), worked out apart from src/domain

/** What the showdown needs of the hand being played. */
interface Tabling {
  s: SessionState;
  /** Clockwise from the first after the button. */
  players: readonly Player[];
  emit: (t: number, ev: ScenarioEvent) => number;
  toMuck: (p: Player, t: number) => number;
  /** Seats in the order they tabled, and those that mucked unseen. */
  tabled: number[];
  mucked: number[];
}

/**
 * ALL_IN_SHOWDOWN's trigger (RULINGS.md; tda-2024 #16 in RULINGS-tda-2024.md): two or more players
 * all-in and no more betting possible; under tda-2024 one all-in is enough, and the river's betting
 * closed counts as no more betting.
 */
function allInShowdownDue(profile: ProfileId, players: readonly Player[], riverClosed: boolean): boolean {
  const inHand = players.filter((p) => !p.folded);
  const allIn = inHand.filter((p) => p.allIn).length;
  const noMoreBetting = inHand.length - allIn <= 1;
  if (inHand.length < 2) return false;
  if (profile === 'tda-2024') return allIn >= 1 && (noMoreBetting || riverClosed);
  return allIn >= 2 && noMoreBetting;
}

function tableHand(tabling: Tabling, p: Player): void {
  tabling.emit(tabling.s.t + tabling.s.rng.int(400, 2500), {
    t: 0,
    dealer: { input: 'shown', zone: `seat:${p.seat}` },
  });
  tabling.tabled.push(p.seat);
}

/** An all-in: the dealer turns every hand face up, in whatever order they come, none may muck. */
function tableAll(tabling: Tabling): void {
  for (const p of tabling.s.rng.shuffle(tabling.players.filter((x) => !x.folded))) tableHand(tabling, p);
}

/**
 * The show order: the last player to bet or raise in the last round that was bet first, else the first
 * player in the hand left of the button; then clockwise.
 */
function showOrder(players: readonly Player[], aggressor: number | null): Player[] {
  const inHand = players.filter((p) => !p.folded);
  const first = Math.max(
    0,
    inHand.findIndex((p) => p.seat === aggressor),
  );
  return [...inHand.slice(first), ...inHand.slice(0, first)];
}

/**
 * Hands shown in turn: a hand that a hand already tabled beats in every pot it could win is sometimes
 * mucked unseen (its cards to the muck antenna) instead.
 */
function showInOrder(
  tabling: Tabling,
  order: readonly Player[],
  pots: readonly Pot[],
  scores: ReadonlyMap<number, number>,
): void {
  const { rng, cfg } = tabling.s;
  const score = (seat: number) => scores.get(seat) ?? -1;
  const beaten = (p: Player) =>
    pots
      .filter((pot) => pot.eligible.includes(p.seat))
      .every((pot) => tabling.tabled.some((q) => pot.eligible.includes(q) && score(q) > score(p.seat)));
  for (const p of order) {
    if (tabling.tabled.length > 0 && beaten(p) && rng.chance(cfg.muckBeaten)) {
      tabling.toMuck(p, tabling.s.t + rng.int(400, 2500));
      tabling.mucked.push(p.seat);
    } else tableHand(tabling, p);
  }
}

/** A pot before it is awarded. */
interface Pot {
  pot: number;
  amount: number;
  eligible: number[];
}

/**
 * The pots: each player's bets (its ante aside), the uncalled part already back, layered at each
 * all-in total of a player still in the hand; the antes are dead money in the main pot. Above the last
 * all-in, the chips of the players who went on betting make one more pot.
 */
function layerPots(players: readonly Player[], ante: number): Pot[] {
  const bet = (p: Player) => p.total - ante;
  const inHand = players.filter((p) => !p.folded);
  const levels = [...new Set(inHand.filter((p) => p.allIn).map(bet))].sort((a, b) => a - b);
  const pots: Pot[] = [];
  let below = 0;
  for (const level of [...levels, Number.POSITIVE_INFINITY]) {
    let amount = 0;
    for (const p of players) amount += Math.min(Math.max(bet(p) - below, 0), level - below);
    // Up to an all-in total, those who paid all of it; above the last one, those who went on betting.
    const eligible = inHand
      .filter((p) => (Number.isFinite(level) ? bet(p) >= level : !p.allIn))
      .map((p) => p.seat);
    if (amount > 0 || pots.length === 0) {
      if (eligible.length === 0) throw new Error(`a pot of ${amount} that nobody in the hand paid into`);
      pots.push({ pot: pots.length, amount, eligible: eligible.sort((a, b) => a - b) });
    }
    below = level;
  }
  (pots[0] as Pot).amount += ante * players.length;
  return pots;
}

interface Split {
  button: number;
  seats: number;
  unit: number;
}

/** Each pot's house cut, main pot first: the percent rounded down to the chip unit, the cap over the hand. */
function rakes(pots: readonly Pot[], rake: RakeBody | null, unit: number): number[] {
  if (rake === null) return pots.map(() => 0);
  let left = rake.cap - (rake.cap % unit);
  return pots.map((pot) => {
    const full = Math.floor((pot.amount * rake.percent) / 100);
    const cut = Math.min(full - (full % unit), left);
    left -= cut;
    return cut;
  });
}

/** Equal whole chip units; the units left over one at a time from the first winner left of the button. */
function shares(amount: number, winners: readonly number[], split: Split): Record<number, number> {
  if (amount % split.unit !== 0) throw new Error(`a pot of ${amount} in chips of ${split.unit}`);
  const around = clockwiseFrom(split.button, split.seats);
  const line = [...winners].sort((a, b) => around.indexOf(a) - around.indexOf(b));
  const units = amount / split.unit;
  const each = Math.floor(units / line.length);
  const out: Record<number, number> = {};
  for (const [i, seat] of line.entries()) out[seat] = (each + (i < units % line.length ? 1 : 0)) * split.unit;
  return out;
}

function categoryOf(score: number): HandCategory {
  return at(REFERENCE_CATEGORIES, Math.floor(score / 13 ** 5));
}

/**
 * Each pot to the best tabled hand among its eligible seats that did not muck, or to the one seat left;
 * side pots first, the highest first, as the machine awards them.
 */
function awardPots(
  pots: readonly Pot[],
  tabling: Tabling,
  scores: ReadonlyMap<number, number>,
  split: Split,
  rake: RakeBody | null,
): ExpectedAward[] {
  const cuts = rakes(pots, rake, split.unit);
  const awards = pots.map((pot, i): ExpectedAward => {
    const contenders = pot.eligible.filter((seat) => !tabling.mucked.includes(seat));
    if (contenders.length > 1 && !contenders.every((seat) => tabling.tabled.includes(seat)))
      throw new Error(`pot ${pot.pot} contested by untabled hands`);
    const best = Math.max(...contenders.map((seat) => scores.get(seat) ?? -1));
    const winners =
      contenders.length === 1 ? contenders : contenders.filter((seat) => scores.get(seat) === best);
    // The tabled hands when it is awarded: a pot the folds left to one seat goes at that fold, unseen.
    const hands: Record<number, HandCategory> = {};
    for (const seat of pot.eligible.length > 1 ? pot.eligible : [])
      if (tabling.tabled.includes(seat)) hands[seat] = categoryOf(scores.get(seat) ?? 0);
    const net = pot.amount - (cuts[i] ?? 0);
    return {
      pot: pot.pot,
      amount: pot.amount,
      eligible: pot.eligible,
      winners,
      shares: shares(net, winners, split),
      hands,
    };
  });
  return awards.reverse();
}

/** The winners' stacks get their shares; returns what the house kept. */
function pay(awards: readonly ExpectedAward[], bySeat: ReadonlyMap<number, Player>): number {
  let kept = 0;
  for (const a of awards) {
    kept += a.amount;
    for (const [seat, share] of Object.entries(a.shares)) {
      const p = bySeat.get(Number(seat));
      if (!p) throw new Error(`a share for seat ${seat}, not a player`);
      p.stack += share;
      kept -= share;
    }
  }
  return kept;
}

/** How a contested hand was shown; `order` the show order, null when the hands went face up for an all-in. */
function showdownInfo(
  tabling: Tabling,
  order: readonly Player[] | null,
  scores: ReadonlyMap<number, number>,
  pushed: boolean,
): ShowdownInfo {
  return {
    faceUp: order === null,
    showOrder: order?.map((p) => p.seat) ?? null,
    tabled: tabling.tabled,
    mucked: tabling.mucked,
    ranking: ranking(tabling, scores),
    pushed,
  };
}

/** The tabled hands still in, best first, tied seats together. */
function ranking(tabling: Tabling, scores: ReadonlyMap<number, number>): number[][] {
  const shown = tabling.tabled.filter((seat) => !tabling.mucked.includes(seat));
  const values = [...new Set(shown.map((seat) => scores.get(seat) ?? -1))].sort((a, b) => b - a);
  return values.map((v) => shown.filter((seat) => scores.get(seat) === v).sort((a, b) => a - b));
}

/**
 * The pots pushed (the pot sensor back to 0, or the dealer saying so), the hands to the muck: a hand
 * that won nothing once the pots are decided, before or after the push; a winner's only after the push
 * (before it, a tabled winner in the muck is WINNING_HAND_MUCKED). Returns whether the push was told.
 */
function endOfHand(tabling: Tabling, winners: readonly number[], pause: number): boolean {
  const { s, players } = tabling;
  const { rng, cfg } = s;
  const held = players.filter((p) => !p.folded && !tabling.mucked.includes(p.seat));
  const read = held.filter(() => rng.chance(cfg.muck));
  const early = read.filter((p) => !winners.includes(p.seat) && rng.chance(0.5));
  let t = s.t + pause;
  for (const p of early) t = tabling.toMuck(p, t + rng.int(200, 1200));
  if (cfg.chips) t = tabling.emit(t + rng.int(200, 1500), { t: 0, chips: { zone: 'pot', amount: 0 } });
  const told = rng.chance(cfg.pushed);
  if (told) t = tabling.emit(t + rng.int(200, 1500), { t: 0, dealer: { input: 'pushed' } });
  const pushed = cfg.chips || told;
  for (const p of read)
    if (!early.includes(p) && (pushed || !winners.includes(p.seat)))
      t = tabling.toMuck(p, t + rng.int(200, 1200));
  return pushed;
}

// ---------------------------------------------------------------------------------------------------------
// Reader noise

/**
 * Adds repeated reads and peeks inside each card's stay in its zone (never after the hand's last event),
 * and sometimes a repeated puck read; returns the hand's events sorted by `t` (stable: main order kept).
 */
function addNoise(
  rng: Rng,
  cfg: SessionConfig,
  main: readonly Emitted[],
  lives: readonly Life[],
  handEnd: number,
  puck: number | null,
  t0: number,
): ScenarioEvent[] {
  const noise: Emitted[] = [];
  const { repeat, peek } = cfg.noise;
  for (const l of lives) {
    const to = Math.min(l.to, handEnd) - 1;
    let cursor = l.from + 20;
    if (rng.chance(repeat)) {
      const t = rng.int(cursor, Math.max(cursor, Math.min(to, cursor + 8000)));
      if (t <= to) {
        noise.push({ t, ev: { t, card: { zone: l.zone, card: l.code } } });
        cursor = t + 20;
      }
    }
    if (l.peekFrom !== null && rng.chance(peek)) {
      const from = Math.max(cursor, l.peekFrom + 50);
      const tg = rng.int(from, Math.max(from, Math.min(to, from + 15000)));
      const tr = tg + rng.int(200, 2500);
      if (tr <= to) {
        noise.push({ t: tg, ev: { t: tg, gone: { zone: l.zone, card: l.code } } });
        noise.push({ t: tr, ev: { t: tr, card: { zone: l.zone, card: l.code } } });
      }
    }
  }
  if (puck !== null && rng.chance(repeat)) {
    const t = rng.int(t0 + 1, Math.max(t0 + 1, handEnd - 1));
    if (t < handEnd) noise.push({ t, ev: { t, button: { seat: puck } } });
  }
  const all = [...main, ...noise];
  all.sort((a, b) => a.t - b.t);
  return all.map((e) => e.ev);
}

/**
 * Reports some pairs of successive card reads less than 300 ms apart in swapped order: the listed
 * positions keep their timestamps (so `t` stays non-decreasing), the cards trade places.
 */
function swapReads(rng: Rng, p: number, events: ScenarioEvent[]): number[] {
  const swaps: number[] = [];
  if (p <= 0) return swaps;
  for (let i = 0; i + 1 < events.length; i++) {
    const a = at(events, i);
    const b = at(events, i + 1);
    if (!('card' in a) || !('card' in b)) continue;
    if (b.t - a.t >= 300 || a.card.card === b.card.card || !rng.chance(p)) continue;
    const tmp = a.card;
    a.card = b.card;
    b.card = tmp;
    swaps.push(i);
    i++;
  }
  return swaps;
}

// ---------------------------------------------------------------------------------------------------------
// Debugging help

export function outcomeLabel(o: Outcome): string {
  return o.kind === 'walk' ? 'walk' : o.kind === 'showdown' ? 'showdown' : `${o.kind}:${o.street}`;
}

/** One event on one line: `#12 t=4500 card seat:3 4s`. */
export function describeEvent(e: ScenarioEvent, index?: number): string {
  const { t, ...rest } = e;
  const [key, body] = Object.entries(rest)[0] ?? ['?', {}];
  const b = body as Record<string, unknown>;
  let text: string;
  if (key === 'card' || key === 'gone') text = `${b.zone} ${b.card}`;
  else if (key === 'action') text = `seat ${b.seat} ${b.act}${b.amount === undefined ? '' : ` ${b.amount}`}`;
  else if (key === 'chips') text = `${b.zone} ${b.amount}`;
  else if (key === 'dealer') text = b.zone === undefined ? String(b.input) : `${b.input} ${b.zone}`;
  else text = JSON.stringify(body);
  return `${index === undefined ? '' : `#${index} `}t=${t} ${key} ${text}`;
}

/** The hand holding event `eventIndex`. */
export function handAt(session: Session, eventIndex: number): HandInfo | undefined {
  return session.hands.find((h) => eventIndex >= h.first && eventIndex <= h.last);
}

/**
 * A compact printout of one hand for a failing soak test: seed, hand index, positions, outcome and its
 * events, with `mark` (an event index, e.g. an incident's `at`) flagged.
 */
export function describeHand(session: Session, handIndex: number, mark?: number): string {
  const h = session.hands[handIndex];
  if (!h) return `seed ${session.seed}: no hand ${handIndex}`;
  const { config: c } = session;
  const lines = [
    `seed ${session.seed} hand ${h.index}/${session.hands.length} events #${h.first}-#${h.last} ` +
      `profile ${c.profile} seats ${c.seats} deck ${h.deck}`,
    `  button ${h.button}${h.deadButton ? ' (dead)' : ''} sb ${h.sb} bb ${h.bb} players [${h.players}] ` +
      `blinds ${h.blinds.join('/')}${h.ante ? ` ante ${h.ante}` : ''} outcome ${outcomeLabel(h.outcome)} ` +
      `winners [${h.winners}]${h.swaps.length ? ` swapped #${h.swaps.join(',#')}` : ''}`,
    `  stacks ${h.players.map((seat) => `${seat}:${h.stacks[seat]}`).join(' ')}`,
    ...h.awards.map(
      (a) =>
        `  pot ${a.pot} ${a.amount} eligible [${a.eligible}] to [${a.winners}] ${JSON.stringify(a.shares)}`,
    ),
  ];
  if (h.showdown)
    lines.push(
      `  ${h.showdown.faceUp ? 'face up' : `show order [${h.showdown.showOrder}]`} tabled [${h.showdown.tabled}] ` +
        `mucked [${h.showdown.mucked}]${h.unknownAmounts ? ' (amounts unknown)' : ''}`,
    );
  for (let i = h.first; i <= h.last; i++) {
    const e = session.scenario.events[i];
    if (e) lines.push(`${i === mark ? '>>' : '  '} ${describeEvent(e, i)}`);
  }
  return lines.join('\n');
}

/**
 * One hand of a session as a scenario file of its own (for `croupier replay --check`, a bug report),
 * expecting the hand's awards (their amounts only where the machine can know them).
 */
export function handScenario(session: Session, handIndex: number): Scenario {
  const h = session.hands[handIndex];
  if (!h) throw new Error(`seed ${session.seed}: no hand ${handIndex}`);
  return {
    ...session.scenario,
    name: `soak seed ${session.seed}, hand ${handIndex}`,
    events: session.scenario.events.slice(h.first, h.last + 1),
    expect: h.awards.map(({ pot, winners, amount, shares }) =>
      h.unknownAmounts ? { pot, winners } : { pot, winners, amount, shares },
    ),
  };
}

/** Regenerates a session and prints the hand holding event `eventIndex`, flagged. */
export function describeEventAt(
  seed: number,
  hands: number,
  eventIndex: number,
  options: Partial<SessionConfig> = {},
): string {
  const session = generateSessionDetailed(seed, hands, options);
  const h = handAt(session, eventIndex);
  return h ? describeHand(session, h.index, eventIndex) : `seed ${seed}: no event #${eventIndex}`;
}
