import { SlipEncoder } from '@serialport/parser-slip-encoder';

/** RFC 1055 special bytes. */
export const END = 0xc0;
export const ESC = 0xdb;
export const ESC_END = 0xdc;
export const ESC_ESC = 0xdd;

/**
 * SLIP-encodes one frame body, with a leading END as well as the trailing one so that a receiver
 * drops whatever line noise preceded the frame (the package calls this option `bluetoothQuirk`).
 */
export function slipEncode(body: Buffer): Buffer {
  const encoder = new SlipEncoder({ bluetoothQuirk: true });
  // A Transform runs its transform synchronously on write, so the frame is readable at once.
  encoder.write(body);
  const frame: unknown = encoder.read();
  if (!Buffer.isBuffer(frame)) throw new Error('SlipEncoder produced no frame');
  return frame;
}

export type SlipErrorKind = 'too-long' | 'bad-escape' | 'unterminated';

/** What lay between two END bytes (or between an END and the end of the link). */
export type SlipChunk =
  | { ok: true; body: Buffer; wireBytes: number }
  | { ok: false; kind: SlipErrorKind; reason: string; wireBytes: number };

/**
 * Splits a byte stream into SLIP frame bodies, holding at most `maxBodyBytes` whatever arrives.
 *
 * Written here rather than taken from `@serialport/parser-slip-encoder`'s SlipDecoder because that
 * decoder keeps an END that follows an ESC as data, so line noise ending in 0xDB swallows the next
 * frame's leading END and corrupts that valid frame; it also buffers without bound until an END.
 * Here an END always ends a frame, and a frame past the limit is skipped (counted, not stored).
 */
export class SlipSplitter {
  readonly #body: Buffer;
  #bodyBytes = 0;
  #wireBytes = 0;
  #escaping = false;
  #overflowed = false;
  #badEscape: number | undefined;

  constructor(readonly maxBodyBytes: number) {
    this.#body = Buffer.alloc(maxBodyBytes);
  }

  /** Bytes of the frame in progress held in memory (never more than `maxBodyBytes`). */
  get pendingBytes(): number {
    return this.#bodyBytes;
  }

  push(chunk: Uint8Array): SlipChunk[] {
    const chunks: SlipChunk[] = [];
    for (const byte of chunk) {
      if (byte === END) {
        // Back-to-back ENDs (the leading END after a trailing one) delimit nothing.
        if (this.#wireBytes > 0) chunks.push(this.#finish());
        continue;
      }
      this.#wireBytes++;
      if (this.#overflowed || this.#badEscape !== undefined) continue;
      let value = byte;
      if (this.#escaping) {
        this.#escaping = false;
        if (byte === ESC_END) value = END;
        else if (byte === ESC_ESC) value = ESC;
        else {
          this.#badEscape = byte;
          continue;
        }
      } else if (byte === ESC) {
        this.#escaping = true;
        continue;
      }
      if (this.#bodyBytes === this.maxBodyBytes) {
        this.#overflowed = true;
        continue;
      }
      this.#body[this.#bodyBytes++] = value;
    }
    return chunks;
  }

  /** Ends the frame in progress, as when the link closes or is reopened: it is reported cut off. */
  flush(): SlipChunk[] {
    if (this.#wireBytes === 0) return [];
    const wireBytes = this.#wireBytes;
    this.#reset();
    return [{ ok: false, kind: 'unterminated', reason: `frame cut off after ${wireBytes} bytes`, wireBytes }];
  }

  #finish(): SlipChunk {
    const wireBytes = this.#wireBytes;
    let chunk: SlipChunk;
    if (this.#overflowed) {
      chunk = {
        ok: false,
        kind: 'too-long',
        reason: `frame too long (> ${this.maxBodyBytes} bytes)`,
        wireBytes,
      };
    } else if (this.#badEscape !== undefined) {
      const reason = `bad escape 0xDB 0x${hexByte(this.#badEscape)}`;
      chunk = { ok: false, kind: 'bad-escape', reason, wireBytes };
    } else if (this.#escaping) {
      chunk = { ok: false, kind: 'bad-escape', reason: 'bad escape 0xDB before END', wireBytes };
    } else {
      chunk = { ok: true, body: Buffer.from(this.#body.subarray(0, this.#bodyBytes)), wireBytes };
    }
    this.#reset();
    return chunk;
  }

  #reset(): void {
    this.#bodyBytes = 0;
    this.#wireBytes = 0;
    this.#escaping = false;
    this.#overflowed = false;
    this.#badEscape = undefined;
  }
}

export function hexByte(byte: number): string {
  return byte.toString(16).toUpperCase().padStart(2, '0');
}
