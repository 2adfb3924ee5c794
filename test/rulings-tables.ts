/**
 * What RULINGS.md's incident tables say, read from the text itself rather than from
 * test/rulings-catalogue.ts: a row the catalogue forgot is still asked of the corpus.
 */

/** One thing a profile's column gives for an incident: a ruling, or a prompt (no ruling code). */
export interface TableRuling {
  profile: string;
  incident: string;
  /** null for a prompt ("prompt: all hands face up"), which is not an error. */
  ruling: string | null;
}

interface Row {
  incidents: string[];
  /** The row's first cell, bold marks removed: what tells one `EXPOSED_CARD` row from another. */
  label: string;
  /** Cell text by profile id. */
  cells: Map<string, string>;
}

const CODE = /`([A-Z][A-Z0-9_]*)`/g;
const LEGEND = /`([A-Z][A-Z0-9]*)`\s*=\s*`([a-z0-9-]+)`/g;
/** FLASHED_CARD's "ruling as for `EXPOSED_CARD` by the dealer" (or "as `EXPOSED_CARD` …"): the rulings of those rows. */
const AS_FOR = /as (?:for )?`([A-Z_]+)` by the (\w+)/;
const EVERY_PROFILE = 'every profile';
const SAME = 'same';

function codes(text: string): string[] {
  return [...text.matchAll(CODE)].map((match) => match[1] as string);
}

function cellsOf(line: string): string[] {
  return line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

const SEPARATOR = /^\|[\s|:-]+\|$/;

/** Each markdown table: its header cells and its body rows' cells (the separator line left out). */
function tables(text: string): Table[] {
  const found: Table[] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    const isRow = line.startsWith('|');
    if (isRow && !inTable) found.push({ header: cellsOf(line), body: [] });
    else if (isRow && !SEPARATOR.test(line)) found.at(-1)?.body.push(cellsOf(line));
    inTable = isRow;
  }
  return found;
}

type Table = { header: string[]; body: string[][] };

/** The rows of the incident tables, each profile's cell read ("same" is the first profile column's). */
function incidentRows(all: readonly Table[], columns: ReadonlyMap<string, readonly string[]>): Row[] {
  return all
    .filter((table) => table.header[0] === 'incident')
    .flatMap(({ header, body }) => {
      const profileColumns = header.flatMap((name, i) =>
        (columns.get(name) ?? []).map((id) => [id, i] as const),
      );
      const first = profileColumns[0]?.[1];
      return body.map((cells): Row => {
        const label = (cells[0] ?? '').replaceAll('**', '');
        const text = (i: number) => {
          const cell = cells[i] ?? '';
          return cell === SAME && first !== undefined ? (cells[first] ?? '') : cell;
        };
        return {
          incidents: codes(label),
          label,
          cells: new Map(profileColumns.map(([id, i]) => [id, text(i)])),
        };
      });
    });
}

/**
 * Every (profile, incident, ruling) that the incident tables give. A profile column's cell names its
 * rulings in backticks (the codes of the ruling tables); "same" is the first profile column's cell;
 * "every profile" is each of `profiles`; a cell with no ruling code must be a prompt. Throws on a cell
 * it cannot read, so that a change of wording is not a row silently dropped. A contract without ruling
 * tables of its own (RULINGS-tda-2024.md) names the ruling codes it builds on in `knownRulings`.
 */
export function rulingsOfTables(
  text: string,
  profiles: readonly string[],
  knownRulings: readonly string[] = [],
): TableRuling[] {
  const columns = new Map([...text.matchAll(LEGEND)].map((m) => [m[1] as string, [m[2] as string]]));
  columns.set(EVERY_PROFILE, [...profiles]);
  const all = tables(text);
  const rulings = new Set([
    ...knownRulings,
    ...all
      .filter((t) => t.header[0] === 'ruling')
      .flatMap((t) => t.body.flatMap((row) => codes(row[0] ?? ''))),
  ]);
  const rows = incidentRows(all, columns);

  const rulingsOf = (row: Row, profile: string): (string | null)[] => {
    const cell = row.cells.get(profile) ?? '';
    const asFor = AS_FOR.exec(cell);
    if (asFor) {
      const [, incident, by] = asFor;
      const like = rows.filter(
        (r) => r.incidents.includes(incident as string) && r.label.includes(`by the ${by}`),
      );
      if (like.length === 0)
        throw new Error(`RULINGS.md: no ${incident} row by the ${by} for "${row.label}"`);
      return like.flatMap((r) => rulingsOf(r, profile));
    }
    const found = codes(cell).filter((code) => rulings.has(code));
    if (found.length > 0) return found;
    if (cell.startsWith('prompt')) return [null];
    throw new Error(`RULINGS.md: no ruling code for ${profile} in "${row.label}": "${cell}"`);
  };

  return rows.flatMap((row) =>
    [...row.cells.keys()].flatMap((profile) =>
      row.incidents.flatMap((incident) =>
        rulingsOf(row, profile).map((ruling) => ({ profile, incident, ruling })),
      ),
    ),
  );
}
