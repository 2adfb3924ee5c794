import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DisplayMessage } from '../protocol.js';

export type LinkStatus = 'connecting' | 'open' | 'closed';
type Hello = Extract<DisplayMessage, { type: 'hello' }>;
type StateMessage = Extract<DisplayMessage, { type: 'state' }>;
type Output = Extract<DisplayMessage, { type: 'output' }>['output'];
type Session = Extract<DisplayMessage, { type: 'floor' }>['session'];

/** What the page does with the messages that are events rather than state. */
export interface LinkHandlers {
  output(output: Output): void;
  /** A supervisor signed in with a badge at the keypad. */
  floor(session: Session): void;
}

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 8_000;

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

/** What each message type must carry for the page to render it; anything else is refused and counted. */
const VALID: Record<DisplayMessage['type'], (message: Fields) => boolean> = {
  hello: (m) => m.language === 'fr' || m.language === 'en',
  state: (m) => isObject(m.state) && Array.isArray(m.state.seats) && Array.isArray(m.devices),
  output: (m) => isObject(m.output) && (m.output.kind === 'incident' || m.output.kind === 'prompt'),
  halt: (m) => typeof m.detail === 'string',
  floor: (m) =>
    isObject(m.session) && typeof m.session.token === 'string' && typeof m.session.supervisor === 'string',
};

function parse(data: unknown): DisplayMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message: unknown = JSON.parse(data);
    if (!isObject(message) || typeof message.type !== 'string' || !Object.hasOwn(VALID, message.type))
      return null;
    return VALID[message.type as DisplayMessage['type']](message) ? (message as DisplayMessage) : null;
  } catch {
    return null;
  }
}

/**
 * The display's WebSocket to croupier (`/ws`, same host): keeps the last hello and state, hands each
 * output and badge sign-in to its handlers, and reconnects with a doubling backoff whenever the socket drops, so the screen
 * comes back by itself after a controller restart.
 */
export class DisplayLink implements ReactiveController {
  status: LinkStatus = 'connecting';
  hello: Hello | null = null;
  state: StateMessage | null = null;
  /** Why the table stopped, if it has. */
  halt: string | null = null;
  /** Messages refused as malformed since the page loaded. */
  refused = 0;
  #socket: WebSocket | null = null;
  #timer: number | undefined;
  #delay = FIRST_RETRY_MS;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly url: string,
    private readonly handlers: LinkHandlers,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.#connect();
  }

  hostDisconnected(): void {
    window.clearTimeout(this.#timer);
    const socket = this.#socket;
    this.#socket = null;
    socket?.close();
  }

  #connect(): void {
    this.#set('connecting');
    const socket = new WebSocket(this.url);
    this.#socket = socket;
    socket.onopen = () => {
      this.#delay = FIRST_RETRY_MS;
      this.#set('open');
    };
    socket.onmessage = (event) => this.#receive(event.data);
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#set('closed');
      this.#timer = window.setTimeout(() => this.#connect(), this.#delay);
      this.#delay = Math.min(this.#delay * 2, LAST_RETRY_MS);
    };
  }

  #receive(data: unknown): void {
    const message = parse(data);
    if (!message) this.refused += 1;
    else if (message.type === 'hello') {
      this.hello = message;
      this.halt = null; // a new connection: told again if the table is still stopped
    } else if (message.type === 'state') this.state = message;
    else if (message.type === 'halt') this.halt = message.detail;
    else if (message.type === 'output') this.handlers.output(message.output);
    else this.handlers.floor(message.session);
    this.host.requestUpdate();
  }

  #set(status: LinkStatus): void {
    this.status = status;
    this.host.requestUpdate();
  }
}
