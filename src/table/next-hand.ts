import type { HandStart } from '../domain/events.js';
import { firstPositions, nextPositions, type Positions, seatsBetween } from '../domain/seats.js';
import { PROFILES } from '../rules/index.js';
import type { Level, TableContext } from './state.js';

/** The hand `next-hand` starts: the fields of its `hand.start`, and the article its button rests on. */
export type NextHand = Omit<HandStart, 'type' | 't' | 'seq'> & {
  sb: number | null;
  bb: number;
  rule: string;
};

/**
 * The next hand by the rules (RULINGS.md "Seats, the button and the next hand"), from the seats the
 * dealer marked, the last hand and the level in force at `t`; null when fewer than two players are
 * seated. After a void hand the redeal is the same hand again. Without any seat marked, the last
 * hand's players play on (a table whose hands were started by `hand.start` alone).
 */
export function nextHand(ctx: TableContext, t: number, redeal = ctx.phase === 'void'): NextHand | null {
  const last = ctx.hand;
  const profile = PROFILES[ctx.profile];
  if (last !== null && redeal) {
    const { button, sb, bb, players, blinds, ante } = last;
    return handOf(ctx, { button, sb, bb }, players, { blinds, ante }, [], profile.button.cite);
  }
  const marked = Object.keys(ctx.seating).length > 0;
  const seated = marked ? seatsWhere(ctx, (s) => s !== 'out') : (last?.players ?? []);
  const waiting = seatsWhere(ctx, (s) => s === 'waiting');
  // The moving button goes round the players already in; the dead button's big blind may be a newcomer's.
  const settled = seated.filter((s) => !waiting.includes(s));
  const moving = profile.button.rule === 'moving-button' && settled.length >= 2;
  const first = positionsFor(ctx, moving ? settled : seated);
  if (first === null) return null;
  // A newcomer on the button or between it and the small blind waits (§I.n, tda-2024 #8-A).
  const between = seatsBetween(first.button, first.sbSeat, ctx.seats);
  const shut = waiting.filter((s) => s === first.button || between.includes(s));
  const players = seated.filter((s) => !shut.includes(s));
  const positions = shut.length > 0 && !moving ? positionsFor(ctx, players) : first;
  if (positions === null) return null;
  const { sb, bb } = positions;
  const posted = profile.newcomerPosts
    ? players.filter((s) => waiting.includes(s) && s !== sb && s !== bb)
    : [];
  const rule = players.length === 2 ? profile.button.headsUp : profile.button.cite;
  return handOf(ctx, positions, players, levelAt(ctx, t), posted, rule);
}

function handOf(
  ctx: TableContext,
  { button, sb, bb }: Pick<Positions, 'button' | 'sb' | 'bb'>,
  players: number[],
  { blinds, ante }: Pick<Level, 'blinds' | 'ante'>,
  posted: number[],
  rule: string,
): NextHand {
  return {
    button,
    sb,
    bb,
    players,
    blinds,
    ...(ante > 0 && { ante }),
    ...(posted.length > 0 && { posted }),
    ...nextDeck(ctx),
    rule,
  };
}

function seatsWhere(ctx: TableContext, keep: (status: string) => boolean): number[] {
  return Object.entries(ctx.seating)
    .filter(([, seated]) => keep(seated.status))
    .map(([seat]) => Number(seat))
    .sort((a, b) => a - b);
}

/** The first hand: the button where the puck lies if on a player, else the lowest-numbered player. */
function positionsFor(ctx: TableContext, players: readonly number[]): Positions | null {
  if (players.length < 2) return null;
  const last = ctx.hand;
  if (last === null) {
    const puck = ctx.puck !== null && players.includes(ctx.puck) ? ctx.puck : (players[0] as number);
    return firstPositions(puck, players);
  }
  return nextPositions(PROFILES[ctx.profile].button.rule, last, players);
}

/**
 * The level in force at `t`: the one the tournament clock set last, else the schedule timed from the
 * first hand (its last level kept once it is over), else the blinds of the config, then the last hand's.
 */
export function levelAt(ctx: TableContext, t: number): Pick<Level, 'blinds' | 'ante'> {
  if (ctx.clockLevel !== null) return ctx.clockLevel;
  if (ctx.levels.length === 0) {
    return ctx.hand
      ? { blinds: ctx.hand.blinds, ante: ctx.hand.ante }
      : { blinds: ctx.blinds, ante: ctx.ante };
  }
  let end = ctx.firstHandT ?? t;
  for (const level of ctx.levels) {
    end += level.minutes * 60_000;
    if (t < end) return level;
  }
  return ctx.levels[ctx.levels.length - 1] as Level;
}

/**
 * A deck the shuffler has counted back (or never dealt), the other one of the rotation when both are;
 * the rotation alone when none is (without a shuffler no deck is ever counted back).
 */
function nextDeck(ctx: TableContext): { deck?: string } {
  const ids = ctx.deckIds;
  const other = (from: readonly string[]) => from.find((id) => id !== ctx.hand?.deck) ?? from[0];
  const deck = other(ids.filter((id) => ctx.decks[id]?.returned ?? true)) ?? other(ids);
  return deck === undefined ? {} : { deck };
}
