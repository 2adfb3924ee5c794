import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPLOY, fakeCommands } from './fake-commands.js';

/** Fails the suite at once, saying what to install, when a tool is missing (never a silent skip). */
function requireTool(tool: string, debianPackage: string): void {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    throw new Error(`${tool} is not installed: apt-get install ${debianPackage} (scripts/setup.sh does)`);
  }
}
requireTool('systemd-analyze', 'systemd');
requireTool('shellcheck', 'shellcheck');
const unit = (name: string) => readFileSync(join(DEPLOY, name), 'utf8');

/** A copy of a unit, changed, to show that a mistake is caught. */
const scratch = mkdtempSync(join(tmpdir(), 'croupier-units-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function changed(name: string, change: (text: string) => string): string {
  const path = join(scratch, name);
  writeFileSync(path, change(unit(name)));
  return path;
}

const analyze = (...args: string[]) => spawnSync('systemd-analyze', args, { encoding: 'utf8' });

describe('the systemd units, by systemd-analyze', () => {
  it('verifies both units clean', () => {
    // It also checks that the programs they run are there: /usr/bin/node, /bin/sh.
    const result = analyze(
      'verify',
      join(DEPLOY, 'croupier.service'),
      join(DEPLOY, 'croupier-kiosk.service'),
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('catches a mistake (so the check above means something)', () => {
    const result = analyze(
      'verify',
      changed('croupier.service', (text) => text.replace('Type=notify', 'Typ=notify')),
    );
    // A warning only (exit 0): hence the clean check above asks for nothing on stderr.
    expect(result.stderr).toContain("Unknown key 'Typ' in section [Service], ignoring.");
  });

  it('rates the controller well hardened', () => {
    const result = analyze('security', '--offline=yes', join(DEPLOY, 'croupier.service'));
    const exposure = /Overall exposure level for croupier\.service: ([\d.]+)/.exec(result.stdout)?.[1];
    // 0 is a unit that can do nothing, 10 one that can do anything; systemd calls under 4 "OK".
    expect(Number(exposure)).toBeLessThan(3);
  });
});

describe('the systemd units', () => {
  const controller = unit('croupier.service');
  const kiosk = unit('croupier-kiosk.service');

  it('runs the controller as its own user, notifying systemd, watched, restarted', () => {
    for (const line of [
      'Type=notify',
      'NotifyAccess=all',
      'WatchdogSec=30',
      'User=croupier',
      'Restart=on-failure',
      'RestartPreventExitStatus=2',
      'StartLimitIntervalSec=0',
      'ExecStartPre=/bin/sh /opt/croupier/current/deploy/restart-backoff.sh',
      'ExecStart=/usr/bin/node /opt/croupier/current/bin/croupier.js start --config /etc/croupier/croupier.yaml',
      'StateDirectory=croupier',
      'ProtectSystem=strict',
      'NoNewPrivileges=yes',
      'DevicePolicy=closed',
    ]) {
      expect(controller.split('\n')).toContain(line);
    }
  });

  it('starts the kiosk after the controller is ready, on the touch screen', () => {
    for (const line of [
      'After=croupier.service',
      'Wants=croupier.service',
      'User=croupier-kiosk',
      'TTYPath=/dev/tty1',
    ]) {
      expect(kiosk.split('\n')).toContain(line);
    }
  });
});

describe('the scripts, by shellcheck', () => {
  it('finds nothing to say', () => {
    const scripts = ['install.sh', 'kiosk.sh', 'restart-backoff.sh', 'croupier.sh'].map((s) =>
      join(DEPLOY, s),
    );
    expect(execFileSync('shellcheck', ['-x', ...scripts], { encoding: 'utf8' })).toBe('');
  });
});

describe('the kiosk and the command', () => {
  it('waits for the display, then shows it full screen', () => {
    const system = fakeCommands({
      // The display answers at the third try (the controller still recovering its journal).
      curl: 'n=$(cat "$0.n" 2>/dev/null || echo 0); echo $((n + 1)) > "$0.n"; [ "$n" -ge 2 ]',
      sleep: '',
      chromium: '',
      cage: '',
    });
    const { status } = system.run('kiosk.sh', [], { CROUPIER_DISPLAY_URL: 'http://127.0.0.1:8081/' });
    expect(status).toBe(0);
    const calls = system.calls();
    const waited = 'curl -fsS -o /dev/null --max-time 2 http://127.0.0.1:8081/';
    expect(calls.slice(0, 6)).toEqual([
      waited,
      'sleep 1',
      waited,
      'sleep 1',
      waited,
      expect.stringMatching(/^cage -- \S+\/chromium --kiosk /),
    ]);
    expect(calls[5]).toMatch(/ http:\/\/127\.0\.0\.1:8081\/$/);
  });

  it("runs croupier's command line as croupier's user when root runs it", () => {
    const system = fakeCommands({ id: 'echo 0', runuser: '' });
    expect(system.run('croupier.sh', ['doctor']).status).toBe(0);
    expect(system.calls()).toEqual(['id -u', `runuser -u croupier -- ${join(DEPLOY, 'croupier.sh')} doctor`]);
  });
});
