import Fastify, { type FastifyInstance } from 'fastify';
import type { TableHealth } from './health.js';

/** The controller's HTTP server: `/healthz`, and what `plugins` add (the dealer display). */
export async function startHttp(
  { host, port }: { host: string; port: number },
  health: TableHealth,
  plugins: ((server: FastifyInstance) => Promise<void>)[] = [],
): Promise<{ url: string; server: FastifyInstance }> {
  const server = Fastify({ logger: false });
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
