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
 * The Mosquitto ACL file for a table on an external broker: the same rules the embedded broker enforces
 * (`access.ts`), for croupier's own user and the config's users. The password file is Mosquitto's own
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
    for (const spec of Object.values(TOPICS)) {
      if (reads !== 'all' && reads.includes(spec.audience))
        lines.push(`topic read ${pattern(tableId, spec.path)}`);
      if (spec.from === user.role) lines.push(`topic write ${pattern(tableId, spec.path)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
