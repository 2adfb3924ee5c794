import { Duplex } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { LineReader } from '../../../../devices/shuffler/lines.js';
import {
  encodeLine,
  type MessageOf,
  type ParsedLine,
  type ShufflerMessage,
  type Verb,
} from '../../../../devices/shuffler/protocol.js';

/**
 * croupier's end of a simulated shuffler's line, in memory: what the device writes is checked at once by a
 * `LineReader`, and `send` writes lines (or raw bytes) to the device.
 */
export interface TestLine {
  /** The device's end. */
  stream: Duplex;
  results: ParsedLine[];
  messages(): ShufflerMessage[];
  of<V extends Verb>(verb: V): MessageOf<V>[];
  /** Writes bytes to the device and lets its stream deliver them. */
  send(bytes: string): Promise<void>;
  command(message: ShufflerMessage): Promise<void>;
}

export function testLine(): TestLine {
  const reader = new LineReader();
  const results: ParsedLine[] = [];
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      results.push(...reader.push(chunk));
      callback();
    },
  });
  const messages = () => results.flatMap((result) => (result.ok ? [result.message] : []));
  const send = async (text: string) => {
    stream.push(Buffer.from(text, 'latin1'));
    await tick();
  };
  return {
    stream,
    results,
    messages,
    of: <V extends Verb>(verb: V) =>
      messages().filter((message): message is MessageOf<V> => message.verb === verb),
    send,
    command: (message) => send(encodeLine(message)),
  };
}
