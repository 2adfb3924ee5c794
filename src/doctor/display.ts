import type { CroupierConfig } from '../config/config.js';
import { messageOf } from '../io/serial.js';
import { blocks, type Check, passed, warns } from './check.js';
import { displayUrl, type Running } from './running.js';
import type { DoctorSystem } from './system.js';

/** The page the kiosk shows, served by croupier: checked while it runs. */
export async function checkDisplay(
  config: CroupierConfig,
  system: DoctorSystem,
  running: Running,
): Promise<Check> {
  const url = displayUrl(config);
  if (running === 'nothing') {
    return warns(
      'display',
      `croupier is not running, so ${url} cannot be checked`,
      'sudo systemctl start croupier; if it stops again, `journalctl -u croupier -n 50` says why',
    );
  }
  if (running !== 'croupier') {
    return blocks(
      'display',
      `another program answers on ${url} (HTTP ${running.other}), where croupier serves the display`,
      `stop it, or give croupier another http.port (and the kiosk its URL in /etc/croupier/kiosk.env)`,
    );
  }
  let status: number;
  try {
    ({ status } = await system.fetch(url));
  } catch (error) {
    return blocks('display', `${url} did not answer: ${messageOf(error)}`, 'sudo systemctl restart croupier');
  }
  if (status === 200) return passed('display', url);
  return blocks(
    'display',
    `${url} answers HTTP ${status}: the display's page is missing`,
    'the release was not built whole: run deploy/install.sh again',
  );
}
