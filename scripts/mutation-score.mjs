import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { calculateMetrics } from 'mutation-testing-metrics';
import { glob } from 'tinyglobby';
import { MUTATE, RESULTS } from './mutation-scope.mjs';

/**
 * `npm run mutate:score`: the mutation score of the whole scope from the results every run has kept
 * (`npm run mutate`, or a part of it with `-- --mutate <file>`), file by file: which files were never
 * run, and which changed since their run (the next run tests their changed mutants again). Stryker's
 * own report gives only the files of the run that wrote it.
 */

const scope = (await glob(MUTATE)).sort();
const report = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : { files: {} };
const results = new Map(
  Object.entries(report.files).map(([name, file]) => [relative('.', resolve(name)), file]),
);

const rows = [];
const run = {};
let never = 0;
let changed = 0;
for (const name of scope) {
  const file = results.get(name);
  if (file === undefined) {
    never++;
    rows.push([name, '', '', '', '', '', 'never run']);
    continue;
  }
  run[name] = file;
  const m = calculateMetrics({ [name]: file }).metrics;
  const current = readFileSync(name, 'utf8') === file.source;
  if (!current) changed++;
  rows.push([
    name,
    m.totalValid,
    m.killed,
    m.timeout,
    m.survived + m.noCoverage,
    percent(m.mutationScore),
    current ? '' : 'changed since its run',
  ]);
}

const total = calculateMetrics(run).metrics;
const header = ['file', 'mutants', 'killed', 'timed out', 'survived', 'score', ''];
const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => String(row[i]).length)));
for (const row of [header, ...rows]) {
  console.log(
    row
      .map((cell, i) => String(cell).padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
console.log(
  `\n${scope.length} files in scope, ${scope.length - never} run (${changed} changed since), ${never} never run`,
);
console.log(
  `score over the files run: ${percent(total.mutationScore)} (${total.totalDetected} of ${total.totalValid} mutants killed or timed out)`,
);

function percent(score) {
  return Number.isNaN(score) ? '-' : `${score.toFixed(1)} %`;
}
