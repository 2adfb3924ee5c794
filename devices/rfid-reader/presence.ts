import type { Zone } from '../../src/domain/zones.js';

/** One read of a tag: `at` on the reader's continuous timeline (see `ReaderClock`), `readerTime` as sent. */
export interface Read {
  at: number;
  readerTime: number;
  rssi: number;
}

export type PresenceChange =
  | { change: 'seen'; uid: string; zone: Zone; read: Read }
  /** `at` is when the tag was judged gone; `read` its last read in the zone. */
  | { change: 'gone'; uid: string; zone: Zone; read: Read; at: number };

export interface PresenceSettings {
  presenceTimeoutMs: number;
  goneGraceMs: number;
}

interface Tag {
  zone: Zone;
  /** Last read in each zone the tag was read in lately, its current zone included. */
  reads: Map<Zone, Read>;
  /** When the board reported it missing from its current zone (TAG_GONE), unless read there since. */
  missingSince?: number;
}

/**
 * Presence debouncing: which zone each tag is in. Time is the reader's own, carried by the frames, so
 * a host that stalls or a USB link that delivers a burst late never makes a card look gone.
 *
 * - A tag is present from its first read; repeated reads change nothing.
 * - It is gone once unread in its zone for longer than `presenceTimeoutMs`, or than `goneGraceMs` after
 *   the board's TAG_GONE; `goneGraceMs` spans at least two rounds, so one missed round never ends a card.
 * - A read in another zone moves it at once, except back to a zone it was read in lately while its
 *   current zone is still read within `goneGraceMs`: that is a cross-read between neighbouring
 *   antennas, and the tag stays where it is until the current zone stops reading it.
 */
export class PresenceTracker {
  readonly #settings: PresenceSettings;
  readonly #tags = new Map<string, Tag>();
  #now = Number.NEGATIVE_INFINITY;

  constructor(settings: PresenceSettings) {
    this.#settings = settings;
  }

  read(uid: string, zone: Zone, read: Read): PresenceChange[] {
    const changes = this.advance(read.at);
    const tag = this.#tags.get(uid);
    if (!tag) {
      this.#tags.set(uid, { zone, reads: new Map([[zone, read]]) });
      return [...changes, { change: 'seen', uid, zone, read }];
    }
    this.#forgetOldReads(tag, read.at);
    const current = tag.reads.get(tag.zone);
    const previous = tag.reads.get(zone);
    // Reads of one round may arrive out of order: an older read must not undo a newer one.
    if (!previous || previous.at < read.at) tag.reads.set(zone, read);
    if (zone === tag.zone) {
      if (tag.missingSince !== undefined && read.at > tag.missingSince) delete tag.missingSince;
      return changes;
    }
    const crossRead =
      previous !== undefined && current !== undefined && read.at - current.at < this.#settings.goneGraceMs;
    if (crossRead) return changes;
    tag.zone = zone;
    delete tag.missingSince;
    return [...changes, { change: 'seen', uid, zone, read }];
  }

  /** The board's TAG_GONE: a hint, acted on only if no read in that zone follows within the grace. */
  missing(uid: string, zone: Zone, at: number): PresenceChange[] {
    const changes = this.advance(at);
    const tag = this.#tags.get(uid);
    const current = tag?.reads.get(zone);
    if (tag?.zone === zone && current && current.at <= at && tag.missingSince === undefined)
      tag.missingSince = at;
    return changes;
  }

  /** The reader's clock has reached `at`: tags past their deadline are gone, in deadline order. */
  advance(at: number): PresenceChange[] {
    if (at <= this.#now) return [];
    this.#now = at;
    const gone: Extract<PresenceChange, { change: 'gone' }>[] = [];
    for (const [uid, tag] of this.#tags) {
      const deadline = this.#deadline(tag);
      const read = tag.reads.get(tag.zone);
      if (read && deadline < at) {
        gone.push({ change: 'gone', uid, zone: tag.zone, read, at: deadline });
        this.#tags.delete(uid);
      }
    }
    return gone.sort((a, b) => a.at - b.at);
  }

  /**
   * The reader was not heard for a while (link down, silence, restart) and is back at `at` on its new
   * timeline: absence is judged only over time the reader was seen working, so every tag's timeout
   * starts afresh.
   */
  resume(at: number): void {
    this.#now = at;
    for (const tag of this.#tags.values()) {
      const read = tag.reads.get(tag.zone);
      tag.reads = new Map(read ? [[tag.zone, { ...read, at }]] : []);
      delete tag.missingSince;
    }
  }

  #deadline(tag: Tag): number {
    const lastRead = tag.reads.get(tag.zone)?.at ?? Number.NEGATIVE_INFINITY;
    const timeout = lastRead + this.#settings.presenceTimeoutMs;
    return tag.missingSince === undefined
      ? timeout
      : Math.min(timeout, tag.missingSince + this.#settings.goneGraceMs);
  }

  #forgetOldReads(tag: Tag, at: number): void {
    for (const [zone, read] of tag.reads) {
      if (zone !== tag.zone && at - read.at >= this.#settings.presenceTimeoutMs) tag.reads.delete(zone);
    }
  }
}
