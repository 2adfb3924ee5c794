import type { MqttRole } from './access.js';
import type { MqttUser } from './broker-access.js';
import { type Audience, TOPICS, tableRoot } from './topics.js';

const READS: Record<Exclude<MqttRole, 'device'>, readonly Audience[] | 'all'> = {
  controller: 'all',
  floor: ['public'],
  surveillance: ['public', 'surveillance'],
};

/** A topic of the map as a Mosquitto pattern: parameters become `+`. */
function pattern(tableId: string, path: string): string {
  return `${tableRoot(tableId)}/${path.replace(/\{\w+\}/g, '+')}`;
}

/**
 * The floor service watches the whole card room (`croupier floor`): its user's lines name every table
 * (`+`), so each table's file says the same of it and the room's files can be joined into one ACL
 * (Mosquitto merges the sections of one user). Its shared subscriptions (`$share/…`) are checked on the
 * topic they share.
 */
const ROOM_WIDE: ReadonlySet<MqttUser['role']> = new Set(['floor']);

/**
 * The Mosquitto ACL file for a table on an external broker: the same rules the embedded broker enforces
 * (`access.ts`), for croupier's own user and the config's users; a floor user's over the whole room. The password file is Mosquitto's own
 * (`mosquitto_passwd`): the config keeps only salted hashes, which Mosquitto cannot read.
 */
export function mosquittoAcl(tableId: string, controller: string, users: readonly MqttUser[]): string {
  const lines = [
    `# croupier table ${tableId}: written by \`croupier mqtt-acl\`; anonymous clients get nothing`,
    `user ${controller}`,
    `topic readwrite ${tableRoot(tableId)}/#`,
  ];
  for (const user of users) {
    lines.push('', `user ${user.username}`);
    if (user.role === 'device') {
      lines.push(`topic readwrite ${tableRoot(tableId)}/device/${user.device}/#`);
      continue;
    }
    const reads = READS[user.role];
    const table = ROOM_WIDE.has(user.role) ? '+' : tableId;
    for (const spec of Object.values(TOPICS)) {
      if (reads !== 'all' && reads.includes(spec.audience))
        lines.push(`topic read ${pattern(table, spec.path)}`);
      if (spec.from === user.role) lines.push(`topic write ${pattern(table, spec.path)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
