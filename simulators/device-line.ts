import type { Duplex } from 'node:stream';

/**
 * A simulated serial device's end of its cable: what it hears while plugged into a line, and where it
 * writes. Unplugging (the line closing or failing) lets go of the line; bytes written meanwhile are lost
 * in the unplugged cable, as on a real one.
 */
export class DeviceLine {
  #line: { stream: Duplex; release(): void } | null = null;

  /** Plugs into `line` (a replug lets go of the one before), passing what arrives to `heard`. */
  attach(line: Duplex, heard: (chunk: Buffer) => void): void {
    this.detach();
    const onGone = () => {
      if (this.#line?.stream === line) this.detach();
    };
    line.on('data', heard);
    line.on('close', onGone);
    // Kept after release: an unplugged port may still report errors, which must not crash the process.
    line.on('error', onGone);
    this.#line = {
      stream: line,
      release: () => {
        line.off('data', heard);
        line.off('close', onGone);
      },
    };
  }

  detach(): void {
    this.#line?.release();
    this.#line = null;
  }

  write(bytes: Buffer): void {
    const stream = this.#line?.stream;
    if (stream?.writable) stream.write(bytes);
  }
}
