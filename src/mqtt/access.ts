import { type Audience, TOPICS, tableRoot } from './topics.js';

/**
 * Who may do what on the table's broker (DESIGN.md "Security rules"), from the topic map's audiences:
 * croupier itself anything under its table; a device publishes and reads only under its own
 * `device/<id>/`; the floor reads the public topics and writes `command/`; surveillance reads the
 * public topics and `private/`. Anything else, and any other table or `$SYS`, is refused.
 */
export type MqttRole = 'controller' | 'device' | 'floor' | 'surveillance';

export interface MqttIdentity {
  role: MqttRole;
  /** A device's id, for the device role. */
  device?: string;
}

const READS: Record<Exclude<MqttRole, 'controller' | 'device'>, readonly Audience[]> = {
  floor: ['public'],
  surveillance: ['public', 'surveillance'],
};

/** Every topic of the table as level templates, `+` standing for a parameter. */
function templates(tableId: string) {
  return Object.values(TOPICS).map((spec) => ({
    spec,
    levels: `${tableRoot(tableId)}/${spec.path}`
      .split('/')
      .map((level) => (/^\{\w+\}$/.test(level) ? '+' : level)),
  }));
}

/** Whether a subscription filter could match a topic of the template (its `+` matching any one level). */
function overlaps(filter: readonly string[], template: readonly string[]): boolean {
  for (const [i, level] of filter.entries()) {
    if (level === '#') return true;
    const wanted = template[i];
    if (wanted === undefined) return false;
    if (level !== '+' && wanted !== '+' && level !== wanted) return false;
  }
  return filter.length === template.length;
}

/** Whether a concrete topic is one of the template's. */
function matches(topic: readonly string[], template: readonly string[]): boolean {
  return (
    topic.length === template.length && template.every((level, i) => level === '+' || level === topic[i])
  );
}

/** A device's own root, `croupier/v1/<table>/device/<id>/`: the only place it reads and writes. */
function ownRoot(tableId: string, identity: MqttIdentity): string {
  return `${tableRoot(tableId)}/device/${identity.device ?? ''}/`;
}

/** Whether `identity` may subscribe to `filter`: every table topic it could match is one it may read. */
export function maySubscribe(tableId: string, identity: MqttIdentity, filter: string): boolean {
  if (identity.role === 'device')
    return filter.startsWith(ownRoot(tableId, identity)) && identity.device !== undefined;
  const levels = filter.split('/');
  if (filter.startsWith('$') || levels[0] === '#' || levels[0] === '+') return false;
  const reached = templates(tableId).filter(({ levels: template }) => overlaps(levels, template));
  if (identity.role === 'controller') return reached.length > 0;
  const readable = READS[identity.role];
  return reached.length > 0 && reached.every(({ spec }) => readable.includes(spec.audience));
}

/** Whether `identity` may publish on `topic`. */
export function mayPublish(tableId: string, identity: MqttIdentity, topic: string): boolean {
  const levels = topic.split('/');
  const spec = templates(tableId).find(({ levels: template }) => matches(levels, template))?.spec;
  if (!spec) return false;
  switch (identity.role) {
    case 'controller':
      return true;
    case 'device':
      return (
        spec.from === 'device' &&
        topic.startsWith(ownRoot(tableId, identity)) &&
        identity.device !== undefined
      );
    case 'floor':
      return spec.from === 'floor';
    case 'surveillance':
      return false;
  }
}
