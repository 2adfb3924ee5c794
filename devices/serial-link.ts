import { distinctUntilChanged, map } from 'rxjs';
import type { SerialLink, SerialStatus } from '../src/io/serial.js';
import type { ByteLink } from './device-session.js';
import type { LinkState } from './device-status.js';

function linkState(status: SerialStatus): LinkState {
  switch (status.state) {
    case 'open':
      return { up: true };
    case 'opening':
      return { up: false, reason: `opening ${status.device}` };
    case 'closed':
    case 'error':
      return { up: false, reason: status.reason };
  }
}

/** The serial transport as a driver's byte link (reader board, shuffler). */
export function byteLinkFromSerial(serial: SerialLink): ByteLink {
  return {
    bytes: serial.data$,
    // Failed reopen attempts repeat while the reader is unplugged: the driver hears of the first only.
    state: serial.status$.pipe(
      map(linkState),
      distinctUntilChanged((a, b) => a.up === b.up),
    ),
    // A failed write also shows on `status$`, which takes the link down: nothing more to do with it.
    write: (bytes) => {
      serial.write(bytes).catch(() => undefined);
    },
  };
}
