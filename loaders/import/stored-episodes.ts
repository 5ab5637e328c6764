// What an import knows of the episodes already in the store: whether one is
// there, and its seats. Read from the store for the episodes the import names,
// so that importing a few thousand records costs the same into a store of ten
// thousand episodes as into one of a million; an import large next to the store
// reads every id once instead, which then costs no more than its own input.

import {listValue} from "@duckdb/node-api";
import {rows, type Store} from "../store/db.js";
import type {ReadItem} from "./records.js";

/** Ids per look-up query: bound as one list and joined in DuckDB. */
const LOOK_UP_CHUNK = 10_000;
/** Episodes a writing import gathers before asking the store about them (bounds the records held back). */
const CHECK_CHUNK = 2_000;
/** Once an import has asked about this share of the store's episodes, reading every id costs no more than the input (and saves a scan per chunk). */
const READ_ALL_SHARE = 1 / 16;

export interface Seats {
  names: string[];
  /** Models as the logs name them: a seat a ratings file already named is still its placeholder, so another file's name for it is checked. */
  models: string[];
}

export class StoredEpisodes {
  private readonly ids = new Set<string>();
  private readonly asked = new Set<string>();
  private readonly seats = new Map<string, Seats>();
  private everyId = false;
  private askedCount = 0;

  private constructor(private readonly store: Store, private readonly storeSize: number) {}

  /** The store's episodes as they are now (after the import removed replaced files' rows). */
  static async of(store: Store): Promise<StoredEpisodes> {
    const [{n}] = await rows<{n: number}>(store.conn, "SELECT count(*)::INTEGER AS n FROM episodes");
    const stored = new StoredEpisodes(store, n);
    stored.everyId = n === 0; // an empty store's ids are all known already
    return stored;
  }

  /** Every id of the store is known (read once): nothing more to look up. */
  get knowsEveryId(): boolean {
    return this.everyId;
  }

  /** Is the episode in the store? Only for episodes looked up before (or once every id is read): anything else is a reader's bug, not an answer. */
  has(id: string): boolean {
    if (this.ids.has(id)) return true;
    if (!this.everyId && !this.asked.has(id)) throw new Error(`episode ${id} was asked about before it was looked up in the store (ReadContext.lookUpEpisodes)`);
    return false;
  }

  /** Seat names and models of a stored episode looked up with its seats. */
  seatsOf(id: string): Seats | undefined {
    return this.has(id) ? this.seats.get(id) : undefined;
  }

  /** Reads every episode id of the store (for readers that ask about episodes they cannot name ahead). */
  async readEveryId(): Promise<void> {
    if (this.everyId) return;
    for (const r of await rows<{episode_id: string}>(this.store.conn, "SELECT episode_id FROM episodes")) this.ids.add(r.episode_id);
    this.everyId = true;
  }

  /** Looks up these episodes (those not asked about before), with their seats when `withSeats`. */
  async lookUp(ids: Iterable<string>, {withSeats}: {withSeats: boolean}): Promise<void> {
    let fresh: string[] = [];
    for (const id of ids) {
      if (this.asked.has(id) || (this.everyId && !withSeats)) continue;
      this.asked.add(id);
      fresh.push(id);
      if (fresh.length >= LOOK_UP_CHUNK) {
        await this.query(fresh, withSeats);
        fresh = [];
      }
    }
    if (fresh.length) await this.query(fresh, withSeats);
  }

  private async query(fresh: string[], withSeats: boolean): Promise<void> {
    this.askedCount += fresh.length;
    // Asked about a good share of the store, without seats: one read of every id costs about as much as the remaining chunks.
    if (!withSeats && this.askedCount >= this.storeSize * READ_ALL_SHARE) {
      await this.readEveryId();
      return;
    }
    const wanted = listValue(fresh);
    for (const r of await rows<{episode_id: string}>(this.store.conn, "SELECT episode_id FROM episodes WHERE episode_id IN (SELECT unnest($1::VARCHAR[]))", [wanted])) {
      this.ids.add(r.episode_id);
    }
    if (!withSeats) return;
    for (const r of await rows<{episode_id: string} & Seats>(
      this.store.conn,
      `SELECT p.episode_id, list(coalesce(p.character, '') ORDER BY p.agent) AS names, list(coalesce(n.placeholder, p.model) ORDER BY p.agent) AS models
       FROM participants p LEFT JOIN (SELECT DISTINCT episode_id, agent, placeholder, model FROM model_names) n
         ON n.episode_id = p.episode_id AND n.agent = p.agent AND n.model = p.model
       WHERE p.episode_id IN (SELECT unnest($1::VARCHAR[]))
       GROUP BY p.episode_id`,
      [wanted],
    )) {
      this.seats.set(r.episode_id, {names: r.names, models: r.models});
    }
  }
}

/** The ids of the episodes an item writes. */
function episodeIds(item: ReadItem): string[] {
  if (item.kind === "episode") return [item.episode.episode_id];
  if (item.kind === "batch") return item.batch.episodes.episode_id.slice(0, item.batch.count);
  return [];
}

/**
 * The reader's items, unchanged and in order, held back in chunks of about
 * CHECK_CHUNK episodes until the store has been asked about the episodes they
 * write, so the import's duplicate check can answer from `stored`. A reader
 * that fails still hands on the items before the failure first, so the first
 * bad record of the file is the one reported, as without the chunks.
 */
export async function* checkedAgainstStore(items: AsyncIterable<ReadItem> | Iterable<ReadItem>, stored: StoredEpisodes): AsyncGenerator<ReadItem> {
  let held: ReadItem[] = [];
  let heldEpisodes = 0;
  const release = async function* () {
    await stored.lookUp(held.flatMap(episodeIds), {withSeats: false});
    const out = held;
    held = [];
    heldEpisodes = 0;
    yield* out;
  };
  try {
    for await (const item of items) {
      const writes = item.kind === "batch" ? item.batch.count : item.kind === "episode" ? 1 : 0;
      // Nothing to ask (every id known, as in an empty store, or an item that writes no episode, such as scores) and nothing held: straight on.
      if ((stored.knowsEveryId || writes === 0) && !held.length) {
        yield item;
        continue;
      }
      held.push(item);
      heldEpisodes += writes;
      if (heldEpisodes >= CHECK_CHUNK) yield* release();
    }
  } catch (e) {
    yield* release();
    throw e;
  }
  yield* release();
}
