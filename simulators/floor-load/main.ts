import { parseArgs } from 'node:util';
import { startFloorLoad } from './room.js';

/**
 * `node dist/simulators/floor-load/main.js --mqtt URL [--tables 200] [--seed N]`: a card room's public
 * traffic on the broker until SIGINT or SIGTERM, for trying the floor's page (README) or measuring it.
 * The broker's user, if it asks for one: --username, and CROUPIER_MQTT_PASSWORD in the environment.
 */
const { values } = parseArgs({
  options: {
    mqtt: { type: 'string' },
    tables: { type: 'string', default: '200' },
    seed: { type: 'string', default: '20' },
    'hand-seconds': { type: 'string', default: '90' },
    username: { type: 'string' },
  },
});
if (values.mqtt === undefined) {
  process.stderr.write('usage: floor-load --mqtt URL [--tables N] [--seed N] [--hand-seconds S]\n');
  process.exit(2);
}
const password = process.env.CROUPIER_MQTT_PASSWORD;
const load = await startFloorLoad({
  url: values.mqtt,
  tables: Number(values.tables),
  seed: Number(values.seed),
  handMs: Number(values['hand-seconds']) * 1000,
  ...(values.username !== undefined && { username: values.username }),
  ...(password !== undefined && { password }),
});
process.stderr.write(`floor-load: ${load.tables.length} tables on ${values.mqtt}\n`);
await new Promise<void>((resolve) => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
});
await load.stop();
process.stderr.write(`floor-load: stopped, ${JSON.stringify(load.counts())}\n`);
process.exit(0);
