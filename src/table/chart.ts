import { tableMachine } from './machine.js';

/**
 * The table's statechart as code Stately's visualiser opens (stately.ai/viz: paste it): the states,
 * transitions, guards, actions and tags by name, without the context, which comes from the config.
 */
export function chartSource(): string {
  const { context: _context, ...chart } = tableMachine.config;
  return `import { createMachine } from 'xstate';\n\nexport const table = createMachine(${JSON.stringify(chart, null, 2)});\n`;
}
