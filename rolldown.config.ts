import { defineConfig } from 'rolldown';

/**
 * `croupier` as one bundle (dist/bundle), built from tsc's output: loading a few files rather than the
 * thousand or so of its dependencies halves the time from process start to a table ready to play (issue
 * 6: cold start; on a Pi, how soon a table is back after a power cut). Native modules stay in
 * node_modules, where their compiled bindings are found.
 */
export default defineConfig({
  input: 'dist/src/cli/main.js',
  platform: 'node',
  external: [/^node:/, 'better-sqlite3', 'serialport', /^@serialport\/bindings-cpp/, 'node-hid'],
  output: { dir: 'dist/bundle', format: 'esm', sourcemap: true, cleanDir: true },
});
