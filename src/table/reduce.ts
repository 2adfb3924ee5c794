import type { Rake } from '../domain/award-split.js';
import type { DomainEvent, ReaderRound } from '../domain/events.js';
import { isProfileId, type ProfileId } from '../rules/index.js';
import type { RuleProfile } from '../rules/types.js';
import { confirmPuck, onPuck } from './button.js';
import { DEAL_PAUSE_MS, dealPaused, dealPauseEnds, endDeal } from './cards.js';
import { tickSensorSteps } from './checks.js';
import { onShuffler } from './deck.js';
import { draft, verdict } from './draft.js';
import { onAction, onChips, onDealer, onDevice, onSeat, startHand } from './inputs.js';
import { showdownAfter } from './showdown.js';
import type { Level, TableContext } from './state.js';
import { certainAtRead, judgeNow, judgeReads, nextReadDue, readsDue, type Settled } from './window.js';

export interface TableConfig {
  seats: number;
  profile: RuleProfile;
  /** Reads closer than this are one antenna cycle: their order is unknown (RULINGS.md). */
  orderWindowMs?: number;
  /**
   * A read no other read of its cycle can change is judged at once (DESIGN.md "Real time"); false holds
   * every read to the end of its window (the equivalence test compares both).
   */
  factsAtRead?: boolean;
  /** The blinds and ante `next-hand` posts when no level schedule is set (default: the last hand's). */
  blinds?: [number, number];
  ante?: number;
  levels?: Level[];
  /** The table's decks, in the rotation `next-hand` deals them. */
  decks?: string[];
  /** The smallest chip in play: pots split in whole ones (default 1). */
  chipUnit?: number;
  /** A cash game's house cut from each pot; none by default. */
  rake?: Rake;
}

/** What the context takes from the table's config as it is now (a restored snapshot takes it anew). */
export function configured(
  config: TableConfig,
): Pick<TableContext, 'blinds' | 'ante' | 'levels' | 'deckIds' | 'factsAtRead' | 'chipUnit' | 'rake'> {
  return {
    chipUnit: config.chipUnit ?? 1,
    rake: config.rake ?? null,
    factsAtRead: config.factsAtRead ?? true,
    blinds: config.blinds ?? [50, 100],
    ante: config.ante ?? 0,
    levels: config.levels ?? [],
    deckIds: config.decks ?? [],
  };
}

/** The profile's id; a table is configured with a registered rulebook only (the config schema checks it). */
function registered(profile: RuleProfile): ProfileId {
  if (!isProfileId(profile.id)) throw new Error(`rule profile ${profile.id} is not registered`);
  return profile.id;
}

/** The table before its first event. */
function atRest(config: TableConfig): TableContext {
  return {
    seats: config.seats,
    orderWindowMs: config.orderWindowMs ?? 300,
    profile: registered(config.profile),
    phase: 'idle',
    board: 'as-dealt',
    ...configured(config),
    clockLevel: null,
    seating: {},
    firstHandT: null,
    clock: 0,
    hands: 0,
    hand: null,
    window: [],
    recent: [],
    puck: null,
    lastButton: null,
    lastHandCards: [],
    puckSuspect: null,
    puckFlagged: false,
    readersDown: [],
    decks: {},
    chips: {},
    open: [],
    outputs: [],
    verdicts: [],
  };
}

export function initialContext(config: TableConfig): TableContext {
  // A spread's copy of the literal: V8 turns XState's copies of the literal itself (each assign's
  // Object.assign) into slow dictionaries, 6 µs an assign, while copies of a spread's object stay fast, as
  // every context after the first event. In a function of its own, so the bundler cannot fold the spread away.
  return { ...atRest(config) };
}

/**
 * Events that leave the reads of an antenna cycle unjudged until the cycle is over: more reads, and
 * reports of other sensors that judge no card (a puck read, a chip count, a device's health). Actions
 * and dealer inputs are judged against the cards, so every read before them is judged first.
 */
const WAITS_FOR_CYCLE: ReadonlySet<DomainEvent['type']> = new Set([
  'card.seen',
  'card.gone',
  'button',
  'chips',
  'device',
  'shuffler',
  'settle',
]);

/**
 * Whether a settle at `t` (after `ended`, a reader round that just ended) has anything to judge: held
 * reads it settles, or a puck read that stayed.
 */
export function settleJudges(ctx: TableContext, t: number, ended?: ReaderRound): boolean {
  return (
    readsDue(ctx, { until: t, ended }) ||
    t >= (puckStays(ctx) ?? Number.POSITIVE_INFINITY) ||
    dealPaused(ctx, t)
  );
}

/** When a puck read on a wrong seat has stayed a window, and is judged misplaced; null with none. */
function puckStays(ctx: TableContext): number | null {
  return ctx.puckSuspect === null ? null : ctx.puckSuspect.t + ctx.orderWindowMs;
}

/**
 * The first instant at which a settle would judge something, with no reader round ending before it:
 * when the live table's clock sends the next one. Null when nothing waits on time.
 */
export function nextSettle(ctx: TableContext): number | null {
  const instants = [nextReadDue(ctx), puckStays(ctx), dealPauseEnds(ctx)].filter((t) => t !== null);
  return instants.length === 0 ? null : Math.min(...instants);
}

/** How long after its last event a settle judges everything the table holds on time (a file's end). */
export function settleAllAfter(ctx: TableContext): number {
  return Math.max(2 * ctx.orderWindowMs, DEAL_PAUSE_MS);
}

/**
 * Whether the showdown follows the hand before the event's own step too: after reads it judged, before a
 * hand the event may start, and for the dealer's and the pot's inputs it reads. Otherwise the hand is as
 * the last event left it, whose showdown already followed it: whatever it still has to give, the step
 * after the event's gives at the same event (its two passes were 30% of the poker's time).
 */
function showdownFirst(judges: boolean, event: DomainEvent): boolean {
  return judges || !AFTER_ONLY.has(event.type);
}

const AFTER_ONLY: ReadonlySet<DomainEvent['type']> = new Set([
  'card.seen',
  'card.gone',
  'action',
  'button',
  'device',
  'shuffler',
  'settle',
  'seat',
]);

/** What an event settles: reads whose cycle is over by its time, or all of them (see WAITS_FOR_CYCLE). */
function settledBy(event: DomainEvent): Settled {
  if (!WAITS_FOR_CYCLE.has(event.type)) return { until: Number.POSITIVE_INFINITY };
  return { until: event.t, ended: event.type === 'settle' ? event.round : undefined };
}

/**
 * The table's step function: the context after one domain event, with the event's incidents and
 * prompts in `outputs`. Pure: the same events always give the same context.
 */
export function reduce(ctx: TableContext, event: DomainEvent): TableContext {
  // A quiet table's settle changes nothing: live play sends (and journals) only those that judge.
  if (event.type === 'settle' && !settleJudges(ctx, event.t, event.round))
    return ctx.outputs.length === 0 && ctx.verdicts.length === 0
      ? ctx
      : { ...ctx, outputs: [], verdicts: [] };
  const settled = settledBy(event);
  const judges = readsDue(ctx, settled);
  const d = draft(ctx);
  d.ctx.clock = event.t;
  if (judges) judgeReads(d, settled);
  // The reads judged may close the river of a hand this event then replaces: its showdown first.
  const judged = d.hand && { no: d.hand.no, betting: d.hand.betting };
  if (showdownFirst(judges, event)) showdownAfter(d, ctx.hand, ctx.phase, event);
  confirmPuck(d, event);
  switch (event.type) {
    case 'card.seen':
      d.ctx.window = [...d.ctx.window, event]; // judged once its antenna cycle is over
      if (d.ctx.factsAtRead && certainAtRead(d, event)) judgeNow(d, event); // or at once, when nothing can undo it
      break;
    case 'hand.start':
      startHand(d, event);
      break;
    case 'action':
      onAction(d, event);
      break;
    case 'dealer':
      onDealer(d, event);
      break;
    case 'shuffler':
      onShuffler(d, event);
      break;
    case 'button':
      onPuck(d, event);
      break;
    case 'chips':
      onChips(d, event);
      break;
    case 'device':
      onDevice(d, event);
      break;
    case 'seat':
      onSeat(d, event);
      break;
    case 'settle':
      if (dealPaused(d.ctx, event.t)) endDeal(d, event.seq);
      break;
    case 'card.gone': // a peek lifts the cards: it never removes a card from the hand
      break;
  }
  showdownAfter(d, judged, ctx.phase, event); // and what the event itself did
  tickSensorSteps(d, event);
  if ((ctx.open.length === 0) !== (d.ctx.open.length === 0))
    verdict(d, d.ctx.open.length === 0 ? 'PROCEDURE_CLOSED' : 'PROCEDURE_OPENED');
  return d.ctx;
}
