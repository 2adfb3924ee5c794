import { enqueueActions, setup } from 'xstate';
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
    idle: status('none', 'over'),
    dealing: status('dealing'),
    betting: status('betting'),
    showdown: status('showdown'),
    void: status('void'),
    floor: status('floor'),
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
        { guard: 'void', target: '.void' },
        { guard: 'floor', target: '.floor' },
        { target: '.idle' },
      ],
      states: {
        idle: {},
        dealing: {},
        betting: {},
        showdown: {},
        /** Misdeal or hand void: cards come back, the hand is redealt. */
        void: {},
        /** CALL_FLOOR: the machine watches while the floor decides. */
        floor: {},
      },
    },
    incident: {
      initial: 'clear',
      always: [{ guard: 'incidentOpen', target: '.open' }, { target: '.clear' }],
      states: { clear: {}, open: {} },
    },
  },
});
