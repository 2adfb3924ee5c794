import { beforeEach } from 'vitest';

/**
 * Setup of the mutation run (vitest.mutate.config.ts): the soak hands are left out. They replay the
 * machine the corpus replays, thousands of hands over, and took 14 of the 37 seconds every mutant the
 * corpus leaves alive was run for; `npm test` still runs them.
 */
beforeEach((context) => {
  if (/\bsoak hands\b/.test(context.task.name)) context.skip();
});
