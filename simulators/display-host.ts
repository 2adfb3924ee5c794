import { NEVER } from 'rxjs';
import { TableHealth } from '../src/controller/health.js';
import type { SourceEvent, TableSnapshot } from '../src/controller/pipeline.js';
import type { DisplayOptions } from '../src/display/server.js';
import { dealerTouches } from '../src/display/touch-policy.js';
import { FloorDesk } from '../src/supervisor/desk.js';
import { nextHand } from '../src/table/next-hand.js';

/**
 * The dealer display's server options around a fixed table snapshot, with no devices, no supervisor
 * and the clock at 42: what the display's fuzz target and its route tests serve. The touches taken
 * and the refusals counted go to the caller's lists.
 */
export function displayHost(
  snapshot: TableSnapshot,
  { inputs, refused }: { inputs: SourceEvent[]; refused: string[] },
): DisplayOptions {
  const { seats, profile } = snapshot.context;
  return {
    hello: {
      table: 't1',
      version: 'test',
      profile,
      language: 'en',
      seats,
      supervisors: false,
      dealers: false,
    },
    updates: NEVER,
    snapshot: () => snapshot,
    health: new TableHealth('t1', 'test', () => 0),
    nextHand: (table, t) => nextHand(table.context, t),
    mayTouch: dealerTouches([]),
    desk: new FloorDesk([], { now: () => 0 }),
    badges: NEVER,
    input: (event) => inputs.push(event),
    now: () => 42,
    refused: (_, reason) => refused.push(reason),
    recentHands: () => [],
  };
}
