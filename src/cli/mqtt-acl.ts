import { mosquittoAcl } from '../mqtt/mosquitto-acl.js';
import { readConfig } from './read-config.js';

/** `croupier mqtt-acl`: the Mosquitto ACL file for the config's table, on stdout. */
export async function mqttAcl(file: string | undefined): Promise<number> {
  const config = await readConfig(file);
  if (!config) return 2;
  const controller = config.mqtt.username ?? 'croupier';
  process.stdout.write(mosquittoAcl(config.table.id, controller, config.mqtt.users));
  return 0;
}
