import { type CroupierConfig, loadConfig, parseConfig } from '../config/config.js';
import { mosquittoAcl } from '../mqtt/mosquitto-acl.js';

/** `croupier mqtt-acl`: the Mosquitto ACL file for the config's table, on stdout. */
export async function mqttAcl(file: string | undefined): Promise<number> {
  let config: CroupierConfig;
  try {
    config = file === undefined ? parseConfig({}) : await loadConfig(file);
  } catch (error) {
    process.stderr.write(`croupier: ${(error as Error).message}\n`);
    return 2;
  }
  const controller = config.mqtt.username ?? 'croupier';
  process.stdout.write(mosquittoAcl(config.table.id, controller, config.mqtt.users));
  return 0;
}
