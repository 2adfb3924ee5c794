import { shufflerDriver } from '../devices/shuffler/driver.js';
import { parseShufflerConfig } from '../devices/shuffler/manifest.js';
import { encodeLine } from '../devices/shuffler/protocol.js';
import {
  clearRejections,
  holds,
  onByteLink,
  online,
  onlyCountedRejections,
  printable,
  rethrowingDriverErrors,
  type Target,
  total,
} from './harness.js';
import { between, pick, randomBytes } from './mutate.js';
import { hostileLine, SENTINEL, SENTINEL_LINE } from './shuffler-lines.js';

/**
 * The shuffler driver over its byte link: a shuffler that said hello, then hostile lines (and raw
 * noise), then one valid STATUS, which must come out as the shuffler's report.
 */

const CONFIG = parseShufflerConfig({});
const INTRODUCED = Buffer.from(
  [
    encodeLine({ verb: 'ACK', id: 0 }),
    encodeLine({ verb: 'HELLO', kind: 'shuffler', proto: 1, serial: 'SH-7', fw: '2.0' }),
    encodeLine({ verb: 'STATUS', gen: 0, state: 'idle', faceup: [], missing: [], extra: [] }),
  ].join(''),
  'latin1',
);

export const shufflerDriverTarget: Target<Buffer> = {
  name: 'shuffler-driver',
  family: 'shuffler',
  generate(rand) {
    if (rand() < 0.1) return randomBytes(rand, between(rand, 1, 512));
    const lines = Array.from({ length: between(rand, 1, 4) }, () => hostileLine(rand));
    return Buffer.from(
      lines.map((line) => line.toString('latin1')).join(pick(rand, ['\r\n', '\n'])),
      'latin1',
    );
  },
  check(stream) {
    return rethrowingDriverErrors(() => {
      const { driver, bytes, events, close } = onByteLink((link, clock) =>
        shufflerDriver(link, CONFIG, clock),
      );
      bytes.next(INTRODUCED);
      const before = structuredClone(driver.counters());
      const from = events.length;
      bytes.next(stream);
      // The line ending the device's next line starts with ends whatever the input left unfinished.
      bytes.next(Buffer.from('\r\n'));
      const after = structuredClone(driver.counters());
      const answers = events.slice(from);
      clearRejections(answers, 'shuffler driver');
      if (after?.lines === before?.lines) {
        onlyCountedRejections(answers, total(after?.rejected ?? {}) - total(before?.rejected ?? {}));
      }
      if (!online(events)) bytes.next(INTRODUCED);
      bytes.next(SENTINEL_LINE);
      close();
      const reported = events
        .slice(from)
        .some((event) => event.kind === 'report' && event.code === SENTINEL.code);
      holds(reported, 'the valid STATUS after it was lost');
      const refused =
        answers.some((event) => event.kind === 'rejected') || after?.refused !== before?.refused;
      return refused ? 'refused' : 'accepted';
    });
  },
  show: (stream) => printable(stream),
};
