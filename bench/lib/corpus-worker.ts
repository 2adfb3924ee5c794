import { parentPort } from 'node:worker_threads';
import { corpusEvents, loadCorpus } from './corpus.js';

/** Loads one pass of the corpus in a worker thread (see `corpusEventsApart`) and hands its events over. */
parentPort?.postMessage(corpusEvents(loadCorpus()));
