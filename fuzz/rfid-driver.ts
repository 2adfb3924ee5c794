import { type RfidCounters, type RfidReader, rfidReader } from '../devices/rfid-reader/driver.js';
import { parseRfidReaderConfig } from '../devices/rfid-reader/manifest.js';
import { encodeMessage } from '../firmware-bridge/codec.js';
import { END } from '../firmware-bridge/slip.js';
import {
  clearRejections,
  holds,
  onByteLink,
  online,
  onlyCountedRejections,
  rethrowingDriverErrors,
  type Target,
  total,
} from './harness.js';
import { between } from './mutate.js';
import { BOARD_HELLO, type FrameInput, hexShow, hostileStream, SENTINEL } from './rfid-frames.js';

/**
 * The RFID reader driver over its byte link: a board that said hello, then a hostile stream (noise,
 * bad CRCs, oversized frames, unknown antennas and UIDs, floods), then one valid tag read, which must
 * come out as a card seen.
 */

const CONFIG = parseRfidReaderConfig({ id: 'rfid-1' });
const INTRODUCED = Buffer.concat([
  encodeMessage(BOARD_HELLO, 0),
  encodeMessage({ type: 'health', status: 'ok', code: 0, detail: '' }, 1),
]);
const READ = encodeMessage(SENTINEL, 2);

function counters(reader: RfidReader): RfidCounters {
  const counted = reader.counters();
  if (!counted) throw new Error('the reader is not running');
  return counted;
}

export const rfidDriver: Target<FrameInput> = {
  name: 'rfid-driver',
  family: 'rfid-reader',
  generate(rand) {
    const stream = hostileStream(rand);
    return { stream, cut: between(rand, 0, stream.length) };
  },
  check({ stream, cut }) {
    return rethrowingDriverErrors(() => {
      const {
        driver: reader,
        bytes,
        events,
        close,
      } = onByteLink((link, clock) => rfidReader(link, CONFIG, clock));
      bytes.next(INTRODUCED);
      const { frames: before, refused: refusedBefore } = counters(reader);
      const from = events.length;
      bytes.next(stream.subarray(0, cut));
      bytes.next(stream.subarray(cut));
      // The END that starts the board's next frame ends whatever the input left unfinished.
      bytes.next(Buffer.of(END));
      const { frames: after, refused: refusedAfter } = counters(reader);
      const answers = events.slice(from);
      clearRejections(answers, 'rfid driver');
      if (after.framesOk === before.framesOk) {
        onlyCountedRejections(answers, total(after.rejected) - total(before.rejected));
      }
      const refused = answers.some((event) => event.kind === 'rejected') || refusedAfter > refusedBefore;
      // Intact frames may have said the board is something else, or at fault: it introduces itself again.
      if (!online(events)) bytes.next(INTRODUCED);
      bytes.next(READ);
      close();
      const seen = events
        .slice(from)
        .some((event) => event.kind === 'tag.seen' && event.uid === SENTINEL.uid);
      holds(seen, 'the valid tag read after it was lost');
      return refused ? 'refused' : 'accepted';
    });
  },
  show: ({ stream, cut }) => `${hexShow(stream)} cut at ${cut}`,
};
