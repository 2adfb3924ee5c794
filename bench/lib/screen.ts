import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Heard } from '../ws-listener.js';

/** A WebSocket client in another process (bench/ws-listener.ts), its messages taken in arrival order. */
export interface Screen {
  /** The next message that `wanted` accepts (the others are dropped), or an error after `ms`. */
  next(wanted: (message: unknown) => boolean, ms?: number): Promise<Heard>;
  close(): Promise<void>;
}

const LISTENER = join(dirname(fileURLToPath(import.meta.url)), '..', 'ws-listener.js');

export async function openScreen(url: string): Promise<Screen> {
  const child = fork(LISTENER, [url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const queue: Heard[] = [];
  let waiting: (() => void) | undefined;
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: 'open' | Heard) => {
      if (message === 'open') return resolve();
      queue.push(message);
      waiting?.();
    });
    void exited.then(() => reject(new Error(`the WebSocket client of ${url} ended`)));
  });
  return {
    async next(wanted, ms = 5000) {
      const deadline = performance.now() + ms;
      for (;;) {
        const heard = queue.shift();
        if (heard !== undefined) {
          if (wanted(JSON.parse(heard.text))) return heard;
          continue;
        }
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no awaited message from ${url} within ${ms} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        waiting = undefined;
      }
    },
    async close() {
      child.disconnect();
      await exited;
    },
  };
}
