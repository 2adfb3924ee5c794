import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The dealer display: built into dist/display, which croupier's HTTP server serves as static files. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../../../dist/display', import.meta.url)),
    emptyOutDir: true,
    // Chromium on the Pi: no legacy output needed.
    target: 'es2022',
  },
});
