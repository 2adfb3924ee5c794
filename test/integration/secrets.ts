import type { DomainEvent } from '../../src/domain/events.js';
import type { MqttMessage } from '../../src/io/mqtt.js';
import type { PublicOutput } from '../../src/outputs/public.js';
import type { Scenario } from '../../src/scenario/load.js';

/**
 * A card the public may not see: dealt face down to a seat, never turned, exposed or named by a ruling.
 * A card its seat tables (`dealer: shown`) is public from then on (RULINGS.md "Privacy"), not before.
 */
export interface Secret {
  uid: string;
  face: string | null;
  deck: string | null;
  /** Index in the events of the `shown` that tabled it; null when it stays secret to the end. */
  tabledAt: number | null;
}

/**
 * Where a hole card's identity shows in what croupier published or logged at info level and above. The
 * messages are not timed against the events, so only the cards never tabled are looked for.
 */
export function leakedSecrets(
  scenario: Scenario,
  expected: readonly PublicOutput[],
  messages: readonly MqttMessage[],
  logs: readonly string[],
): string[] {
  const secrets = stillSecret(holeCards(scenario.events, expected), Number.POSITIVE_INFINITY);
  const infoLogs = logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 30);
  return [
    ...messages.flatMap((message) => leaks(secrets, message.payload.toString(), `MQTT ${message.topic}`)),
    ...infoLogs.flatMap((line) => leaks(secrets, line, 'log')),
  ];
}

/** The hole cards of a scenario that stay secret to the end. */
export function holeCards(events: readonly DomainEvent[], expected: readonly PublicOutput[]): Secret[] {
  // A card a ruling shows is public, and so is its face: a duplicate's twin on a seat is no secret then.
  const shown = expected.flatMap((output) =>
    output.kind === 'incident' ? output.cards.flatMap((card) => ('uid' in card ? [card] : [])) : [],
  );
  const named = new Set(shown.map((card) => card.uid));
  const namedFaces = new Set(shown.map((card) => `${card.deck}:${card.face}`));
  const faceUp = new Set(
    events.flatMap((event) =>
      event.type === 'card.seen' && !event.zone.startsWith('seat:') && event.zone !== 'muck'
        ? [event.uid]
        : [],
    ),
  );
  const secrets = new Map<string, Secret>();
  for (const event of events) {
    if (event.type !== 'card.seen' || !event.zone.startsWith('seat:')) continue;
    if (named.has(event.uid) || faceUp.has(event.uid) || namedFaces.has(`${event.deck}:${event.face}`))
      continue;
    secrets.set(event.uid, { uid: event.uid, face: event.face, deck: event.deck, tabledAt: null });
  }
  for (const [uid, at] of tablings(events)) {
    const secret = secrets.get(uid);
    if (secret) secret.tabledAt = at;
  }
  return [...secrets.values()];
}

/**
 * The cards each `shown` tables: those lying on its seat when it comes (the table tables the seat's hole
 * cards; a `shown` it refuses only makes the scan more lenient), each with the index of its `shown`.
 */
function tablings(events: readonly DomainEvent[]): Map<string, number> {
  const where = new Map<string, string>();
  const tabled = new Map<string, number>();
  events.forEach((event, index) => {
    if (event.type === 'card.seen') where.set(event.uid, event.zone);
    if (event.type !== 'dealer' || event.input !== 'shown' || event.zone === undefined) return;
    for (const [uid, zone] of where) if (zone === event.zone && !tabled.has(uid)) tabled.set(uid, index);
  });
  return tabled;
}

/** The secrets still secret once the first `played` events were played: their seats had not tabled them. */
export function stillSecret(secrets: readonly Secret[], played: number): Secret[] {
  return secrets.filter((secret) => secret.tabledAt === null || secret.tabledAt >= played);
}

export function leaks(secrets: readonly Secret[], text: string, where: string): string[] {
  const found = secrets
    .filter((secret) => text.includes(secret.uid))
    .map((s) => `${where}: UID of ${s.face}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return found;
  }
  const faces = new Set(secrets.map((secret) => `${secret.deck}:${secret.face}`));
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const card = value as { face?: unknown; deck?: unknown };
      if (faces.has(`${card.deck}:${card.face}`)) found.push(`${where}: face ${String(card.face)}`);
      Object.values(value).forEach(walk);
    }
  };
  walk(json);
  return found;
}
