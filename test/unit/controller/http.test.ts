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

  it('refuses a route that declares a JSON schema: requests are checked with zod', async () => {
    const withSchema = async (server: FastifyInstance) => {
      server.post('/x', { schema: { body: { type: 'object' } } }, async () => 'taken');
    };
    await expect(startHttp(LOOPBACK, new TableHealth('t1', '1.0.0', () => 0), [withSchema])).rejects.toThrow(
      /croupier validates with zod/,
    );
  });
});
