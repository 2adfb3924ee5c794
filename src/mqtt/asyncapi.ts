import { z } from 'zod';
import { PROFILE_IDS } from '../rules/index.js';
import { API_VERSION, TOPICS, type TopicSpec } from './topics.js';

/**
 * The AsyncAPI 3 document of croupier's MQTT API, generated from the topic map so that the two cannot
 * drift: `croupier asyncapi` prints it, and a test checks `docs/asyncapi.yaml` against it.
 */
export function asyncApiDocument(version: string): Record<string, unknown> {
  const entries = Object.entries(TOPICS) as [string, TopicSpec][];
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'croupier table API',
      version,
      description: `One poker table’s controller: its status, public state, incidents with their procedures, floor commands, device traffic and the delayed surveillance feed. Hole cards appear only on private/events. Rulings cite the table’s rule profile (${PROFILE_IDS.join(', ')}) and its article.`,
    },
    defaultContentType: 'application/json',
    channels: Object.fromEntries(entries.map(([name, spec]) => [name, channel(name, spec)])),
    operations: Object.fromEntries(
      entries.map(([name, spec]) => [
        `${spec.from === 'croupier' ? 'send' : 'receive'}-${name}`,
        {
          action: spec.from === 'croupier' ? 'send' : 'receive',
          channel: { $ref: `#/channels/${name}` },
          summary: spec.summary,
          bindings: { mqtt: { qos: spec.qos, retain: spec.retain } },
          'x-audience': spec.audience,
        },
      ]),
    ),
  };
}

function channel(name: string, spec: TopicSpec): Record<string, unknown> {
  const address = `croupier/${API_VERSION}/{tableId}/${spec.path}`;
  const parameters = Object.fromEntries(
    [...address.matchAll(/\{(\w+)\}/g)].map(([, key]) => [key, { description: PARAMETERS[key ?? ''] }]),
  );
  return {
    address,
    parameters,
    messages: {
      [name]: { name, summary: spec.summary, payload: payloadSchema(spec.payload) },
    },
  };
}

const PARAMETERS: Record<string, string> = {
  tableId: 'the table’s id from the config',
  name: 'the command',
  deviceId: 'a networked device’s id from the config',
  channel: 'the device’s own channel (status, reading, command…), see its PROTOCOL.md',
};

/** The payload's JSON Schema in draft 7, which AsyncAPI's default schema format builds on. */
function payloadSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return rest;
}
