import type { z } from 'zod';
import { parseSection } from '../src/problems.js';

/**
 * What a device kind declares, as zigbee2mqtt's adapters do: its kind, the link it comes on, its defaults,
 * and its config section's schema, with a parser that names each bad key under `where`.
 */
export function deviceManifest<
  const K extends string,
  const L extends 'serial' | 'mqtt' | 'hid',
  D,
  S extends z.ZodType,
>(kind: K, link: L, defaults: D, configSchema: S) {
  return {
    kind,
    link,
    defaults,
    configSchema,
    parseConfig: (section: unknown, where = `devices.${kind}`): z.output<S> =>
      parseSection(configSchema, section, where),
  };
}
