/** What `npm run mutate` mutates and where it keeps its results (stryker.config.mjs, mutation-score.mjs). */

/** The poker: the table, the rulebooks and the domain. Files of types only (nothing to mutate) are left out. */
export const MUTATE = ['src/{table,rules,domain}/**/*.ts', '!src/table/state.ts', '!src/table/update.ts'];

/**
 * Every run's results, kept in the repository: a run over one file keeps the other files' results, and
 * the next run tests again only the mutants whose code or covering tests changed (the whole scope is
 * many hours on a 2-vCPU host, so its score is built file by file, across sessions).
 */
export const RESULTS = 'docs/mutation/incremental.json';
