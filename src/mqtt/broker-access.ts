import { timingSafeEqual } from 'node:crypto';
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
 * (`access.ts`). A refusal is reported with the client and the topic, never a password.
 */
export function brokerAccess(
  tableId: string,
  users: readonly MqttUser[],
  controller: { username: string; password: string },
  refused: (reason: string) => void,
): BrokerHooks {
  const identities = new WeakMap<Client, MqttIdentity>();
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
        if (identity) identities.set(client, identity);
        else refused(`MQTT client ${client.id.slice(0, 64)} refused: unknown user or wrong password`);
        done(
          identity ? null : Object.assign(new Error('not authorised'), { returnCode: 4 }),
          identity !== null,
        );
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
