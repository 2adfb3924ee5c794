import type { ReactiveControllerHost } from 'lit';
import type { DisplayMessage } from '../protocol.js';
import { isObject, type MessageChecks, SocketLink } from './socket-link.js';

export type { LinkStatus } from './socket-link.js';

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

const OUTPUT_KINDS: ReadonlySet<unknown> = new Set(['incident', 'prompt', 'award']);

const CHECKS: MessageChecks<DisplayMessage> = {
  hello: (m) => m.language === 'fr' || m.language === 'en',
  state: (m) => isObject(m.state) && Array.isArray(m.state.seats) && Array.isArray(m.devices),
  output: (m) => isObject(m.output) && OUTPUT_KINDS.has(m.output.kind),
  halt: (m) => typeof m.detail === 'string',
  floor: (m) =>
    isObject(m.session) && typeof m.session.token === 'string' && typeof m.session.supervisor === 'string',
};

/**
 * The display's WebSocket to croupier (`/ws`, same host): keeps the last hello and state, and hands each
 * output and badge sign-in to its handlers.
 */
export class DisplayLink extends SocketLink<DisplayMessage> {
  hello: Hello | null = null;
  state: StateMessage | null = null;
  /** Why the table stopped, if it has. */
  halt: string | null = null;

  constructor(
    host: ReactiveControllerHost,
    url: string,
    private readonly handlers: LinkHandlers,
  ) {
    super(host, url, CHECKS);
  }

  protected receive(message: DisplayMessage): void {
    if (message.type === 'hello') {
      this.hello = message;
      this.halt = null; // a new connection: told again if the table is still stopped
    } else if (message.type === 'state') this.state = message;
    else if (message.type === 'halt') this.halt = message.detail;
    else if (message.type === 'output') this.handlers.output(message.output);
    else this.handlers.floor(message.session);
  }
}
