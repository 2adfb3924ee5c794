import { enqueueActions, setup } from 'xstate';
import type { BettingStreet } from '../domain/betting.js';
import type { DomainEvent } from '../domain/events.js';
import type { TableOutput } from '../rules/types.js';
import { initialContext, reduce, type TableConfig } from './reduce.js';
import type { HandStatus, TableContext } from './state.js';

/** What the table tells its outputs (display, MQTT, journal, replay). */
export interface TableEmitted {
  type: 'output';
  output: TableOutput;
}

const status =
  (...wanted: (HandStatus | 'none')[]) =>
  ({ context }: { context: TableContext }) =>
    wanted.includes(context.hand?.status ?? 'none');

/**
 * The street, while betting: without the status check the betting state's own eventless transitions
 * would keep it there (the deepest enabled transition wins) when a new hand starts dealing.
 */
const street =
  (wanted: BettingStreet) =>
  ({ context }: { context: TableContext }) =>
    context.hand?.status === 'betting' && context.hand.betting.street === wanted;

/**
 * One table: a pure XState machine of its domain events. The poker lives in `reduce`; the states
 * mirror where the hand stands and whether an incident awaits its procedure, so the display,
 * MQTT and recovery can subscribe to them.
 */
export const tableMachine = setup({
  types: {
    context: {} as TableContext,
    events: {} as DomainEvent,
    input: {} as TableConfig,
    emitted: {} as TableEmitted,
  },
  actions: {
    step: enqueueActions(({ context, event, enqueue }) => {
      const next = reduce(context, event);
      enqueue.assign(() => next);
      for (const output of next.outputs) enqueue.emit({ type: 'output', output });
    }),
  },
  guards: {
    noHand: status('none'),
    dealing: status('dealing'),
    betting: status('betting'),
    showdown: status('showdown'),
    ended: status('over'),
    void: status('void'),
    floor: status('floor'),
    preflop: street('preflop'),
    flop: street('flop'),
    turn: street('turn'),
    river: street('river'),
    incidentOpen: ({ context }) => context.open.length > 0,
  },
}).createMachine({
  id: 'table',
  type: 'parallel',
  context: ({ input }) => initialContext(input),
  on: { '*': { actions: 'step' } },
  states: {
    hand: {
      initial: 'idle',
      always: [
        { guard: 'dealing', target: '.dealing' },
        { guard: 'betting', target: '.betting' },
        { guard: 'showdown', target: '.showdown' },
        { guard: 'ended', target: '.ended' },
        { guard: 'void', target: '.void' },
        { guard: 'floor', target: '.floor' },
      ],
      states: {
        /** No hand yet at this table. */
        idle: {},
        /** Hole cards are being pitched. */
        dealing: {},
        /** A betting round, by street. */
        betting: {
          initial: 'preflop',
          always: [
            { guard: 'preflop', target: '.preflop' },
            { guard: 'flop', target: '.flop' },
            { guard: 'turn', target: '.turn' },
            { guard: 'river', target: '.river' },
          ],
          states: { preflop: {}, flop: {}, turn: {}, river: {} },
        },
        showdown: {},
        /** Won, shown down or ended by the dealer: waiting for the next hand. */
        ended: {},
        /** Misdeal or hand void: cards come back, the hand is redealt. */
        void: {},
        /** CALL_FLOOR: the machine watches while the floor decides. */
        floor: {},
      },
    },
    incident: {
      initial: 'clear',
      always: [{ guard: 'incidentOpen', target: '.open' }, { target: '.clear' }],
      states: {
        clear: {},
        /** An incident's procedure is on the dealer's display, step by step. */
        open: {},
      },
    },
  },
});
