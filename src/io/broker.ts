import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AedesOptions } from 'aedes';

/**
 * The embedded MQTT broker (aedes), so that one Pi runs a table alone. Bound to loopback by default: a
 * broker reachable from the casino network is issue 7's business (authentication, ACLs).
 */
export interface EmbeddedBrokerOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  /** aedes hooks (authenticate, authorizePublish, authorizeSubscribe…). */
  hooks?: Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe' | 'authorizeForward'>;
}

export interface EmbeddedBroker {
  /** `mqtt://host:port`, for clients. */
  url: string;
  port: number;
  /** Stops accepting clients, drops those connected, and closes the broker. */
  close(): Promise<void>;
}

export async function startEmbeddedBroker({
  host = '127.0.0.1',
  port = 1883,
  hooks = {},
}: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker(hooks);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  server.listen(port, host);
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error)),
    ]);
  } catch (error) {
    broker.close();
    throw new Error(`the embedded MQTT broker cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `mqtt://${host}:${bound}`,
    port: bound,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await closed;
    },
  };
}
