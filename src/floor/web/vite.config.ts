import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The floor's page: built into dist/floor, which `croupier floor` serves as static files. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../../../dist/floor', import.meta.url)),
    emptyOutDir: true,
    // The floor's tablets run a current browser: no legacy output needed.
    target: 'es2022',
  },
});
