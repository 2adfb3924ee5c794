import { Subject } from 'rxjs';
import { callKey, type PublicState } from '../outputs/public.js';
import { openCall, openCalls } from './calls.js';
import type { FloorMessage, OpenCall, TableTile } from './protocol.js';
import type { TableMessage, TableStatusPayload } from './topics.js';

interface Table {
  status?: TableStatusPayload;
  state?: PublicState;
  /** When the floor first saw the open call, for a table that does not say (`call.since`). */
  seen?: { key: string; at: number };
  tile: TableTile;
  /** The tile as last said to the pages, to say only changes. */
  said: string;
}

/**
 * The card room as the floor sees it: every table's retained status and public state, and nothing
 * else. It holds nothing the broker's retained messages cannot rebuild: a restarted floor service is
 * whole again from one retained read. Each change of a table's tile is said once (`changes`).
 */
export class Room {
  readonly changes = new Subject<Extract<FloorMessage, { type: 'tile' | 'gone' }>>();
  readonly #tables = new Map<string, Table>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A message of a table's `status` or `state` (an incident's shows in the state that follows it). */
  apply(message: Exclude<TableMessage, { refused: string }>): void {
    if (message.topic === 'incident') return;
    const table = this.#tables.get(message.table) ?? { tile: emptyTile(message.table), said: '' };
    if ('cleared' in message) {
      if (message.topic === 'status') delete table.status;
      else delete table.state;
      if (!table.status && !table.state) {
        if (this.#tables.delete(message.table)) this.changes.next({ type: 'gone', table: message.table });
        return;
      }
    } else if (message.topic === 'status') table.status = message.status;
    else table.state = message.state;
    this.#tables.set(message.table, table);
    this.#retile(message.table, table);
  }

  tiles(): TableTile[] {
    return [...this.#tables.values()].map((table) => table.tile);
  }

  /** The open incidents and calls, most urgent first. */
  calls(): OpenCall[] {
    return openCalls(this.tiles());
  }

  /** Every table's status and public state, as the tables published them. */
  tables(): { id: string; status: TableStatusPayload | null; state: PublicState | null }[] {
    return [...this.#tables].map(([id, table]) => ({
      id,
      status: table.status ?? null,
      state: table.state ?? null,
    }));
  }

  get size(): number {
    return this.#tables.size;
  }

  /** The tables whose state the floor has: the room is whole when every table has one. */
  get stated(): number {
    let stated = 0;
    for (const table of this.#tables.values()) if (table.state) stated++;
    return stated;
  }

  #retile(id: string, table: Table): void {
    const { status, state } = table;
    const key = state ? callKey(state) : null;
    if (key === null) delete table.seen;
    else if (table.seen?.key !== key) table.seen = { key, at: this.now() };
    table.tile = {
      id,
      status: status?.state ?? 'unknown',
      version: status?.version ?? null,
      profile: state?.profile ?? null,
      phase: state?.phase ?? null,
      street: state?.street ?? null,
      hand: state?.hand ?? null,
      dealer: state?.dealer?.name ?? null,
      devices: state?.devices ?? [],
      call: state && table.seen ? openCall(id, state, table.seen.key, table.seen.at) : null,
    };
    const said = JSON.stringify(table.tile);
    if (said === table.said) return;
    table.said = said;
    this.changes.next({ type: 'tile', tile: table.tile });
  }
}

function emptyTile(id: string): TableTile {
  return {
    id,
    status: 'unknown',
    version: null,
    profile: null,
    phase: null,
    street: null,
    hand: null,
    dealer: null,
    devices: [],
    call: null,
  };
}
