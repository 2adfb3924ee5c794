import { describe, expect, it } from 'vitest';
import { passed, warns } from '../../../src/doctor/check.js';
import { checkClock } from '../../../src/doctor/clock.js';
import { fakeSystem } from './fake-system.js';

const timedatectl = (code: number, stdout: string) =>
  fakeSystem({
    exec: async (command, args) => {
      expect([command, ...args]).toEqual(['timedatectl', 'show', '-p', 'NTPSynchronized', '--value']);
      return { code, stdout };
    },
  });

const COMPARE = "compare `date` with the floor's clock";

describe('doctor: the clock', () => {
  it('passes a clock a time server set', async () => {
    expect(await checkClock(timedatectl(0, 'yes\n'))).toEqual(
      passed('clock', 'synchronised with a time server'),
    );
  });

  it('warns of a clock no time server set, and says how to give it one', async () => {
    expect(await checkClock(timedatectl(0, 'no\n'))).toEqual(
      warns(
        'clock',
        "not synchronised with a time server: the journal's times may be wrong",
        "check the network, then `timedatectl timesync-status`; without Internet access set the casino's time server in /etc/systemd/timesyncd.conf (NTP=ntp.casino.lan) and sudo systemctl restart systemd-timesyncd",
      ),
    );
  });

  it('skips the check where timedatectl is missing or cannot say', async () => {
    expect(await checkClock(fakeSystem())).toEqual(
      warns(
        'clock',
        'cannot tell whether it is synchronised (timedatectl: spawn timedatectl ENOENT)',
        COMPARE,
      ),
    );
    // In a container: "System has not been booted with systemd as init system".
    expect(await checkClock(timedatectl(1, ''))).toEqual(
      warns('clock', 'cannot tell whether it is synchronised (timedatectl did not say)', COMPARE),
    );
  });
});
