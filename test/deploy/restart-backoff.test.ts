import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fakeCommands } from './fake-commands.js';

const runtime = mkdtempSync(join(tmpdir(), 'croupier-run-'));
afterEach(() => rmSync(join(runtime, 'starts'), { force: true }));
afterAll(() => rmSync(runtime, { recursive: true, force: true }));

/** croupier.service's ExecStartPre at `now` (seconds): how long it waited. */
function startAt(now: number): string[] {
  const system = fakeCommands({ date: `echo ${now}`, sleep: '' });
  const { status } = system.run('restart-backoff.sh', [], { RUNTIME_DIRECTORY: runtime });
  expect(status).toBe(0);
  return system.calls().filter((call) => call.startsWith('sleep'));
}

describe('restart backoff (ExecStartPre)', () => {
  it('waits nothing at the first start, then 1 s, 2 s, 4 s … up to a minute between quick restarts', () => {
    const waits = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90].map((t) => startAt(1000 + t));
    expect(waits).toEqual([
      [],
      ['sleep 1'],
      ['sleep 2'],
      ['sleep 4'],
      ['sleep 8'],
      ['sleep 16'],
      ['sleep 32'],
      ['sleep 60'],
      ['sleep 60'],
      ['sleep 60'],
    ]);
  });

  it('starts afresh after 5 minutes of running', () => {
    expect([startAt(1000), startAt(1100), startAt(1200)]).toEqual([[], ['sleep 1'], ['sleep 2']]);
    expect([startAt(1501), startAt(1510)]).toEqual([[], ['sleep 1']]);
  });

  it('never keeps the table down for a damaged count', () => {
    writeFileSync(join(runtime, 'starts'), 'garbage\n');
    expect(startAt(1000)).toEqual([]);
    writeFileSync(join(runtime, 'starts'), '');
    expect(startAt(1000)).toEqual([]);
  });
});
