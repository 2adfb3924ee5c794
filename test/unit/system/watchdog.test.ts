import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LoopDelay, startWatchdog, type WatchdogOptions } from '../../../src/system/watchdog.js';

const SYSTEMD = { NOTIFY_SOCKET: '/run/systemd/notify' };
/** WatchdogSec=30: a ping every 15 s. */
const WATCHED = { ...SYSTEMD, WATCHDOG_USEC: '30000000' };

/** A watchdog whose messages, loop delays and warnings the test sees. */
function watched(env: NodeJS.ProcessEnv, options: WatchdogOptions = {}) {
  const sent: string[] = [];
  const warnings: string[] = [];
  const lags: number[] = [];
  const delay: LoopDelay = { worstMs: () => lags.shift() ?? 0, close: vi.fn() };
  const watchdog = startWatchdog(
    { warn: (details, message) => void warnings.push(`${message} ${JSON.stringify(details)}`) },
    {
      env,
      pid: 42,
      notify: async (assignments) => void sent.push(...assignments),
      loopDelay: () => delay,
      ...options,
    },
  );
  return { watchdog, sent, warnings, lags, delay };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the watchdog for systemd', () => {
  it('does nothing outside systemd', async () => {
    const { watchdog, sent } = watched({});
    watchdog.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    watchdog.stop();
    expect(sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says ready and stopping, and pings only when systemd watches', async () => {
    const { watchdog, sent } = watched(SYSTEMD);
    watchdog.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    watchdog.stop();
    await vi.runAllTimersAsync();
    expect(sent).toEqual(['READY=1', 'STOPPING=1']);
  });

  it('pings every half watchdog interval from ready on, while the loop keeps time', async () => {
    const { watchdog, sent, delay } = watched(WATCHED);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toEqual([]);
    watchdog.ready();
    await vi.advanceTimersByTimeAsync(14_999);
    expect(sent).toEqual(['READY=1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(['READY=1', 'WATCHDOG=1']);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(sent).toEqual(['READY=1', 'WATCHDOG=1', 'WATCHDOG=1', 'WATCHDOG=1']);
    watchdog.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent.slice(4)).toEqual(['STOPPING=1']);
    expect(delay.close).toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('withholds the ping after the loop stalled, and says so', async () => {
    const { watchdog, sent, lags, warnings } = watched(WATCHED, { lagLimitMs: 2000 });
    watchdog.ready();
    lags.push(1999, 2400, 20);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(sent).toEqual(['READY=1', 'WATCHDOG=1', 'WATCHDOG=1']);
    expect(warnings).toEqual([
      `the event loop stalled: no ping to systemd's watchdog {"lagMs":2400,"lagLimitMs":2000}`,
    ]);
  });

  it('leaves a watchdog meant for another process alone', async () => {
    const { watchdog, sent } = watched({ ...WATCHED, WATCHDOG_PID: '41' });
    watchdog.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toEqual(['READY=1']);
    const ours = watched({ ...WATCHED, WATCHDOG_PID: '42' });
    ours.watchdog.ready();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(ours.sent).toEqual(['READY=1', 'WATCHDOG=1']);
    ours.watchdog.stop();
  });

  it('says once that it cannot notify systemd', async () => {
    const warnings: string[] = [];
    const watchdog = startWatchdog(
      { warn: (details, message) => void warnings.push(`${message} ${JSON.stringify(details)}`) },
      {
        env: WATCHED,
        notify: async () => Promise.reject(new Error('spawn systemd-notify ENOENT')),
        loopDelay: () => ({ worstMs: () => 0, close: () => undefined }),
      },
    );
    watchdog.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    watchdog.stop();
    await vi.runAllTimersAsync();
    expect(warnings).toEqual(['cannot notify systemd {"reason":"spawn systemd-notify ENOENT"}']);
  });

  it('is ready once, and never after it stopped', async () => {
    const { watchdog, sent } = watched(WATCHED);
    watchdog.ready();
    watchdog.ready();
    watchdog.stop();
    watchdog.stop();
    watchdog.ready();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toEqual(['READY=1', 'STOPPING=1']);
  });
});

/** systemd-notify and python3 (to bind the unix datagram socket systemd would): here, or the test is skipped. */
const hasTools = ['systemd-notify', 'python3'].every((tool) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`]);
    return true;
  } catch {
    return false;
  }
});

/** Prints each datagram received on `path`, one a line; receiving without room for passed descriptors lets systemd-notify's barrier go. */
const RECEIVER = `
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print("bound", flush=True)
while True:
    print(s.recv(4096).decode(), flush=True)
`;

describe.skipIf(!hasTools)('the watchdog through the real systemd-notify', () => {
  it('delivers READY=1, the pings and STOPPING=1 to NOTIFY_SOCKET', async () => {
    vi.useRealTimers();
    const dir = mkdtempSync(join(tmpdir(), 'croupier-notify-'));
    const socket = join(dir, 'notify');
    const receiver = spawn('python3', ['-c', RECEIVER, socket], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: receiver.stdout })[Symbol.asyncIterator]();
      expect((await lines.next()).value).toBe('bound');
      const watchdog = startWatchdog(
        { warn: (details, message) => expect.fail(`${message} ${JSON.stringify(details)}`) },
        // WatchdogSec=0.4: a ping every 200 ms.
        { env: { ...process.env, NOTIFY_SOCKET: socket, WATCHDOG_USEC: '400000' } },
      );
      watchdog.ready();
      const received: string[] = [];
      // systemd-notify follows each message with its barrier.
      while (received.filter((m) => m === 'WATCHDOG=1').length < 2) {
        const message = (await lines.next()).value as string;
        if (message !== 'BARRIER=1') received.push(message);
      }
      watchdog.stop();
      for (let next = await lines.next(); next.value !== 'STOPPING=1'; next = await lines.next());
      // Its barrier too: a socket gone before it fails systemd-notify, and the watchdog says so.
      expect((await lines.next()).value).toBe('BARRIER=1');
      expect(received).toEqual(['READY=1', 'WATCHDOG=1', 'WATCHDOG=1']);
    } finally {
      receiver.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
