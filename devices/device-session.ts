import { map, merge, Observable, share } from 'rxjs';
import type { LinkState } from './device-status.js';

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
  link: { state: Observable<LinkState>; bytes: Observable<Uint8Array> },
  session: { linkUp(): void; linkDown(reason: string): void; receive(chunk: Uint8Array): void },
): Observable<() => void> {
  return merge(
    link.state.pipe(map((state) => () => (state.up ? session.linkUp() : session.linkDown(state.reason)))),
    link.bytes.pipe(map((chunk) => () => session.receive(chunk))),
  );
}
