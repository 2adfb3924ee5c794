import { type Actor, createActor, type SnapshotFrom } from 'xstate';
import { profileById } from '../rules/index.js';
import { tableMachine } from './machine.js';
import { configured, type TableConfig } from './reduce.js';

/**
 * The table machine's snapshots for the journal: stored at each hand start, restored after a crash.
 * Bump the version whenever the context's shape or the machine's states change: a snapshot of another
 * version is not trusted, the hand is rebuilt from its events instead. The context names its rule
 * profile by id, which must be the config's.
 */
export const MACHINE_VERSION = 'table-7';

type Persisted = ReturnType<Actor<typeof tableMachine>['getPersistedSnapshot']> & {
  context: SnapshotFrom<typeof tableMachine>['context'];
};

export function persistTable(actor: Actor<typeof tableMachine>): unknown {
  return actor.getPersistedSnapshot();
}

/** The table a stored snapshot was taken at (its seats, window and rulebook), or null for another version. */
export function storedTableConfig(stored: { machineVersion: string; state: unknown }): TableConfig | null {
  const context = (stored.state as Persisted | null)?.context;
  const profile = context && profileById(context.profile);
  if (stored.machineVersion !== MACHINE_VERSION || !profile) return null;
  return { seats: context.seats, profile, orderWindowMs: context.orderWindowMs };
}

/**
 * An actor resumed from a stored snapshot (not started), or null when the snapshot is of another machine
 * version or another rulebook than the config's: the caller then rebuilds the hand from its events.
 */
export function restoreTable(
  stored: { machineVersion: string; state: unknown },
  config: TableConfig,
): Actor<typeof tableMachine> | null {
  const persisted = stored.state as Persisted | null;
  if (stored.machineVersion !== MACHINE_VERSION || persisted?.context?.profile !== config.profile.id)
    return null;
  // The rulebook, blinds, levels and decks are the config's as it is now.
  const context = { ...persisted.context, ...configured(config) };
  const snapshot = { ...persisted, context };
  return createActor(tableMachine, { input: config, snapshot: snapshot as never });
}
