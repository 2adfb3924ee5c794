#!/usr/bin/env node
// Stack traces name croupier's compiled modules (dist/src) rather than the bundle's chunks.
process.setSourceMapsEnabled(true);
await import('../dist/bundle/main.js');
