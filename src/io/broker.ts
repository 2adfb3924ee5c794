import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes, type AedesOptions } from 'aedes';

/**
 * The embedded MQTT broker (aedes), so that one Pi runs a table alone. Bound to loopback by default;
 * reachable from the casino network, it takes TLS and the access hooks (`src/mqtt/broker-access.ts`).
 */
export interface EmbeddedBrokerOptions {
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  /** aedes hooks (authenticate, authorizePublish, authorizeSubscribe…). */
  hooks?: Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe' | 'authorizeForward'>;
  /** PEM certificate and key: the broker speaks MQTT over TLS (`mqtts://`). */
  tls?: { cert: Buffer; key: Buffer };
}

export interface EmbeddedBroker {
  /** `mqtt://host:port`, for clients. */
  url: string;
  port: number;
  /** Stops accepting clients, drops those connected, and closes the broker. */
  close(): Promise<void>;
}

/** The PEM files of `mqtt.embedded.tls`, read; a file that cannot be read is named. */
export async function readTls(files: { cert: string; key: string }): Promise<{ cert: Buffer; key: Buffer }> {
  const read = (file: string) =>
    readFile(file).catch((error: Error) => {
      throw new Error(`the embedded MQTT broker's TLS file ${file} cannot be read: ${error.message}`);
    });
  return { cert: await read(files.cert), key: await read(files.key) };
}

export async function startEmbeddedBroker({
  host = '127.0.0.1',
  port = 1883,
  hooks = {},
  tls,
}: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker(hooks);
  const sockets = new Set<Socket>();
  const handle = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    broker.handle(socket);
  };
  const server: Server = tls ? createTlsServer(tls, handle) : createServer(handle);
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
    url: `${tls ? 'mqtts' : 'mqtt'}://${host}:${bound}`,
    port: bound,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await closed;
    },
  };
}
