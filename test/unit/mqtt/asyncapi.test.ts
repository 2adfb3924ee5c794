import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { asyncApiDocument } from '../../../src/mqtt/asyncapi.js';
import { TOPICS, topicOf } from '../../../src/mqtt/topics.js';
import { VERSION } from '../../../src/version.js';

const DOCUMENT = new URL('../../../docs/asyncapi.yaml', import.meta.url);

interface AsyncApi {
  asyncapi: string;
  channels: Record<string, { address: string; messages: Record<string, { payload: object }> }>;
  operations: Record<
    string,
    { action: string; channel: { $ref: string }; bindings: { mqtt: { qos: number; retain: boolean } } }
  >;
}

describe('the AsyncAPI document', () => {
  it('is the one the topic map generates (run `node bin/croupier.js asyncapi > docs/asyncapi.yaml`)', async () => {
    const written = parse(await readFile(DOCUMENT, 'utf8')) as unknown;
    expect(written).toEqual(asyncApiDocument(VERSION));
  });

  it('documents every topic DESIGN.md lists, each with its direction, QoS and retain flag', async () => {
    const document = parse(await readFile(DOCUMENT, 'utf8')) as AsyncApi;
    expect(document.asyncapi).toBe('3.0.0');
    const addresses = Object.values(document.channels).map((channel) => channel.address);
    expect(addresses.sort()).toEqual(
      ['status', 'state', 'incident', 'device/{deviceId}/{channel}', 'command/{name}', 'private/events']
        .map((path) => `croupier/v1/{tableId}/${path}`)
        .sort(),
    );
    for (const [name, spec] of Object.entries(TOPICS)) {
      const operation = Object.values(document.operations).find(
        (op) => op.channel.$ref === `#/channels/${name}`,
      );
      expect(operation, name).toBeDefined();
      expect(operation?.action).toBe(spec.from === 'croupier' ? 'send' : 'receive');
      expect(operation?.bindings.mqtt).toEqual({ qos: spec.qos, retain: spec.retain });
      expect(document.channels[name]?.messages[name]?.payload).toBeTypeOf('object');
    }
  });

  it('keeps hole cards off every topic the floor reads: only private/events is for surveillance', () => {
    expect(TOPICS.status.retain && TOPICS.state.retain).toBe(true);
    expect(TOPICS.incident.qos).toBe(1);
    const surveillance = Object.values(TOPICS).filter((spec) => spec.audience === 'surveillance');
    expect(surveillance.map((spec) => spec.path)).toEqual(['private/events']);
  });

  it('names concrete topics, with + for a parameter left out', () => {
    expect(topicOf('t1', 'state')).toBe('croupier/v1/t1/state');
    expect(topicOf('t1', 'command', { name: 'acknowledge' })).toBe('croupier/v1/t1/command/acknowledge');
    expect(topicOf('t1', 'command')).toBe('croupier/v1/t1/command/+');
  });
});
