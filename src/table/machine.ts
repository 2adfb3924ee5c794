import { assign, setup } from 'xstate';
import type { DomainEvent } from '../domain/events.js';
import { initialContext, reduce, type TableConfig } from './reduce.js';
import type { HandStatus, TableContext } from './state.js';

/**
 * One table: a pure XState machine of its domain events. The poker lives in `reduce`; each snapshot's
 * context holds where the hand stands and, in `outputs`, the incidents and prompts its event brought out,
 * which the display, MQTT, the journal and replays read after each send.
 *
 * It has one state on purpose: the hand's lifecycle is `hand.status` (see `phaseOf`), set by the poker
 * that decides it. Mirroring it in state nodes cost eventless transitions re-evaluated on every event,
 * and emitting each output as an event kept every step's garbage alive past the young generation: the
 * two tripled the cost of an event (docs/benchmarks.md).
 */
export const tableMachine = setup({
  types: {
    context: {} as TableContext,
    events: {} as DomainEvent,
    input: {} as TableConfig,
  },
  actions: {
    step: assign(({ context, event }) => reduce(context, event)),
  },
}).createMachine({
  id: 'table',
  context: ({ input }) => initialContext(input),
  on: { '*': { actions: 'step' } },
});

/**
 * Where the hand stands: no hand yet (`idle`), hole cards being pitched, a betting round, the showdown,
 * `ended` (won, shown down or ended by the dealer), `void` (misdeal or hand void: redeal) or `floor`
 * (CALL_FLOOR: the floor decides, the machine watches).
 */
export type Phase = 'idle' | Exclude<HandStatus, 'over'> | 'ended';

export function phaseOf(context: TableContext): Phase {
  const status = context.hand?.status;
  if (status === undefined) return 'idle';
  return status === 'over' ? 'ended' : status;
}
