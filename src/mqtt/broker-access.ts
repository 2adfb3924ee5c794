import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { AedesOptions, Client } from 'aedes';
import { matchesSecret } from '../supervisor/credentials.js';
import { type MqttIdentity, mayPublish, maySubscribe } from './access.js';

/** A broker user from the config: a salted hash of the password, never the password. */
export interface MqttUser {
  username: string;
  password: string;
  role: Exclude<MqttIdentity['role'], 'controller'>;
  /** The device it speaks for, for the device role. */
  device?: string | undefined;
}

export type BrokerHooks = Required<
  Pick<AedesOptions, 'authenticate' | 'authorizePublish' | 'authorizeSubscribe'>
>;

/**
 * The embedded broker's access control: every client signs in (croupier itself with a secret made at
 * start and held in memory, the others as the config's users) and is held to its role's topics
 * (`access.ts`). A device's credential signs in one client at a time: a second one (a cloned sensor) is
 * refused while the first is connected, so it can neither displace nor join it. A refusal is reported
 * with the client, its address and the user or topic, never a password.
 */
export function brokerAccess(
  tableId: string,
  users: readonly MqttUser[],
  controller: { username: string; password: string },
  refused: (reason: string) => void,
): BrokerHooks {
  const identities = new WeakMap<Client, MqttIdentity>();
  const devices = new DeviceConnections();
  const isController = (username: string, password: Buffer) =>
    username === controller.username &&
    password.length === controller.password.length &&
    timingSafeEqual(password, Buffer.from(controller.password));
  return {
    authenticate: (client, username, password, done) => {
      const identify = async (): Promise<MqttIdentity | null> => {
        if (username === undefined || password === undefined) return null;
        if (isController(username, password)) return { role: 'controller' };
        const user = users.find((candidate) => candidate.username === username);
        if (!user || !(await matchesSecret(password.toString('utf8'), user.password))) return null;
        return { role: user.role, ...(user.device !== undefined && { device: user.device }) };
      };
      void identify().then((identity) => {
        const who = `MQTT client ${client.id.slice(0, 64)} from ${addressOf(client)}`;
        if (!identity) {
          refused(`${who} refused: unknown user or wrong password`);
          return done(Object.assign(new Error('not authorised'), { returnCode: 4 }), false);
        }
        if (identity.role === 'device' && !devices.take(username as string, client)) {
          refused(`${who} refused: device user ${username} is already connected (one connection per device)`);
          return done(Object.assign(new Error('device already connected'), { returnCode: 5 }), false);
        }
        identities.set(client, identity);
        done(null, true);
      });
    },
    authorizePublish: (client, packet, callback) => {
      if (!client) return callback(null); // the broker's own messages
      const identity = identities.get(client);
      if (identity && mayPublish(tableId, identity, packet.topic)) return callback(null);
      refused(`MQTT client ${client.id.slice(0, 64)} may not publish on ${packet.topic.slice(0, 128)}`);
      callback(new Error('not authorised'));
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const identity = identities.get(client);
      if (identity && maySubscribe(tableId, identity, subscription.topic))
        return callback(null, subscription);
      refused(
        `MQTT client ${client.id.slice(0, 64)} may not subscribe to ${subscription.topic.slice(0, 128)}`,
      );
      // A refused subscription is granted nothing (SUBACK 0x80), the connection stays.
      callback(null, null);
    },
  };
}

/** The one live client of each device user: taken at sign-in, free again when its connection closes. */
class DeviceConnections {
  readonly #clients = new Map<string, Client>();

  /** Whether `client` may speak for `username`: no other client of it is connected. */
  take(username: string, client: Client): boolean {
    // The client may have gone while its password was checked: nothing to hold then.
    if (client.closed || client.conn.destroyed) return true;
    if (this.#clients.has(username)) return false;
    this.#clients.set(username, client);
    client.conn.once('close', () => {
      if (this.#clients.get(username) === client) this.#clients.delete(username);
    });
    return true;
  }
}

/** The client's network address, as a log can name it. */
function addressOf(client: Client): string {
  const { remoteAddress, remotePort } = client.conn as Partial<Socket>;
  return remoteAddress === undefined ? 'an unknown address' : `${remoteAddress}:${remotePort}`;
}
