import Fastify, { type FastifyInstance } from 'fastify';
import type { TableHealth } from './health.js';

/**
 * Requests are checked with zod where they are handled, and no route declares a JSON schema: fastify's
 * own compilers (Ajv, fast-json-stringify), which it loads at every start, are left out.
 */
export const NO_JSON_SCHEMA = {
  buildValidator: refuseJsonSchema,
  buildSerializer: refuseJsonSchema,
};

function refuseJsonSchema(): never {
  throw new Error('croupier validates with zod: a route must not declare a JSON schema');
}

/** The controller's HTTP server: `/healthz`, and what `plugins` add (the dealer display). */
export async function startHttp(
  { host, port }: { host: string; port: number },
  health: TableHealth,
  plugins: ((server: FastifyInstance) => Promise<void>)[] = [],
): Promise<{ url: string; server: FastifyInstance }> {
  const server = Fastify({ logger: false, schemaController: { compilersFactory: NO_JSON_SCHEMA } });
  server.get('/healthz', async () => health.report());
  for (const plugin of plugins) await plugin(server);
  try {
    await server.listen({ host, port });
  } catch (error) {
    throw new Error(`the HTTP server cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const address = server.server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return { url: `http://${host}:${bound}`, server };
}
