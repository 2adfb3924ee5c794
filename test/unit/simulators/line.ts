import { Duplex } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import {
  type DecodedFrame,
  type DecodeResult,
  encodeMessage,
  FrameDecoder,
} from '../../../firmware-bridge/codec.js';
import type { Message, MessageOf, MessageType } from '../../../firmware-bridge/messages.js';

/**
 * croupier's end of a simulated device's line, in memory: what the device writes is decoded at once by a
 * `FrameDecoder`, and `send` writes frames (or raw bytes) to the device.
 */
export interface TestLine {
  /** The device's end. */
  stream: Duplex;
  decoder: FrameDecoder;
  results: DecodeResult[];
  frames(): DecodedFrame[];
  messages(): Message[];
  /** The accepted messages of one type. */
  of<T extends MessageType>(type: T): MessageOf<T>[];
  /** Writes bytes to the device and lets its stream deliver them. */
  send(bytes: Buffer): Promise<void>;
  command(message: MessageOf<'command'>, seq: number): Promise<void>;
}

export function testLine(): TestLine {
  const decoder = new FrameDecoder();
  const results: DecodeResult[] = [];
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      results.push(...decoder.push(chunk));
      callback();
    },
  });
  const frames = () => results.filter((result): result is DecodedFrame => result.ok);
  const messages = () => frames().map((frame) => frame.message);
  const send = async (bytes: Buffer) => {
    stream.push(bytes);
    await tick();
  };
  return {
    stream,
    decoder,
    results,
    frames,
    messages,
    of: <T extends MessageType>(type: T) =>
      messages().filter((message): message is MessageOf<T> => message.type === type),
    send,
    command: (message, seq) => send(encodeMessage(message, seq)),
  };
}
