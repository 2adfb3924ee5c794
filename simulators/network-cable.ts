import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';

/**
 * The network cable between a simulated device and its broker: a TCP relay on loopback. Cutting it drops
 * the connections with no MQTT DISCONNECT, as a pulled cable or a dead Wi-Fi does, so the broker
 * publishes the device's last will; while cut, reconnection attempts fail.
 */
export interface NetworkCable {
  /** Where the device connects instead of the broker (`mqtt://127.0.0.1:<port>`). */
  url: string;
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

export async function openCable(brokerUrl: string): Promise<NetworkCable> {
  const broker = new URL(brokerUrl);
  const brokerPort = Number(broker.port || 1883);
  const ends = new Set<Socket>();
  let isCut = false;
  const drop = (socket: Socket) => {
    ends.delete(socket);
    socket.destroy();
  };
  const server = createServer((device) => {
    if (isCut) return void device.destroy();
    const upstream = connect(brokerPort, broker.hostname);
    for (const [end, other] of [
      [device, upstream],
      [upstream, device],
    ] as const) {
      ends.add(end);
      end.pipe(other);
      end.on('error', () => undefined);
      end.once('close', () => {
        drop(end);
        drop(other);
      });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const cut = () => {
    isCut = true;
    for (const end of [...ends]) drop(end);
  };
  return {
    url: `mqtt://127.0.0.1:${port}`,
    cut,
    mend: () => {
      isCut = false;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      cut();
      await closed;
    },
  };
}
