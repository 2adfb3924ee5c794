import type { Identity } from './device-status.js';

/** Whether a device may be the identity its hello gave, or why not. */
export type Claim = { ok: true } | { ok: false; detail: string };

/**
 * Which configured device holds which identity (kind and serial number) on this table. Two devices whose
 * hellos give the same kind and serial (a cloned reader on a second port) cannot both be trusted: the
 * first to say hello holds the identity until it goes offline, the second is refused. Pure: the drivers
 * (or the controller) say who said hello and who went offline.
 */
export class IdentityClaims {
  /** The identity's key (`identityKey`) → the device holding it. */
  readonly #holders = new Map<string, string>();
  /** Device → the identity it holds, and its key. */
  readonly #held = new Map<string, { key: string; serial: string }>();
  #refused = 0;

  /**
   * `device` said hello as `kind` `serial`: it holds that identity now (leaving any it held before), unless
   * another device holds it. Saying hello again as itself is no new claim.
   */
  claim(device: string, kind: string, serial: string): Claim {
    const key = identityKey(kind, serial);
    const holder = this.#holders.get(key);
    if (holder !== undefined && holder !== device) {
      this.#refused++;
      return {
        ok: false,
        detail: `${holder} already said hello as ${kind} ${serial}: two devices give one serial number; refused until ${holder} goes offline and this one says hello again`,
      };
    }
    this.release(device);
    this.#holders.set(key, device);
    this.#held.set(device, { key, serial });
    return { ok: true };
  }

  /** `device` went offline (its link down, silent, its goodbye) or said hello as something else. */
  release(device: string): void {
    const held = this.#held.get(device);
    if (held === undefined) return;
    this.#held.delete(device);
    this.#holders.delete(held.key);
  }

  /** The device holding `kind` `serial`, if any. */
  holder(kind: string, serial: string): string | undefined {
    return this.#holders.get(identityKey(kind, serial));
  }

  /** The serial number of the identity `device` holds, if any. */
  serialHeldBy(device: string): string | undefined {
    return this.#held.get(device)?.serial;
  }

  /** Identities held now, and claims refused since the start. */
  counters(): { held: number; refused: number } {
    return { held: this.#held.size, refused: this.#refused };
  }

  /**
   * `judgeHello`'s verdict on `device`'s hello, refused as well when another device holds its identity: what
   * a driver passes to its status tracker. A hello refused by `judgeHello` leaves any identity it held.
   */
  judged(device: string, kind: string, identity: Identity): Identity {
    if (!identity.ok) {
      this.release(device);
      return identity;
    }
    const claim = this.claim(device, kind, identity.serial);
    return claim.ok ? identity : claim;
  }
}

const identityKey = (kind: string, serial: string): string => JSON.stringify([kind, serial]);
