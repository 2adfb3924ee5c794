import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Figures, figureNamed } from './lib/figures.js';

/**
 * Compares two runs of `npm run bench` figure by figure, as ratios (after ÷ before), and flags a figure
 * worse by more than the threshold. Each run is a file holding the bench's output (its last JSON line
 * is read) or that JSON line itself. Exits 0 whatever it finds, unless asked to fail (`--fail-over`).
 *
 *   node dist/bench/compare.js BEFORE AFTER [--threshold 0.2] [--fail-over]
 */

export interface Comparison {
  figure: string;
  before: number | null;
  after: number | null;
  /** after ÷ before; null when either is missing or before is 0. */
  ratio: number | null;
  /** Worse by more than the threshold, in the figure's own direction (a rate falls, a time grows). */
  worse: boolean;
}

/** The figures of a run: its output's last line that is a JSON object. */
export function readRun(text: string): Figures {
  const lines = text.trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.trimStart().startsWith('{')) continue;
    try {
      return JSON.parse(line) as Figures;
    } catch {
      // A line of the table that happens to start with a brace: read on.
    }
  }
  throw new Error('no JSON line of figures in it');
}

export function compareRuns(before: Figures, after: Figures, threshold: number): Comparison[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return names.map((figure) => {
    const [was, is] = [before[figure] ?? null, after[figure] ?? null];
    const ratio = was !== null && is !== null && was !== 0 ? is / was : null;
    const better = figureNamed(figure)?.better;
    const worse =
      ratio !== null &&
      (better === 'higher' ? ratio < 1 - threshold : better === 'lower' && ratio > 1 + threshold);
    return { figure, before: was, after: is, ratio, worse };
  });
}

function main(): number {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      threshold: { type: 'string', default: '0.2' },
      'fail-over': { type: 'boolean', default: false },
    },
  });
  const threshold = Number(values.threshold);
  const [before, after] = positionals;
  if (before === undefined || after === undefined || positionals.length > 2 || !(threshold >= 0)) {
    process.stderr.write('usage: compare BEFORE AFTER [--threshold 0.2] [--fail-over]\n');
    return 2;
  }
  const run = (source: string) => {
    try {
      return readRun(source.trimStart().startsWith('{') ? source : readFileSync(source, 'utf8'));
    } catch (error) {
      throw new Error(`${source}: ${(error as Error).message}`);
    }
  };
  const rows = compareRuns(run(before), run(after), threshold);
  const width = Math.max(...rows.map(({ figure }) => figure.length));
  const shown = (value: number | null) => String(value ?? '—').padStart(10);
  process.stdout.write(
    `${'figure'.padEnd(width)} ${'before'.padStart(10)} ${'after'.padStart(10)} after÷before\n`,
  );
  for (const { figure, before: was, after: is, ratio, worse } of rows) {
    const flag = worse ? `  worse by more than ${threshold * 100}%` : '';
    process.stdout.write(
      `${figure.padEnd(width)} ${shown(was)} ${shown(is)} ${ratio === null ? '' : `×${ratio.toFixed(2)}`}${flag}\n`,
    );
  }
  const worse = rows.filter((row) => row.worse).length;
  process.stdout.write(`${worse} figure(s) worse by more than ${threshold * 100}%\n`);
  return values['fail-over'] && worse > 0 ? 1 : 0;
}

// Run as a command, not when a test imports it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (error) {
    process.stderr.write(`compare: ${(error as Error).message}\n`);
    process.exitCode = 2;
  }
}
