import type { ReactiveControllerHost } from 'lit';
import { isObject, type MessageChecks, SocketLink } from '../../display/web/socket-link.js';
import type { FloorMessage, TableTile } from '../protocol.js';

type Hello = Extract<FloorMessage, { type: 'hello' }>;
type Broker = Extract<FloorMessage, { type: 'broker' }>['state'];

const isTile = (value: unknown): value is TableTile =>
  isObject(value) && typeof value.id === 'string' && typeof value.status === 'string';

const CHECKS: MessageChecks<FloorMessage> = {
  hello: (m) => (m.language === 'fr' || m.language === 'en') && Array.isArray(m.tables),
  room: (m) => Array.isArray(m.tiles) && m.tiles.every(isTile),
  tile: (m) => isTile(m.tile),
  gone: (m) => typeof m.table === 'string',
  broker: (m) => typeof m.state === 'string',
};

/**
 * The page's WebSocket to the floor service (`/ws`): the room's tiles by table, the broker's link, and
 * each tile that changes told to `changed` (the page sounds a new call). Each connection starts with the
 * whole room, so nothing is missed while it was away.
 */
export class RoomLink extends SocketLink<FloorMessage> {
  hello: Hello | null = null;
  broker: Broker = 'connecting';
  readonly tiles = new Map<string, TableTile>();
  #rooms = 0;

  constructor(
    host: ReactiveControllerHost,
    url: string,
    /** `first`: the first room since the page loaded, where the room stands rather than what is new. */
    private readonly changed: (tile: TableTile, before: TableTile | undefined, first: boolean) => void,
  ) {
    super(host, url, CHECKS);
  }

  protected receive(message: FloorMessage): void {
    if (message.type === 'hello') this.hello = message;
    else if (message.type === 'broker') this.broker = message.state;
    else if (message.type === 'gone') this.tiles.delete(message.table);
    else if (message.type === 'tile') this.#take(message.tile, false);
    else {
      const before = new Map(this.tiles);
      const first = this.#rooms++ === 0;
      this.tiles.clear();
      for (const tile of message.tiles) this.#take(tile, first, before.get(tile.id));
    }
  }

  #take(tile: TableTile, first: boolean, before = this.tiles.get(tile.id)): void {
    this.tiles.set(tile.id, tile);
    this.changed(tile, before, first);
  }
}
