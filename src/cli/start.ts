import { join } from 'node:path';
import { pino } from 'pino';
import type { VirtualTable } from '../../simulators/virtual-table/table.js';
import { type CroupierConfig, loadConfig, parseConfig } from '../config/config.js';
import { ConfigError } from '../config/problems.js';
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
  // The simulators are loaded only for a demo. The virtual table's devices come up (socat: other
  // processes) while the controller's modules load, so its module is loaded first, alone.
  const simulators = demo ? await import('../../simulators/virtual-table/table.js') : undefined;
  const demoing = simulators && demoTable(simulators.startVirtualTable, config);
  const controllerModule = import('../controller/controller.js');
  // Both are awaited below, where a failure is reported.
  for (const pending of [demoing, controllerModule]) pending?.catch(() => undefined);
  try {
    let table: VirtualTable | undefined;
    if (demoing) {
      ({ config, table } = await demoing);
      stops.push(() => (table as VirtualTable).close());
    }
    const { startController } = await controllerModule;
    const controller = await startController(config, VERSION, log, table && { hidBinding: table.hidBus });
    stops.push(() => controller.close());
    if (table) {
      const { DEMO_SCENARIOS, runDemo } = await import('../../simulators/virtual-table/demo.js');
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

/**
 * The virtual table and the config that points croupier at its devices, with a supervisor to try the
 * display's floor panel with unless the config names real ones.
 */
async function demoTable(
  startVirtualTable: () => Promise<VirtualTable>,
  config: CroupierConfig,
): Promise<{ config: CroupierConfig; table: VirtualTable }> {
  // Hashed on libuv's pool while the devices start.
  const supervisors =
    config.supervisors.length > 0
      ? Promise.resolve(config.supervisors)
      : hashSecret(DEMO_PIN).then((pin) => [{ name: 'Demo', pin }]);
  supervisors.catch(() => undefined); // awaited below, once the table can be closed on a failure
  const table = await startVirtualTable();
  try {
    const devices = parseConfig({ devices: table.devices }).devices;
    return { config: { ...config, devices, supervisors: await supervisors }, table };
  } catch (error) {
    await table.close();
    throw error;
  }
}
