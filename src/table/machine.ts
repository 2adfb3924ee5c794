import { assign, enqueueActions, initialTransition, type SnapshotFrom, setup, transition } from 'xstate';
import type { DomainEvent, DomainEventType } from '../domain/events.js';
import { initialContext, reduce, type TableConfig } from './reduce.js';
import type { BoardMode, Phase, TableContext, Verdict } from './state.js';

/** Every domain event is judged by the poker (`reduce`), whose verdicts the chart then follows. */
const JUDGED = {
  'hand.start': {},
  'card.seen': {},
  'card.gone': {},
  shuffler: {},
  button: {},
  chips: {},
  action: {},
  dealer: {},
  device: {},
  seat: {},
  settle: {},
} as const satisfies Record<DomainEventType, object>;

const judge = { actions: ['judge', 'follow'] } as const;

/**
 * One table: a pure XState statechart of its domain events. The poker lives in `reduce`: it judges each
 * event (the incidents and prompts it brings out land in the context's `outputs`) and gives its verdicts
 * on the hand's lifecycle, which the chart follows as events of its own, in order. The chart alone sets
 * the phase and the board's mode: each state of the hand's and the board's regions writes its name on
 * entry, for the poker to read.
 *
 * Three regions run side by side: the hand (idle → live: dealing → betting → showdown; floor and
 * void suspend it, ended closes it), the board (as dealt, or under a ruling on a street: premature,
 * scramble, burn on the flop; each new hand starts it as dealt) and the procedure (clear, or open while
 * an incident's procedure has steps to go).
 */
export const tableMachine = setup({
  types: {
    context: {} as TableContext,
    events: {} as DomainEvent | Verdict,
    input: {} as TableConfig,
  },
  actions: {
    judge: assign(({ context, event }) => reduce(context, event as DomainEvent)),
    follow: enqueueActions(({ context, enqueue }) => {
      for (const verdict of context.verdicts) enqueue.raise(verdict);
    }),
    enter: assign((_, phase: Phase) => ({ phase })),
    dealBoard: assign((_, board: BoardMode) => ({ board })),
  },
  guards: {
    /** The deal ended while the floor watched (or before the misdeal the floor overrules). */
    dealEnded: ({ context }) => context.hand?.dealEnded === true,
  },
}).createMachine({
  id: 'table',
  type: 'parallel',
  context: ({ input }) => initialContext(input),
  on: Object.fromEntries(Object.keys(JUDGED).map((type) => [type, judge])),
  states: {
    hand: {
      initial: 'idle',
      on: { HAND_STARTED: '.live' },
      states: {
        idle: { tags: ['between-hands'], entry: { type: 'enter', params: 'idle' } },
        live: {
          tags: ['in-play', 'judging'],
          initial: 'dealing',
          on: { HAND_VOIDED: 'void', FLOOR_CALLED: 'floor', HAND_ENDED: 'ended' },
          states: {
            dealing: {
              entry: { type: 'enter', params: 'dealing' },
              on: { DEAL_ENDED: 'betting', HAND_WON: '#table.hand.ended' },
            },
            betting: {
              entry: { type: 'enter', params: 'betting' },
              on: { RIVER_CLOSED: 'showdown', HAND_WON: '#table.hand.ended' },
            },
            showdown: { entry: { type: 'enter', params: 'showdown' } },
            /** Where the hand stood when the floor was called or the misdeal ruled. */
            stood: { type: 'history' },
          },
        },
        floor: {
          tags: ['in-play'],
          entry: { type: 'enter', params: 'floor' },
          on: { HAND_VOIDED: 'void', HAND_ENDED: 'ended', FLOOR_OVERRULED: resumed() },
        },
        void: {
          tags: ['between-hands'],
          entry: { type: 'enter', params: 'void' },
          on: { FLOOR_OVERRULED: resumed() },
        },
        ended: { tags: ['between-hands'], entry: { type: 'enter', params: 'ended' } },
      },
    },
    /** How the board is being dealt: a ruling on a street puts it in a mode the next cards are judged by. */
    board: {
      initial: 'asDealt',
      on: {
        HAND_STARTED: '.asDealt',
        PREMATURE_RULED: '.premature',
        SCRAMBLE_RULED: '.scramble',
        BURN_ON_FLOP_RULED: '.burnOnFlop',
      },
      states: {
        asDealt: { entry: { type: 'dealBoard', params: 'as-dealt' } },
        /** A premature street under its ruling: its cards go back or are burned until a player acts. */
        premature: {
          entry: { type: 'dealBoard', params: 'premature' },
          on: { BOARD_SETTLED: 'asDealt' },
        },
        /** The floor watches the flop scrambled: board and burn arrivals are not judged until a player acts. */
        scramble: {
          entry: { type: 'dealBoard', params: 'scramble' },
          on: { BOARD_SETTLED: 'asDealt' },
        },
        /** The second burn went to the flop: a flop card past the third is the turn's burn. */
        burnOnFlop: {
          entry: { type: 'dealBoard', params: 'burn-on-flop' },
          on: { BURN_ON_FLOP_SETTLED: 'asDealt' },
        },
      },
    },
    procedure: {
      initial: 'clear',
      states: {
        clear: { on: { PROCEDURE_OPENED: 'open' } },
        open: { tags: ['procedure-open'], on: { PROCEDURE_CLOSED: 'clear' } },
      },
    },
  },
});

/**
 * The floor lets the hand go on from where it stood; a deal that ended meanwhile resumes at its betting
 * (the poker's RIVER_CLOSED follows when the board is out and the round closed).
 */
function resumed() {
  return [
    { guard: 'dealEnded', target: '#table.hand.live.betting' },
    { target: '#table.hand.live.stood' },
  ] as const;
}

export type TableSnapshot = SnapshotFrom<typeof tableMachine>;

export type { Phase };

/** Where the hand stands, as the chart set it. */
export function phaseOf(context: TableContext): Phase {
  return context.phase;
}

/** Where a table stands before its first event: the pure start that tests and tools take. */
export function startTable(config: TableConfig): TableSnapshot {
  return initialTransition(tableMachine, config)[0];
}

/** Where the table stands after one more event, chart included: pure (live play runs an actor instead). */
export function step(snapshot: TableSnapshot, event: DomainEvent): TableSnapshot {
  return transition(tableMachine, snapshot, event)[0];
}
