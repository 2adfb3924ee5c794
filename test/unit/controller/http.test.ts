import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { TableHealth } from '../../../src/controller/health.js';
import { startHttp } from '../../../src/controller/http.js';

const LOOPBACK = { host: '127.0.0.1', port: 0 };

describe('the HTTP server', () => {
  it('answers /healthz with the health report', async () => {
    const http = await startHttp(LOOPBACK, new TableHealth('t1', '1.0.0', () => 0));
    try {
      const response = await fetch(`${http.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ table: 't1', version: '1.0.0' });
    } finally {
      await http.server.close();
    }
  });

  it('says on /healthz that the table is halted, naming the broken record, never its content', async () => {
    const health = new TableHealth('t1', '1.0.0', () => 0);
    health.journal({
      path: 'j.db',
      state: 'halted',
      detail:
        'journal j.db: record 7 (seq 5, kind event) is broken: its prev does not match the hash of record 6',
      record: {
        id: 7,
        seq: 5,
        kind: 'event',
        problem: 'prev',
        reason: 'its prev does not match the hash of record 6',
      },
      clearable: true,
    });
    const http = await startHttp(LOOPBACK, health);
    try {
      const response = await fetch(`${http.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        status: 'halted',
        journal: { state: 'halted', record: { id: 7, problem: 'prev' }, clearable: true },
      });
    } finally {
      await http.server.close();
    }
  });

  it('refuses a route that declares a JSON schema: requests are checked with zod', async () => {
    const withSchema = async (server: FastifyInstance) => {
      server.post('/x', { schema: { body: { type: 'object' } } }, async () => 'taken');
    };
    await expect(startHttp(LOOPBACK, new TableHealth('t1', '1.0.0', () => 0), [withSchema])).rejects.toThrow(
      /croupier validates with zod/,
    );
  });
});
