import { getShortestPaths } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { transition } from 'xstate';
import type { DomainEvent } from '../../../src/domain/events.js';
import { PROFILE_IDS, PROFILES } from '../../../src/rules/index.js';
import {
  type Phase,
  startTable,
  step,
  type TableSnapshot,
  tableMachine,
} from '../../../src/table/machine.js';
import type { BoardMode, Verdict } from '../../../src/table/state.js';

/*
 * The shortest path to every state of the chart, walked by @xstate/graph, and from each state every
 * move, checked against a lifecycle written apart here from RULINGS.md ("After a ruling", the floor's
 * decision): the chart and this oracle must agree on the phase, the tags and the procedure after every
 * step of every path and on every transition out of every state.
 * The deal's end is a real dealer input (the poker judges it and says DEAL_ENDED; the card reader is
 * down, so a deal of no card raises nothing); the other moves are the verdicts the poker hands the chart.
 */

const START: DomainEvent = {
  type: 'hand.start',
  t: 0,
  seq: 0,
  button: 3,
  players: [1, 2, 3],
  blinds: [50, 100],
  deck: 'A',
};
const DEAL_DONE: DomainEvent = { type: 'dealer', t: 0, seq: 0, input: 'deal-done' };
/** With the card reader down the deal's count waits for it, so the dealer ends a deal of no card unjudged. */
const READER_DOWN: DomainEvent = {
  type: 'device',
  t: 0,
  seq: 0,
  device: 'rfid-1',
  role: 'card-reader',
  status: 'offline',
  detail: 'unplugged',
};
const VERDICTS: Verdict['type'][] = [
  'RIVER_CLOSED',
  'HAND_WON',
  'HAND_ENDED',
  'HAND_VOIDED',
  'FLOOR_CALLED',
  'FLOOR_OVERRULED',
  'PROCEDURE_OPENED',
  'PROCEDURE_CLOSED',
  'PREMATURE_RULED',
  'SCRAMBLE_RULED',
  'BURN_ON_FLOP_RULED',
  'BOARD_SETTLED',
  'BURN_ON_FLOP_SETTLED',
];
type Move = DomainEvent | Verdict;
const MOVES: Move[] = [START, DEAL_DONE, ...VERDICTS.map((type) => ({ type }) as Verdict)];

interface Lifecycle {
  phase: Phase;
  /** Where the hand stood when the floor or a misdeal suspended it. */
  stood: Phase | null;
  dealEnded: boolean;
  procedureOpen: boolean;
  board: BoardMode;
}

const LIVE: readonly Phase[] = ['dealing', 'betting', 'showdown'];

/** The lifecycle as the rules describe it, one move at a time. */
function oracle(l: Lifecycle, move: Move): Lifecycle {
  const live = LIVE.includes(l.phase);
  const suspend = (phase: Phase): Lifecycle => ({ ...l, phase, stood: live ? l.phase : l.stood });
  switch (move.type) {
    case 'hand.start':
      return { ...l, phase: 'dealing', stood: null, dealEnded: false, board: 'as-dealt' };
    case 'dealer':
      if (l.phase === 'idle') return l;
      return { ...l, dealEnded: true, phase: l.phase === 'dealing' ? 'betting' : l.phase };
    case 'RIVER_CLOSED':
      return l.phase === 'betting' ? { ...l, phase: 'showdown' } : l;
    case 'HAND_WON':
      return l.phase === 'dealing' || l.phase === 'betting' ? { ...l, phase: 'ended' } : l;
    case 'HAND_ENDED':
      return live || l.phase === 'floor' ? { ...l, phase: 'ended' } : l;
    case 'HAND_VOIDED':
      return live || l.phase === 'floor' ? suspend('void') : l;
    case 'FLOOR_CALLED':
      return live ? suspend('floor') : l;
    case 'FLOOR_OVERRULED':
      // The deal over, betting resumes (the poker says RIVER_CLOSED again if the board is out).
      if (l.phase !== 'floor' && l.phase !== 'void') return l;
      return { ...l, phase: l.dealEnded ? 'betting' : (l.stood ?? 'dealing'), stood: null };
    case 'PROCEDURE_OPENED':
      return { ...l, procedureOpen: true };
    case 'PROCEDURE_CLOSED':
      return { ...l, procedureOpen: false };
    // A ruling on a street sets how the next cards are judged, whatever the hand's phase (the floor
    // watching included); a player's action ends a premature street or a scramble, not a burn on the flop.
    case 'PREMATURE_RULED':
      return { ...l, board: 'premature' };
    case 'SCRAMBLE_RULED':
      return { ...l, board: 'scramble' };
    case 'BURN_ON_FLOP_RULED':
      return { ...l, board: 'burn-on-flop' };
    case 'BOARD_SETTLED':
      return l.board === 'premature' || l.board === 'scramble' ? { ...l, board: 'as-dealt' } : l;
    case 'BURN_ON_FLOP_SETTLED':
      return l.board === 'burn-on-flop' ? { ...l, board: 'as-dealt' } : l;
    default:
      return l;
  }
}

function phaseIn(snapshot: TableSnapshot): Phase {
  const hand = (snapshot.value as { hand: string | Record<string, unknown> }).hand;
  if (typeof hand === 'string') return hand as Phase;
  const live = hand.live as string;
  return live as Phase;
}

/** A chart state: where it is, whether the deal ended, and where its history would resume. */
function serialize(snapshot: TableSnapshot): string {
  const history = Object.entries(snapshot.historyValue ?? {}).map(([id, nodes]) => [
    id,
    nodes.map((node) => node.id),
  ]);
  return JSON.stringify([snapshot.value, snapshot.context.hand?.dealEnded ?? null, history]);
}

/** What the chart must show for a lifecycle. */
function agrees(state: TableSnapshot, expected: Lifecycle, where: string): void {
  expect(phaseIn(state), where).toBe(expected.phase);
  expect(state.context.phase, where).toBe(expected.phase);
  expect(state.context.board, where).toBe(expected.board);
  expect(state.hasTag('procedure-open'), where).toBe(expected.procedureOpen);
  expect(state.hasTag('between-hands'), where).toBe(['idle', 'ended', 'void'].includes(expected.phase));
  expect(state.hasTag('judging'), where).toBe(LIVE.includes(expected.phase));
  expect(state.hasTag('in-play'), where).toBe(LIVE.includes(expected.phase) || expected.phase === 'floor');
}

describe.each(PROFILE_IDS)('the chart of a %s table, walked path by path', (id) => {
  const paths = getShortestPaths(tableMachine, {
    fromState: step(startTable({ seats: 9, profile: PROFILES[id] }), READER_DOWN),
    events: MOVES,
    serializeState: serialize,
  });

  it('reaches every state of the hand and of the procedure, and every mode of the board', () => {
    const reached = new Set(paths.map(({ state }) => `${phaseIn(state)} ${state.hasTag('procedure-open')}`));
    for (const phase of ['idle', 'dealing', 'betting', 'showdown', 'ended', 'void', 'floor'])
      for (const open of [true, false]) expect(reached).toContain(`${phase} ${open}`);
    const modes = new Set(paths.map(({ state }) => state.context.board));
    expect([...modes].sort()).toEqual(['as-dealt', 'burn-on-flop', 'premature', 'scramble']);
  });

  it('agrees with the rules along the path to every state, and on every move out of it', () => {
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      let expected: Lifecycle = {
        phase: 'idle',
        stood: null,
        dealEnded: false,
        procedureOpen: false,
        board: 'as-dealt',
      };
      const where = path.steps.map((s) => s.event.type).join(' → ');
      for (const { state, event } of path.steps) {
        expected = (event.type as string) === 'xstate.init' ? expected : oracle(expected, event);
        agrees(state, expected, where);
      }
      for (const move of MOVES) {
        const [after] = transition(tableMachine, path.state, move);
        agrees(after, oracle(expected, move), `${where} → ${move.type}`);
      }
    }
  });
});
