import { connect, type MqttClient } from 'mqtt';
import { statusMessage } from '../../src/mqtt/publisher.js';
import { topicOf } from '../../src/mqtt/topics.js';
import {
  callKey,
  type PublicCard,
  type PublicIncident,
  type PublicState,
  type TableExtras,
} from '../../src/outputs/public.js';
import type { Tape } from './tapes.js';

export interface LoadTableOptions {
  id: string;
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  profile: string;
  /** Told of each incident the moment it is handed to the broker. */
  published(incident: PublishedIncident): void;
}

export interface PublishedIncident {
  table: string;
  /** The state's `call.key` the floor will show it under. */
  key: string;
  /** Null for a dealer's call. */
  incident: PublicIncident['incident'] | null;
  /** `performance.now()` when it was published. */
  at: number;
}

const DEVICES: NonNullable<TableExtras['devices']> = [
  { id: 'rfid-1', kind: 'rfid-reader', status: 'online' },
  { id: 'keypad-1', kind: 'hid-keypad', status: 'online' },
  { id: 'chips-1', kind: 'chip-sensors', status: 'online' },
  { id: 'shuffler-1', kind: 'shuffler', status: 'online' },
];

/**
 * One simulated table's public traffic, as croupier publishes it: its retained `online` status (its
 * will says `offline`), its retained public state after each change (the frames of a tape, renumbered
 * to the table's own hands and journal), and each incident on `incident` just before the state that
 * shows it. It speaks to the broker on its own connection, as a table's Pi does.
 */
export class LoadTable {
  readonly id: string;
  #client: MqttClient | undefined;
  #tape: Tape | undefined;
  #frame = 0;
  /** Hands and journal records before this tape: the tape's own numbers are added to them. */
  #hands = 0;
  #seq = 0;
  #dealer: NonNullable<TableExtras['dealer']> | undefined;
  #call: NonNullable<TableExtras['call']> | undefined;
  /** The dealer called the floor: the state says `floor` until it is over. */
  #calling = false;
  /** Prefixes this table's tag UIDs. */
  readonly #tag: string;
  /** The tape's last state, as recorded. */
  #taped: PublicState | undefined;

  constructor(private readonly options: LoadTableOptions) {
    this.id = options.id;
    this.#tag = options.id;
  }

  get online(): boolean {
    return this.#client !== undefined;
  }

  get playing(): Tape | undefined {
    return this.#tape;
  }

  /** The key of the incident or call its state shows open, if any. */
  get openCall(): string | undefined {
    return this.#call?.key;
  }

  /**
   * Connects (with its will) and, on each connection, says it is online and its state if it has one, as
   * croupier does after a broker restart.
   */
  async connect(): Promise<void> {
    const client = connect(this.options.url, {
      clientId: `load-${this.id}`,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      ...(this.options.username !== undefined && { username: this.options.username }),
      ...(this.options.password !== undefined && { password: this.options.password }),
      will: {
        topic: topicOf(this.id, 'status'),
        payload: Buffer.from(statusMessage('offline', 'load')),
        retain: true,
        qos: 1,
      },
    });
    this.#client = client;
    client.on('error', () => undefined);
    client.on('connect', () => {
      this.#send('status', statusMessage('online', 'load'), true);
      this.#publish();
    });
    await new Promise<void>((resolve) => client.once('connect', () => resolve()));
  }

  /** The cable pulled: the connection drops without goodbye, the broker says the will. */
  drop(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.stream.destroy();
    client?.end(true);
  }

  /**
   * A clean stop: `offline` said, then the connection closed. `forget`: the table leaves the room, its
   * retained status and state cleared from the broker.
   */
  async close({ forget = false } = {}): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    for (const [topic, payload] of forget
      ? [
          ['status', ''],
          ['state', ''],
        ]
      : [['status', statusMessage('offline', 'load')]]) {
      await client.publishAsync(topicOf(this.id, topic as 'status'), payload as string, {
        qos: 1,
        retain: true,
      });
    }
    await client.endAsync();
  }

  /** Plays `tape` from its start (or from just before its first incident: an incident now). */
  load(tape: Tape, { atIncident = false } = {}): void {
    this.#hands += Math.max(0, ...(this.#tape?.frames.map((frame) => frame.state.hand ?? 0) ?? [0]));
    this.#seq += this.#tape?.frames.length ?? 0;
    this.#tape = tape;
    this.#frame = atIncident ? Math.max(0, tape.incidentAt) : 0;
    this.#calling = false;
  }

  /** The next frame of the tape; false once it is played through. */
  step(): boolean {
    const frame = this.#tape?.frames[this.#frame];
    if (!frame) return false;
    this.#frame++;
    for (const incident of frame.incidents) {
      const output = { ...incident, at: this.#seq + incident.at, cards: incident.cards.map(this.#own) };
      this.#send('incident', JSON.stringify(output));
    }
    this.#taped = frame.state;
    this.#publish();
    return true;
  }

  /** The dealer calls the floor; `over` ends it (the floor decided). */
  callFloor(over = false): void {
    this.#calling = !over;
    this.#publish();
  }

  /** A new dealer's down. */
  signIn(name: string): void {
    this.#dealer = { name, since: Date.now(), afterHand: this.#view()?.hand ?? this.#hands };
    this.#publish();
  }

  /**
   * A card of the tape as this table's decks have it: every table has its own decks, so its own tag
   * UIDs (the tapes all come from the simulated decks of the demo tables, whose UIDs these never spell).
   */
  readonly #own = (card: PublicCard): PublicCard =>
    'uid' in card ? { ...card, uid: `${this.#tag}:${card.uid.slice(0, 4)}:${card.uid.slice(4)}` } : card;

  /** The state as the table would publish it now: the tape's, renumbered, with croupier's extras. */
  #view(): PublicState | undefined {
    const taped = this.#taped;
    if (!taped) return undefined;
    const incident = taped.incident && {
      ...taped.incident,
      at: this.#seq + taped.incident.at,
      cards: taped.incident.cards.map(this.#own),
    };
    const hand = taped.hand === null ? null : this.#hands + taped.hand;
    const phase = this.#calling ? 'floor' : taped.phase;
    const [board, burn, dead] = [taped.board, taped.burn, taped.dead].map((cards) => cards.map(this.#own));
    const bare = { ...taped, hand, incident, phase, board, burn, dead } as PublicState;
    const key = callKey(bare);
    if (key === null) this.#call = undefined;
    else if (this.#call?.key !== key) {
      this.#call = { key, since: Date.now() };
      this.options.published({
        table: this.id,
        key,
        incident: incident?.incident ?? null,
        at: performance.now(),
      });
    }
    return {
      ...bare,
      profile: this.options.profile,
      devices: DEVICES,
      ...(this.#dealer && { dealer: this.#dealer }),
      ...(this.#call && { call: this.#call }),
    };
  }

  #publish(): void {
    const state = this.#view();
    if (state) this.#send('state', JSON.stringify(state), true);
  }

  #send(topic: 'status' | 'state' | 'incident', payload: string, retain = false): void {
    this.#client?.publish(topicOf(this.id, topic), payload, { qos: 1, retain }, () => undefined);
  }
}
