import { execFile } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * systemd's notify protocol for croupier.service (Type=notify, WatchdogSec=): READY=1 once the table is up,
 * WATCHDOG=1 every half watchdog interval while the event loop keeps time, STOPPING=1 at the stop. A loop
 * stuck, or one that stalled longer than `lagLimitMs`, sends no ping, and systemd restarts croupier.
 *
 * NOTIFY_SOCKET is a unix datagram socket, which Node cannot open: the messages go through `systemd-notify`,
 * which waits until systemd has them (so that NotifyAccess=all can tell whose they are). Outside systemd
 * (no NOTIFY_SOCKET) nothing is sent.
 */

export interface Watchdog {
  /** The table is up: systemd starts what waits for croupier (the kiosk), and the pings begin. */
  ready(): void;
  /** croupier is stopping: no more pings. */
  stop(): void;
}

export interface WatchdogLog {
  warn(details: object, message: string): void;
}

/** The event loop's worst delay since the last call, in ms. */
export interface LoopDelay {
  worstMs(): number;
  close(): void;
}

export interface WatchdogOptions {
  env?: NodeJS.ProcessEnv;
  pid?: number;
  /** Sends `KEY=value` assignments to systemd; systemd-notify by default. */
  notify?: (assignments: readonly string[]) => Promise<void>;
  loopDelay?: () => LoopDelay;
  /** A loop that stalled longer than this since the last ping gets no ping (default 5 s). */
  lagLimitMs?: number;
}

const NOTIFY_TIMEOUT_MS = 5000;

export function startWatchdog(log: WatchdogLog, options: WatchdogOptions = {}): Watchdog {
  const {
    env = process.env,
    pid = process.pid,
    notify = (assignments: readonly string[]) => systemdNotify(assignments, env),
    loopDelay = eventLoopDelay,
    lagLimitMs = 5000,
  } = options;
  if (!env.NOTIFY_SOCKET) return { ready: () => undefined, stop: () => undefined };
  let failed = false;
  // One systemd-notify at a time, so systemd hears READY, the pings and STOPPING in the order sent (two
  // processes started together may deliver in either order); a ping waiting already stands for the next.
  let queue = Promise.resolve();
  let pingWaiting = false;
  const send = (...assignments: string[]) => {
    const ping = assignments.includes('WATCHDOG=1');
    if (ping && pingWaiting) return;
    pingWaiting ||= ping;
    queue = queue
      .then(() => {
        if (ping) pingWaiting = false;
        return notify(assignments);
      })
      .catch((error: unknown) => {
        // Said once: a missing systemd-notify fails every ping alike.
        if (failed) return;
        failed = true;
        log.warn({ reason: (error as Error).message }, 'cannot notify systemd');
      });
  };
  const periodMs = pingPeriodMs(env, pid);
  let pings: { timer: NodeJS.Timeout; delay: LoopDelay } | undefined;
  let stopped = false;
  return {
    ready() {
      if (pings || stopped) return;
      send('READY=1');
      if (periodMs === undefined) return;
      const delay = loopDelay();
      const timer = setInterval(() => {
        const lagMs = delay.worstMs();
        if (lagMs > lagLimitMs) {
          log.warn(
            { lagMs: Math.round(lagMs), lagLimitMs },
            "the event loop stalled: no ping to systemd's watchdog",
          );
          return;
        }
        send('WATCHDOG=1');
      }, periodMs);
      // The pings never keep croupier from exiting.
      timer.unref();
      pings = { timer, delay };
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (pings) {
        clearInterval(pings.timer);
        pings.delay.close();
      }
      send('STOPPING=1');
    },
  };
}

/** Half the watchdog's interval, when systemd watches this process. */
function pingPeriodMs(env: NodeJS.ProcessEnv, pid: number): number | undefined {
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isInteger(usec) || usec <= 0) return undefined;
  // Set for another process (the watchdog's variables inherited from a parent) it is not ours.
  if (env.WATCHDOG_PID !== undefined && Number(env.WATCHDOG_PID) !== pid) return undefined;
  return Math.max(1, Math.floor(usec / 2000));
}

function systemdNotify(assignments: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('systemd-notify', assignments, { env, timeout: NOTIFY_TIMEOUT_MS }, (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

function eventLoopDelay(): LoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return {
    worstMs() {
      const worst = histogram.max / 1e6;
      histogram.reset();
      return worst;
    },
    close: () => histogram.disable(),
  };
}
