import { pino } from 'pino';
import { type CroupierConfig, parseConfig } from '../config/config.js';
import { startWatchdog } from '../system/watchdog.js';
import { VERSION } from '../version.js';
import { readConfig } from './read-config.js';

export interface FloorOptions {
  mqtt?: string | undefined;
  config?: string | undefined;
  port?: string | undefined;
  tables?: string | undefined;
}

/**
 * `croupier floor`: the floor supervisors' service until SIGINT or SIGTERM. The command line's broker,
 * port and tables (`T1,T2` or `+`) go over the config file's; its supervisors are the tables' own.
 */
export async function floor(options: FloorOptions): Promise<number> {
  const file = await readConfig(options.config);
  if (!file) return 2;
  let config: CroupierConfig;
  try {
    config = withOptions(file, options);
  } catch (error) {
    process.stderr.write(`croupier: floor's options refused:\n${(error as Error).message}\n`);
    return 2;
  }
  if (config.mqtt.url === undefined) {
    process.stderr.write('croupier: floor needs the casino broker: --mqtt URL (or mqtt.url in the config)\n');
    return 2;
  }
  const log = pino({ level: config.log.level });
  const stopped = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  const { startFloor } = await import('../floor/service.js');
  let service: Awaited<ReturnType<typeof startFloor>>;
  try {
    service = await startFloor(config, VERSION, log);
  } catch (error) {
    log.fatal({ err: error }, 'croupier floor cannot start');
    return 1;
  }
  const watchdog = startWatchdog(log);
  watchdog.ready();
  await stopped;
  watchdog.stop();
  log.info('croupier floor stopping');
  await service.close();
  return 0;
}

/** The config with the command line's values in it, checked as the file's own would be. */
function withOptions(config: CroupierConfig, { mqtt, port, tables }: FloorOptions): CroupierConfig {
  return parseConfig({
    ...config,
    mqtt: { ...config.mqtt, ...(mqtt !== undefined && { url: mqtt }) },
    floor: {
      ...config.floor,
      ...(port !== undefined && { port: Number(port) }),
      ...(tables !== undefined && { tables: tables.split(',') }),
    },
  });
}
