import { mulberry32 } from '../random.js';
import { LoadTable, type PublishedIncident } from './table.js';
import { CLEAN_TAPES, INCIDENT_TAPES, recordTape, type Tape } from './tapes.js';

/**
 * A card room's public traffic for the floor (issue 20): N simulated tables on the casino's broker,
 * each on its own connection, playing recorded hands; incidents at a rate per table, and in bursts
 * (several tables at once, as when a shift changes); dealers' calls; dealer downs; tables going
 * offline (their will) and back. Seeded: the same seed plays the same room.
 */
export interface FloorLoadOptions {
  url: string;
  username?: string;
  password?: string;
  tables: number;
  /** Table ids are `<prefix><n>` (n from 1, three digits at least). */
  prefix?: string;
  seed?: number;
  /** How long one recorded hand takes to play (its frames spread over it). */
  handMs?: number;
  incidentsPerTableHour?: number;
  callsPerTableHour?: number;
  /** Every this long, `burstSize` tables raise an incident at once (0: no bursts). */
  burstEveryMs?: number;
  burstSize?: number;
  offlinePerTableHour?: number;
  offlineMs?: number;
  /** How long a raised incident holds its table's play (the procedure under way) before it goes on. */
  incidentMs?: number;
  /** How long a dealer's call lasts, until the floor's decision. */
  callMs?: number;
  /** A dealer's down, before the next one signs in. */
  downMs?: number;
  /** Told of each incident and call the moment a table publishes it. */
  published?(incident: PublishedIncident): void;
}

export interface FloorLoad {
  tables: readonly LoadTable[];
  /** What was published so far. */
  counts(): { incidents: number; calls: number; offline: number };
  /** `n` tables raise an incident now (a burst), tables not already in one. */
  burst(n: number): void;
  /** `table` plays on no further: it stays connected, its state (and any call) as it is, until the stop. */
  hold(table: LoadTable): void;
  /** Stops every table; `forget`: they leave the room, their retained messages cleared. */
  stop(options?: { forget?: boolean }): Promise<void>;
}

const TICK_MS = 100;
const CONNECTING = 50;
const PROFILES = ['main-event-2014', 'french-casino', 'tda-2007', 'tda-2024'];
const DEALERS = ['Alice', 'Bruno', 'Chloé', 'Driss', 'Emma', 'Farid', 'Gaëlle', 'Hugo', 'Inès', 'Jules'];

export async function startFloorLoad(options: FloorLoadOptions): Promise<FloorLoad> {
  const random = mulberry32(options.seed ?? 20);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const clean = CLEAN_TAPES.map(recordTape);
  const incidents = INCIDENT_TAPES.map(recordTape).filter((tape) => tape.incidentAt >= 0);
  const handMs = options.handMs ?? 90_000;
  const perTick = (perHour: number) => (perHour * TICK_MS) / 3_600_000;
  const counts = { incidents: 0, calls: 0, offline: 0 };
  const prefix = options.prefix ?? 'load-';
  const tables = Array.from(
    { length: options.tables },
    (_, i) =>
      new LoadTable({
        id: `${prefix}${String(i + 1).padStart(3, '0')}`,
        url: options.url,
        username: options.username,
        password: options.password,
        profile: pick(PROFILES),
        published: (incident) => {
          if (incident.incident === null) counts.calls++;
          else counts.incidents++;
          options.published?.(incident);
        },
      }),
  );
  for (let i = 0; i < tables.length; i += CONNECTING)
    await Promise.all(tables.slice(i, i + CONNECTING).map((table) => table.connect()));

  interface Pace {
    next: number;
    every: number;
    back?: number;
    callEnds?: number;
    down: number;
  }
  const now = () => performance.now();
  const downMs = options.downMs ?? 30 * 60_000;
  const paces = new Map<LoadTable, Pace>();
  const held = new Set<LoadTable>();
  const play = (table: LoadTable, tape: Tape, atIncident = false) => {
    table.load(tape, { atIncident });
    const pace = paces.get(table);
    if (pace) pace.every = handMs / Math.max(1, tape.frames.length);
  };
  for (const table of tables) {
    table.signIn(pick(DEALERS));
    // Tables are spread over the hand: not all of them step on the same tick.
    paces.set(table, {
      next: now() + random() * handMs * 0.1,
      every: handMs / 20,
      down: now() + random() * downMs,
    });
    play(table, pick(clean));
  }
  const raise = (table: LoadTable) => {
    if (!table.online || inIncident(table)) return;
    play(table, pick(incidents), true);
    table.step();
    (paces.get(table) as Pace).next = now() + (options.incidentMs ?? 30_000);
  };

  const tick = () => {
    const at = now();
    for (const table of tables) {
      if (held.has(table)) continue;
      const pace = paces.get(table) as Pace;
      if (pace.back !== undefined) {
        if (at < pace.back) continue;
        delete pace.back;
        void table.connect();
        continue;
      }
      if (random() < perTick(options.offlinePerTableHour ?? 0.2)) {
        counts.offline++;
        table.drop();
        pace.back = at + (options.offlineMs ?? 15_000);
        continue;
      }
      if (pace.callEnds !== undefined && at >= pace.callEnds) {
        delete pace.callEnds;
        table.callFloor(true);
      } else if (pace.callEnds === undefined && random() < perTick(options.callsPerTableHour ?? 0.5)) {
        pace.callEnds = at + (options.callMs ?? 20_000);
        table.callFloor();
      }
      if (random() < perTick(options.incidentsPerTableHour ?? 2)) raise(table);
      if (at >= pace.down) {
        pace.down = at + downMs;
        table.signIn(pick(DEALERS));
      }
      if (at < pace.next) continue;
      pace.next = at + pace.every * (0.5 + random());
      if (!table.step()) play(table, pick(clean));
    }
  };
  const ticking = setInterval(tick, TICK_MS);
  const burstEvery = options.burstEveryMs ?? 60_000;
  const burst = (n: number) => {
    const idle = tables.filter((table) => table.online && !held.has(table) && !inIncident(table));
    for (let i = 0; i < n && idle.length > 0; i++)
      raise(idle.splice(Math.floor(random() * idle.length), 1)[0] as LoadTable);
  };
  const bursting = burstEvery > 0 ? setInterval(() => burst(options.burstSize ?? 5), burstEvery) : undefined;
  return {
    tables,
    counts: () => ({ ...counts }),
    burst,
    hold: (table) => held.add(table),
    async stop(options) {
      clearInterval(ticking);
      clearInterval(bursting);
      await Promise.all(tables.map((table) => table.close(options).catch(() => undefined)));
    },
  };
}

/** A table playing a hand with an incident: it raises no other until the next hand. */
function inIncident(table: LoadTable): boolean {
  return (table.playing?.incidentAt ?? -1) >= 0;
}
