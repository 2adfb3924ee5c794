import { checkBroker } from './broker.js';
import { type Check, formatCheck } from './check.js';
import { checkClock } from './clock.js';
import { checkConfig, checkDecks, INSTALLED_CONFIG } from './config-check.js';
import { checkDevices } from './devices.js';
import { checkDisplay } from './display.js';
import { croupierRunning } from './running.js';
import { checkDiskSpace, checkJournal } from './storage.js';
import type { DoctorSystem } from './system.js';

/**
 * Every check of a table's installation, in the order an engineer fixes things: the config first (without
 * it nothing else can be checked), then what croupier needs to start and to play.
 */
export async function diagnose(configFile: string | undefined, system: DoctorSystem): Promise<Check[]> {
  const { check, config } = await checkConfig(configFile ?? (await installedConfig(system)));
  if (!config) return [check];
  const running = await croupierRunning(config, system);
  const checks = await Promise.all([
    checkDecks(config),
    checkDevices(config, system),
    checkBroker(config, system, running),
    checkJournal(config, system),
    checkDiskSpace(config, system),
    checkClock(system),
    checkDisplay(config, system, running),
  ]);
  return [check, ...checks.flat()];
}

/** The installed config when there is one: on a table, `croupier doctor` alone checks what runs. */
async function installedConfig(system: DoctorSystem): Promise<string | undefined> {
  return system.access(INSTALLED_CONFIG, 'exists').then(
    () => INSTALLED_CONFIG,
    () => undefined,
  );
}

/** The report: a line per check, then the verdict. */
export function report(checks: readonly Check[]): string {
  const blocking = checks.filter((c) => c.blocking).length;
  const warnings = checks.filter((c) => !c.ok && !c.blocking).length;
  const verdict =
    blocking > 0
      ? `${blocking} ${blocking === 1 ? 'problem keeps' : 'problems keep'} the table from playing`
      : 'nothing keeps the table from playing';
  const more = warnings > 0 ? `; ${warnings} more to look at (!)` : '';
  return `${checks.map(formatCheck).join('\n')}\n${verdict}${more}\n`;
}
