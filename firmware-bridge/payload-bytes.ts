/** A payload that cannot be read as its message type; the decoder turns it into a rejection. */
export class PayloadError extends Error {}

/** Reads a payload's fields in order, big-endian, failing with a reason that names the message type. */
export class PayloadReader {
  #offset = 0;

  constructor(
    readonly typeName: string,
    readonly payload: Buffer,
  ) {}

  /** Fails unless the payload holds at least `total` bytes in all. */
  require(total: number): void {
    if (this.payload.length < total) {
      throw new PayloadError(
        `truncated ${this.typeName} payload: ${this.payload.length} bytes, need ≥ ${total}`,
      );
    }
  }

  fail(detail: string): never {
    throw new PayloadError(`bad ${this.typeName} payload: ${detail}`);
  }

  u8(): number {
    return this.payload.readUInt8(this.#take(1));
  }

  i8(): number {
    return this.payload.readInt8(this.#take(1));
  }

  u16(): number {
    return this.payload.readUInt16BE(this.#take(2));
  }

  u32(): number {
    return this.payload.readUInt32BE(this.#take(4));
  }

  bytes(length: number): Buffer {
    const at = this.#take(length);
    return Buffer.from(this.payload.subarray(at, at + length));
  }

  /** A length-prefixed text: u8 length, then that many bytes read as Latin-1 (the schema checks ASCII). */
  shortText(): string {
    return this.bytes(this.u8()).toString('latin1');
  }

  /** Fails if bytes are left over: a payload's length is exact. */
  end(): void {
    if (this.#offset < this.payload.length) {
      this.fail(`${this.payload.length} bytes, expected ${this.#offset}`);
    }
  }

  #take(length: number): number {
    const at = this.#offset;
    this.require(at + length);
    this.#offset += length;
    return at;
  }
}

/** Writes a payload's fields in order, big-endian. Values are validated before they get here. */
export class PayloadWriter {
  readonly #bytes: number[] = [];

  u8(value: number): void {
    this.#bytes.push(value);
  }

  i8(value: number): void {
    this.#bytes.push(value & 0xff);
  }

  u16(value: number): void {
    this.#bytes.push(value >>> 8, value & 0xff);
  }

  u32(value: number): void {
    this.#bytes.push(value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
  }

  bytes(value: Uint8Array): void {
    this.#bytes.push(...value);
  }

  shortText(value: string): void {
    this.u8(value.length);
    this.bytes(Buffer.from(value, 'latin1'));
  }

  toBuffer(): Buffer {
    return Buffer.from(this.#bytes);
  }
}
