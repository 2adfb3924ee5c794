#!/usr/bin/env node
// The bundle's source maps are not loaded by default (they would cost ~20 MB of memory): run with
// NODE_OPTIONS=--enable-source-maps for stack traces that name croupier's compiled modules (dist/src).
import '../dist/bundle/main.js';
