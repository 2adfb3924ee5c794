import Database from 'better-sqlite3';
import { INCIDENTS, type IncidentCode } from '../rules/types.js';

/** 'CRPF' in SQLite's application_id: a floor's statistics file, never a table's journal. */
const APPLICATION_ID = 0x43525046;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS downs (
  table_id TEXT NOT NULL,
  since INTEGER NOT NULL,
  dealer TEXT,
  after_hand INTEGER NOT NULL,
  last_hand INTEGER NOT NULL,
  PRIMARY KEY (table_id, since)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS incidents (
  table_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  code TEXT NOT NULL,
  ruling TEXT NOT NULL,
  floor INTEGER NOT NULL,
  seen INTEGER NOT NULL,
  PRIMARY KEY (table_id, at, code)
) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS calls (
  table_id TEXT NOT NULL,
  call TEXT NOT NULL,
  since INTEGER NOT NULL,
  PRIMARY KEY (table_id, call, since)
) STRICT, WITHOUT ROWID;
`;

/** One dealer down at one table, as the statistics page and the CSV give it. */
export interface DownStats {
  table: string;
  /** Null: no dealer signed in at the table (its hands counted all the same). */
  dealer: string | null;
  since: number;
  /** When the next down at the table began, or null for the one going on. */
  until: number | null;
  hands: number;
  incidents: Partial<Record<IncidentCode, number>>;
  misdeals: number;
  /** The dealer's calls, the procedures under the floor's eye and the CALL_FLOOR rulings. */
  floorCalls: number;
  misdealsPer100: number | null;
  floorCallsPer100: number | null;
}

/**
 * The floor's statistics, in its own SQLite file: per table and dealer down, the hands dealt, the
 * incidents by code, misdeals and floor calls. Every row is a fact with its natural key (a down by its
 * table and sign-in, an incident by its table and journal sequence, a call by its table and key), so a
 * message heard twice, by a restarted service or by two sharing the file, is counted once.
 *
 * An incident belongs to the down whose sign-in precedes it (the tables and the floor keep NTP time);
 * a down's hands are those numbered above the table's count at its sign-in, up to the last one seen.
 * Services of one stats group sharing the file count the room exactly; with a file each, each holds a
 * share of every fact (their sum is exact), and of the downs what its share of the states told it.
 */
export class FloorStats {
  readonly #db: Database.Database;
  readonly #down: Database.Statement;
  readonly #incident: Database.Statement;
  readonly #call: Database.Statement;

  constructor(readonly path: string) {
    this.#db = new Database(path);
    try {
      const id = this.#db.pragma('application_id', { simple: true }) as number;
      const tables = this.#db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number };
      if (id !== APPLICATION_ID && (id !== 0 || tables.n > 0))
        throw new Error(`${path}: not a croupier floor statistics file (a journal, or another program's?)`);
      this.#db.pragma('journal_mode = WAL');
      // Two floor services may share the file: a writer waits for the other's commit.
      this.#db.pragma('busy_timeout = 5000');
      this.#db.exec(SCHEMA);
      this.#db.pragma(`application_id = ${APPLICATION_ID}`);
    } catch (error) {
      this.#db.close();
      throw error;
    }
    this.#down = this.#db.prepare(
      `INSERT INTO downs (table_id, since, dealer, after_hand, last_hand) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET after_hand = min(after_hand, excluded.after_hand),
         last_hand = max(last_hand, excluded.last_hand)`,
    );
    this.#incident = this.#db.prepare('INSERT OR IGNORE INTO incidents VALUES (?, ?, ?, ?, ?, ?)');
    this.#call = this.#db.prepare('INSERT OR IGNORE INTO calls VALUES (?, ?, ?)');
  }

  /**
   * A table's state: its down so far (`dealer` null when none signed in: the hands since the floor
   * first saw the table, `since` 0) up to `hand`.
   */
  down(table: string, down: { dealer: string | null; since: number; afterHand: number }, hand: number): void {
    this.#down.run(table, down.since, down.dealer, down.afterHand, Math.max(hand, down.afterHand));
  }

  incident(
    table: string,
    incident: { at: number; code: string; ruling: string; floor: boolean },
    seen: number,
  ): void {
    this.#incident.run(table, incident.at, incident.code, incident.ruling, incident.floor ? 1 : 0, seen);
  }

  /** A dealer's call, by the table's key for it and since when it waits. */
  call(table: string, key: string, since: number): void {
    this.#call.run(table, key, since);
  }

  /** Every down, by table then sign-in. */
  downs(): DownStats[] {
    const downs = this.#db
      .prepare(
        // What the file counted of a table before any down it knows (the table's states reached another
        // service of the stats group) is a down of its own: no dealer, no hand known.
        `WITH spans AS (
           SELECT table_id, since, dealer, last_hand - after_hand AS hands FROM downs
           UNION ALL
           SELECT facts.table_id, 0, NULL, 0 FROM (
             SELECT table_id, min(seen) AS first FROM incidents GROUP BY table_id
             UNION ALL SELECT table_id, min(since) FROM calls GROUP BY table_id
           ) AS facts
           GROUP BY facts.table_id
           HAVING min(facts.first) < coalesce(
             (SELECT min(since) FROM downs WHERE downs.table_id = facts.table_id), 9e18)
         )
         SELECT table_id, since, dealer, hands,
           lead(since) OVER (PARTITION BY table_id ORDER BY since) AS until
         FROM spans ORDER BY table_id, since`,
      )
      .all() as {
      table_id: string;
      since: number;
      dealer: string | null;
      hands: number;
      until: number | null;
    }[];
    const within = (column: string) => `table_id = ? AND ${column} >= ? AND (? IS NULL OR ${column} < ?)`;
    const incidents = this.#db.prepare(
      `SELECT code, count(*) AS n, sum(ruling = 'MISDEAL') AS misdeals,
         sum(floor = 1 OR ruling = 'CALL_FLOOR') AS floor
       FROM incidents WHERE ${within('seen')} GROUP BY code ORDER BY code`,
    );
    const calls = this.#db.prepare(`SELECT count(*) AS n FROM calls WHERE ${within('since')}`);
    return downs.map(({ table_id: table, since, dealer, hands, until }) => {
      const span = [table, since, until, until];
      const codes = incidents.all(...span) as {
        code: IncidentCode;
        n: number;
        misdeals: number;
        floor: number;
      }[];
      const { n: called } = calls.get(...span) as { n: number };
      const misdeals = codes.reduce((sum, row) => sum + row.misdeals, 0);
      const floorCalls = called + codes.reduce((sum, row) => sum + row.floor, 0);
      const per100 = (n: number) => (hands > 0 ? Math.round((n * 10_000) / hands) / 100 : null);
      return {
        table,
        dealer,
        since,
        until,
        hands,
        incidents: Object.fromEntries(codes.map((row) => [row.code, row.n])),
        misdeals,
        floorCalls,
        misdealsPer100: per100(misdeals),
        floorCallsPer100: per100(floorCalls),
      };
    });
  }

  close(): void {
    this.#db.close();
  }
}

const CSV_COLUMNS = [
  'table',
  'dealer',
  'since',
  'until',
  'hands',
  'misdeals',
  'misdeals_per_100',
  'floor_calls',
  'floor_calls_per_100',
  ...INCIDENTS,
] as const;

/** The downs as CSV: one line each, times in ISO 8601, one column per incident code. */
export function statsCsv(downs: readonly DownStats[]): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const time = (ms: number | null) => (ms === null || ms === 0 ? null : new Date(ms).toISOString());
  const lines = downs.map((down) =>
    [
      down.table,
      down.dealer,
      time(down.since),
      time(down.until),
      down.hands,
      down.misdeals,
      down.misdealsPer100,
      down.floorCalls,
      down.floorCallsPer100,
      ...INCIDENTS.map((code) => down.incidents[code] ?? 0),
    ]
      .map(cell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\n')}\n`;
}
