import { text } from 'node:stream/consumers';
import { hashSecret } from '../supervisor/credentials.js';

/** `croupier hash-secret`: the PIN or badge UID on stdin (one line), its salted hash on stdout. */
export async function hashSecretFromStdin(): Promise<number> {
  const secret = (await text(process.stdin)).trim();
  if (secret.length < 4 || secret.length > 64) {
    process.stderr.write('croupier: a PIN or badge UID is 4 to 64 characters, on one line on stdin\n');
    return 2;
  }
  process.stdout.write(`${await hashSecret(secret)}\n`);
  return 0;
}
