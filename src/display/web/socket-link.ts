import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type LinkStatus = 'connecting' | 'open' | 'closed';
export type Fields = Record<string, unknown>;
export const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

/** What each message type must carry for the page to use it; anything else is refused and counted. */
export type MessageChecks<M extends { type: string }> = Record<M['type'], (message: Fields) => boolean>;

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 8_000;

/**
 * A page's WebSocket to its server (the dealer display's to croupier, the floor's page to the floor
 * service): it checks each message against `checks`, counts what it refuses, hands the rest to
 * `receive`, and reconnects with a doubling backoff whenever the socket drops, so the page comes back by
 * itself after a restart.
 */
export abstract class SocketLink<M extends { type: string }> implements ReactiveController {
  status: LinkStatus = 'connecting';
  /** Messages refused as malformed since the page loaded. */
  refused = 0;
  #socket: WebSocket | null = null;
  #timer: number | undefined;
  #delay = FIRST_RETRY_MS;

  constructor(
    protected readonly host: ReactiveControllerHost,
    private readonly url: string,
    private readonly checks: MessageChecks<M>,
  ) {
    host.addController(this);
  }

  /** A message that passed its check. */
  protected abstract receive(message: M): void;

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
    socket.onmessage = (event) => {
      const message = this.#parse(event.data);
      if (message) this.receive(message);
      else this.refused += 1;
      this.host.requestUpdate();
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.#set('closed');
      this.#timer = window.setTimeout(() => this.#connect(), this.#delay);
      this.#delay = Math.min(this.#delay * 2, LAST_RETRY_MS);
    };
  }

  #parse(data: unknown): M | null {
    if (typeof data !== 'string') return null;
    try {
      const message: unknown = JSON.parse(data);
      if (!isObject(message) || typeof message.type !== 'string' || !Object.hasOwn(this.checks, message.type))
        return null;
      return this.checks[message.type as M['type']](message) ? (message as M) : null;
    } catch {
      return null;
    }
  }

  #set(status: LinkStatus): void {
    this.status = status;
    this.host.requestUpdate();
  }
}
