import { concatMap, type Observable } from 'rxjs';
import { describeIssues } from '../config/problems.js';
import type { DealerInput, Unsequenced } from '../domain/events.js';
import { FLOOR_DECISIONS, levelOf } from '../domain/events.js';
import type { MqttLink } from '../io/mqtt.js';
import type { Credential, FloorDesk } from '../supervisor/desk.js';
import { COMMANDS, commandPayload, tableRoot, topicOf } from './topics.js';

/** A floor command refused: malformed, unknown, or a replay of one already taken. */
export interface RefusedCommand {
  topic: string;
  reason: string;
}

/** A supervisor's "on my way" to the open call `call` (the state's `call.key`), signed. */
export interface FloorAnswer {
  supervisor: string;
  call: string;
}

const REMEMBERED_IDS = 10_000;

/**
 * The floor's commands on `command/<name>` as dealer inputs for the table, each signed by the supervisor
 * whose PIN or badge it carries (checked by the table's floor desk, with its lockout; one at a time, in
 * order). A command carries an id; one seen before is refused, so a captured message replayed later does
 * nothing, even with a good PIN.
 */
export function floorCommands(
  link: MqttLink,
  tableId: string,
  {
    now,
    desk,
    refuse,
    answered = () => undefined,
  }: {
    now: () => number;
    desk: FloorDesk;
    refuse: (refused: RefusedCommand) => void;
    /** An `on-my-way`, once its supervisor is checked: the controller shows it, the table never sees it. */
    answered?: (answer: FloorAnswer) => void;
  },
): Observable<Unsequenced<DealerInput>> {
  const seen = new Set<string>();
  const prefix = `${tableRoot(tableId)}/command/`;
  return link.messages(topicOf(tableId, 'command')).pipe(
    concatMap(async (message) => {
      const result = parseCommand(message.topic.slice(prefix.length), message.payload, seen);
      if (typeof result === 'string') {
        refuse({ topic: message.topic, reason: result });
        return [];
      }
      if (seen.size >= REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
      seen.add(result.id);
      const outcome = await desk.signIn(result.credential);
      if (!('signedIn' in outcome)) {
        refuse({
          topic: message.topic,
          reason: `command ${result.id}: supervisor refused (${outcome.refused})`,
        });
        return [];
      }
      desk.signOut(outcome.signedIn.token); // a command is signed once: no session stays open
      const { supervisor } = outcome.signedIn;
      if ('call' in result) {
        answered({ supervisor, call: result.call });
        return [];
      }
      const { input, value } = result;
      return [
        {
          type: 'dealer' as const,
          t: now(),
          input,
          ...(value !== undefined && { value }),
          supervisor,
        },
      ];
    }),
    concatMap((inputs) => inputs),
  );
}

type Command = { id: string; credential: Credential } & (
  | { input: DealerInput['input']; value?: string }
  | { call: string }
);

/** The command, or why it is refused. */
function parseCommand(name: string, payload: Buffer, seen: ReadonlySet<string>): Command | string {
  if (!(COMMANDS as readonly string[]).includes(name)) {
    return `unknown command "${name.slice(0, 32)}" (known: ${COMMANDS.join(', ')})`;
  }
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return `command ${name}: the payload is not JSON`;
  }
  const parsed = commandPayload.safeParse(json);
  if (!parsed.success) {
    return `command ${name}: ${describeIssues(parsed.error.issues, '', '; ')}`;
  }
  const { id, value, pin, badge } = parsed.data;
  if (seen.has(id)) return `command ${name}: id ${id} was already taken (a replay)`;
  const credential: Credential = pin !== undefined ? { pin } : { badge: badge as string };
  switch (name) {
    case 'acknowledge':
      return { id, credential, input: 'confirm' };
    case 'call-floor':
      return { id, credential, input: 'call-floor' };
    case 'void-hand':
      return { id, credential, input: 'floor-decision', value: 'void' };
    case 'on-my-way':
      if (value === undefined) return 'command on-my-way: value must name the call (the state’s call.key)';
      return { id, credential, call: value };
    case 'level':
      // The tournament clock's level, from the next hand on.
      if (levelOf(value) === null)
        return `command level: value must be sb/bb or sb/bb/ante (e.g. 100/200/25)`;
      return { id, credential, input: 'level', value: value as string };
    default:
      if (!(FLOOR_DECISIONS as readonly (string | undefined)[]).includes(value)) {
        return `command ${name}: value must be one of ${FLOOR_DECISIONS.join(', ')}`;
      }
      return { id, credential, input: 'floor-decision', value: value as string };
  }
}
