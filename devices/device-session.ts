import { map, merge, Observable, share } from 'rxjs';
import type { LinkState } from './device-status.js';

/**
 * What a serial device's driver needs of its transport: a local port (`byteLinkFromSerial`) or a device
 * behind `croupier bridge` (`bridgedByteLink`). The driver's events complete once both `bytes` and `state`
 * have completed: the transport is closed for good.
 */
export interface ByteLink {
  /** Raw bytes as the port delivers them, in chunks of any size. */
  bytes: Observable<Uint8Array>;
  /** Up when the port opens (or reopens); down at once when it closes or fails (unplugged), and why. */
  state: Observable<LinkState>;
  /** Writes to the port; called only while it is up. */
  write(bytes: Uint8Array): void;
}

/** One subscription's worth of a driver's state: made on the first subscribe, closed on the last unsubscribe. */
export interface DeviceSession {
  close(): void;
}

/**
 * A driver's events, shared by every subscriber: the session is made when the first subscribes, fed its
 * inputs one at a time in arrival order (each input is a function applying it), and closed when the last
 * leaves. The events complete, or fail, with the inputs.
 */
export function sessionEvents<E, S extends DeviceSession>(
  open: (emit: (event: E) => void) => S,
  inputs: (session: S) => Observable<() => void>,
): { events: Observable<E>; session(): S | undefined } {
  let session: S | undefined;
  const events = new Observable<E>((subscriber) => {
    const current = open((event) => subscriber.next(event));
    session = current;
    const applying = inputs(current).subscribe({
      next: (apply) => apply(),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    return () => {
      applying.unsubscribe();
      current.close();
      if (session === current) session = undefined;
    };
  }).pipe(share());
  return { events, session: () => session };
}

/** A serial device's inputs: its link going up and down, and the bytes it sends. */
export function byteLinkInputs(
  link: Pick<ByteLink, 'state' | 'bytes'>,
  session: { linkUp(): void; linkDown(reason: string): void; receive(chunk: Uint8Array): void },
): Observable<() => void> {
  return merge(
    link.state.pipe(map((state) => () => (state.up ? session.linkUp() : session.linkDown(state.reason)))),
    link.bytes.pipe(map((chunk) => () => session.receive(chunk))),
  );
}
