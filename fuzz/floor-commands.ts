import { Subject } from 'rxjs';
import { inboxLink } from '../simulators/floor-link.js';
import type { MqttMessage } from '../src/io/mqtt.js';
import { floorCommands, type RefusedCommand } from '../src/mqtt/commands.js';
import { COMMANDS } from '../src/mqtt/topics.js';
import { FloorDesk } from '../src/supervisor/desk.js';
import { clearReason, holds, printable, type Target } from './harness.js';
import { hostileJsonText } from './json.js';
import { between, pick } from './mutate.js';

/**
 * The floor's commands on MQTT (src/mqtt/commands.ts): hostile payloads on each command's topic and on
 * names that are no command, replays of an id already taken, then one well-formed command. Every message
 * comes out as a dealer input or a refusal with its reason; the well-formed one reaches the supervisor
 * check. The desk knows no PIN here (a scrypt check per input would be the whole run): it refuses the
 * signature, which shows the command got through the parser; test/unit/hostile signs one for real.
 */

const ROOT = 'croupier/v1/t1/command/';
const SAMPLES = [
  { id: '1', pin: '2468' },
  { id: 'c0ffee', value: 'misdeal', badge: '04A1B2C3' },
  { id: 'x'.repeat(64), value: 'continue', pin: '123456789012' },
];
const NAMES = [...COMMANDS, '', '+', '#', 'acknowledge/x', 'ACKNOWLEDGE', 'é', 'x'.repeat(300)];
/** Past this a message is lost: the parser answers each within microtasks. */
const ANSWER_MS = 5000;

export interface CommandInput {
  messages: { name: string; payload: Buffer }[];
}

export const SENTINEL = { name: 'call-floor', payload: Buffer.from('{"id":"sentinel","pin":"2468"}') };
const SENTINEL_REFUSED = 'command sentinel: supervisor refused (wrong)';

/** Feeds `messages` to the floor's command stream; resolves with every answer, or those before a hang. */
export async function commandAnswers(
  messages: readonly { name: string; payload: Buffer }[],
  desk: FloorDesk,
): Promise<{ inputs: unknown[]; refused: RefusedCommand[] }> {
  const incoming = new Subject<MqttMessage>();
  const link = inboxLink(incoming);
  const refused: RefusedCommand[] = [];
  const inputs: unknown[] = [];
  let answered = () => {};
  let failed: (error: unknown) => void = () => {};
  const allAnswered = new Promise<void>((resolve, reject) => {
    answered = () => {
      if (refused.length + inputs.length === messages.length) resolve();
    };
    failed = reject;
  });
  const refuse = (refusal: RefusedCommand) => {
    refused.push(refusal);
    answered();
  };
  const subscription = floorCommands(link, 't1', { now: () => 42, desk, refuse }).subscribe({
    next: (input) => {
      inputs.push(input);
      answered();
    },
    // The stream failing is the parser's crash: in the controller it would end the floor's commands.
    error: (error: unknown) => failed(error),
  });
  for (const { name, payload } of messages)
    incoming.next({ topic: `${ROOT}${name}`, payload, retain: false });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([allAnswered, new Promise((resolve) => (timer = setTimeout(resolve, ANSWER_MS)))]);
  } finally {
    clearTimeout(timer);
    subscription.unsubscribe();
  }
  return { inputs, refused };
}

export const floorCommandsTarget: Target<CommandInput> = {
  name: 'floor-commands',
  family: 'floor-commands',
  generate(rand) {
    const messages = Array.from({ length: between(rand, 1, 2) }, () => ({
      name: rand() < 0.9 ? pick(rand, COMMANDS) : pick(rand, NAMES),
      payload: hostileJsonText(rand, SAMPLES),
    }));
    // A replay: the same message again.
    const first = messages[0];
    if (first && rand() < 0.1) messages.push(first);
    return { messages };
  },
  async check({ messages }) {
    const desk = new FloorDesk([{ name: 'Marie' }], { now: () => 42, maxFailures: Number.POSITIVE_INFINITY });
    const { inputs, refused } = await commandAnswers([...messages, SENTINEL], desk);
    for (const refusal of refused) clearReason(refusal.reason, 'command refused');
    holds(refused.length + inputs.length === messages.length + 1, 'a command neither taken nor refused');
    holds(refused.at(-1)?.reason === SENTINEL_REFUSED, 'the well-formed command after it was lost');
    const parsed = refused.filter((refusal) => refusal.reason.includes(': supervisor refused ('));
    return parsed.length === refused.length ? 'accepted' : 'refused';
  },
  show: ({ messages }) =>
    messages.map(({ name, payload }) => `${printable(name)} ${printable(payload)}`).join(' | '),
};
