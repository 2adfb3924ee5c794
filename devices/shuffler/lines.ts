import { ReadlineParser } from '@serialport/parser-readline';
import { MAX_LINE_LENGTH, type ParsedLine, parseLine } from './protocol.js';

/**
 * Bytes in, checked lines out: node-serialport's readline parser cuts the stream at each LF, read back
 * synchronously so lines come out in the same call as the bytes that end them. A line that grows past
 * MAX_LINE_LENGTH (noise with no LF) is rejected once and skipped up to its LF, so it never eats memory.
 */
export class LineReader {
  readonly #parser = new ReadlineParser({ readableObjectMode: true, encoding: 'latin1' });
  /** The start of an over-long line was rejected: what comes up to its LF is its tail. */
  #skipping = false;

  push(chunk: Uint8Array): ParsedLine[] {
    this.#parser.write(chunk);
    const results: ParsedLine[] = [];
    for (let line = this.#parser.read(); line !== null; line = this.#parser.read()) {
      if (this.#skipping) this.#skipping = false;
      else results.push(parseLine(String(line).replace(/\r$/, '')));
    }
    const pending = this.#parser.buffer.length;
    if (pending > MAX_LINE_LENGTH + 1) {
      this.#parser.buffer = Buffer.alloc(0);
      if (!this.#skipping) results.push(tooLong(pending));
      this.#skipping = true;
    }
    return results;
  }

  /** The link dropped: a line in progress will never end, and the next link starts clean. */
  flush(): ParsedLine[] {
    const pending = this.#parser.buffer.length;
    const skipping = this.#skipping;
    this.#parser.buffer = Buffer.alloc(0);
    this.#skipping = false;
    if (pending === 0 || skipping) return [];
    return [{ ok: false, kind: 'cut-off', reason: `a line cut off after ${pending} bytes` }];
  }
}

function tooLong(bytes: number): ParsedLine {
  return { ok: false, kind: 'too-long', reason: `a line past ${bytes} bytes, over ${MAX_LINE_LENGTH}` };
}
