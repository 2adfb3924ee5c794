import { messageOf } from '../io/serial.js';
import { type Check, passed, warns } from './check.js';
import type { DoctorSystem } from './system.js';

const NTP_ADVICE =
  "check the network, then `timedatectl timesync-status`; without Internet access set the casino's time server in /etc/systemd/timesyncd.conf (NTP=ntp.casino.lan) and sudo systemctl restart systemd-timesyncd";

/**
 * A Pi has no battery clock: after a power cut it starts from the time it last saved until a time server
 * sets it. The table plays on a wrong clock, but the journal's and the logs' times are wrong, and a TLS
 * broker's certificate may look expired.
 */
export async function checkClock(system: DoctorSystem): Promise<Check> {
  let answer: { code: number; stdout: string };
  try {
    answer = await system.exec('timedatectl', ['show', '-p', 'NTPSynchronized', '--value']);
  } catch (error) {
    return cannotTell(`timedatectl: ${messageOf(error)}`);
  }
  const synchronised = answer.stdout.trim();
  if (answer.code !== 0 || !['yes', 'no'].includes(synchronised))
    return cannotTell('timedatectl did not say');
  if (synchronised === 'yes') return passed('clock', 'synchronised with a time server');
  return warns('clock', "not synchronised with a time server: the journal's times may be wrong", NTP_ADVICE);
}

function cannotTell(why: string): Check {
  return warns(
    'clock',
    `cannot tell whether it is synchronised (${why})`,
    "compare `date` with the floor's clock",
  );
}
