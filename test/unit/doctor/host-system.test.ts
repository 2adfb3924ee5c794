import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostSystem } from '../../../src/doctor/system.js';
import { startEmbeddedBroker } from '../../../src/io/broker.js';

/** What the real adapter does against real peers on loopback: the fakes of the other tests stand for it. */
const system = hostSystem();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listening(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => sockets.add(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** A port nothing listens on: one that was just freed. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

describe("doctor's host system: the broker", () => {
  it('connects to a broker and leaves', async () => {
    const broker = await startEmbeddedBroker({ port: 0 });
    closers.push(() => broker.close());
    await expect(system.mqttConnect(broker.url, {})).resolves.toBeUndefined();
  });

  it("gives a broker's refusal its MQTT return code, a number", async () => {
    const broker = await startEmbeddedBroker({
      port: 0,
      hooks: {
        authenticate: (_client, _username, _password, done) =>
          done(Object.assign(new Error('no'), { returnCode: 5 }) as never, false),
      },
    });
    closers.push(() => broker.close());
    await expect(system.mqttConnect(broker.url, { username: 'x', password: 'y' })).rejects.toMatchObject({
      code: 5,
    });
  });

  it('says ECONNREFUSED where nothing listens', async () => {
    const port = await freePort();
    await expect(system.mqttConnect(`mqtt://127.0.0.1:${port}`, {})).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('gives up on a program that is no broker', async () => {
    const port = await listening(createServer((socket) => socket.end()));
    await expect(system.mqttConnect(`mqtt://127.0.0.1:${port}`, {})).rejects.toThrow(
      'the broker closed the connection',
    );
  });

  it('gives up after 3 s on one that never answers', async () => {
    const port = await listening(createServer(() => undefined));
    await expect(system.mqttConnect(`mqtt://127.0.0.1:${port}`, {})).rejects.toMatchObject({
      code: 'ETIMEDOUT',
    });
  });
});

describe("doctor's host system: the rest", () => {
  it('fetches a page', async () => {
    const port = await listening(
      createHttpServer((_request, response) => response.writeHead(404).end('gone')),
    );
    expect(await system.fetch(`http://127.0.0.1:${port}/`)).toEqual({ status: 404, body: 'gone' });
    const free = await freePort();
    await expect(system.fetch(`http://127.0.0.1:${free}/`)).rejects.toThrow();
  });

  it('runs commands: an exit code is a result, a command not installed an ENOENT', async () => {
    expect(await system.exec('sh', ['-c', 'echo yes; exit 3'])).toEqual({ code: 3, stdout: 'yes\n' });
    await expect(system.exec('croupier-no-such-command', [])).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads folders, free space and access', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'croupier-doctor-'));
    closers.push(async () => rmSync(dir, { recursive: true }));
    expect(await system.readdir(dir)).toEqual([]);
    expect(await system.freeBytes(dir)).toBeGreaterThan(0);
    await expect(system.access(dir, 'write')).resolves.toBeUndefined();
    await expect(system.access(join(dir, 'none'), 'exists')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
