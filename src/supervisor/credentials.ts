import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Supervisor PINs and badge UIDs are kept in the config only as salted scrypt hashes
 * (`scrypt:<salt>:<hash>`, base64url), so a copied config gives no one a PIN. `croupier hash-secret`
 * makes them.
 */

const KEY_BYTES = 32;
const COST: ScryptOptions = { N: 16_384, r: 8, p: 1 };
export const HASHED_SECRET = /^scrypt:[A-Za-z0-9_-]{16,}:[A-Za-z0-9_-]{43}$/;

function derive(secret: string, salt: Buffer): Promise<Buffer> {
  // The async scrypt runs on libuv's pool: a sign-in never stalls the table's event loop.
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFKC'), salt, KEY_BYTES, COST, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt);
  return `scrypt:${salt.toString('base64url')}:${key.toString('base64url')}`;
}

/** Whether the secret is the one hashed; constant-time on the hash. */
export async function matchesSecret(secret: string, hashed: string): Promise<boolean> {
  const [, salt, key] = hashed.split(':');
  if (!HASHED_SECRET.test(hashed) || salt === undefined || key === undefined) return false;
  const derived = await derive(secret, Buffer.from(salt, 'base64url'));
  return timingSafeEqual(derived, Buffer.from(key, 'base64url'));
}
