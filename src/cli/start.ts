import { join } from 'node:path';
import { pino } from 'pino';
import { DEMO_SCENARIOS, runDemo } from '../../simulators/virtual-table/demo.js';
import { startVirtualTable } from '../../simulators/virtual-table/table.js';
import { type CroupierConfig, loadConfig, parseConfig } from '../config/config.js';
import { ConfigError } from '../config/problems.js';
import { startController } from '../controller/controller.js';
import { hashSecret } from '../supervisor/credentials.js';
import { startWatchdog } from '../system/watchdog.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';

/** The demo's supervisor PIN (README); a real table's supervisors come from its config. */
const DEMO_PIN = '1234';

/**
 * `croupier start`: the controller on its config. With `demo`, its devices are a virtual table's
 * simulators on pseudo-terminals, playing scenario hands round and round: no hardware needed.
 */
export async function start({
  configFile,
  demo,
}: {
  configFile?: string | undefined;
  demo: boolean;
}): Promise<number> {
  let config: CroupierConfig;
  try {
    config = configFile === undefined ? parseConfig({}) : await loadConfig(configFile);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`croupier: the config is refused:\n${error.message}\n`);
    return 2;
  }
  const log = pino({ level: config.log.level });
  const stops: (() => Promise<unknown>)[] = [];
  const stopped = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  try {
    const table = demo ? await startVirtualTable() : undefined;
    if (table) {
      stops.push(() => table.close());
      config = {
        ...config,
        devices: parseConfig({ devices: table.devices }).devices,
        // A supervisor to try the display's floor panel with, unless the config names real ones.
        supervisors:
          config.supervisors.length > 0
            ? config.supervisors
            : [{ name: 'Demo', pin: await hashSecret(DEMO_PIN) }],
      };
    }
    const controller = await startController(config, VERSION, log, table && { hidBinding: table.hidBus });
    stops.push(() => controller.close());
    if (table) {
      await table.connectNetworked(controller.mqttUrl, config.table.id);
      const abort = new AbortController();
      const playing = runDemo({
        table,
        key: controller.input,
        updates: controller.updates,
        scenarios: DEMO_SCENARIOS.map((file) => join(PACKAGE_ROOT, file)),
        played: (file, error) =>
          error
            ? log.warn({ file, reason: error.message }, 'demo hand cut short')
            : log.info({ file }, 'demo hand played'),
        signal: abort.signal,
        // After a restart the demo goes on with the next hands rather than replaying the first.
        first: controller.snapshot().context.hands,
      });
      stops.push(async () => {
        abort.abort();
        await playing;
      });
    }
  } catch (error) {
    log.fatal({ err: error }, 'croupier cannot start');
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    return 1;
  }
  // Under systemd: ready (the kiosk starts after it), then pings while the event loop keeps time.
  const watchdog = startWatchdog(log);
  watchdog.ready();
  await stopped;
  watchdog.stop();
  log.info('croupier stopping');
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  return 0;
}
