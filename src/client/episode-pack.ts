// A pack: one static file of many small blocks, each readable alone with one
// HTTP range request, so the episode viewer fetches one episode's rows and not
// the store's (issue 18: the viewer is O(1) in store size). Written by
// src/data/viewer-pack.ts, read here in the browser (and in Node tests).
//
// Layout, little-endian:
//   0  "SVP1"
//   4  u32 H: length of the header
//   8  header, UTF-8 JSON: {parts: string[], blocks: B, …what the pack's loader adds}
//   8 + H  index: B entries of 8 + 4·parts bytes: the block's offset (float64, exact
//          below 2^53) and each part's length (u32)
//   …  blocks: each part is gzip-compressed JSON, an array of row objects
// A block's parts lie one after another from its offset.

import {openRangedBytes} from "./range-bytes.js";

export {RangeUnsupportedError} from "./range-bytes.js";

export const PACK_MAGIC = "SVP1";

/** Bytes asked for first: the magic, the header's length and, almost always, the whole header. */
const FIRST_READ = 4096;

/**
 * Below this size a pack is read whole when the server ignores range requests
 * (`python3 -m http.server` does): one fetch of a small file costs less than a
 * clear failure. Above it the viewer says which server to use instead.
 */
export const WHOLE_FILE_LIMIT = 16 * 2 ** 20;

export interface PackHeader {
  parts: string[];
  blocks: number;
  [key: string]: unknown;
}

export type PackRow = Record<string, unknown>;

/** One block: each part's rows, by part name. */
export type PackBlock = Record<string, PackRow[]>;

/** FNV-1a over the id's UTF-8 bytes: the same number in Node and every browser, cheap and well spread. */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(id)) h = Math.imul(h ^ byte, 0x01000193);
  return h >>> 0;
}

/** The block of a pack of `blocks` blocks that holds the episode `id`. */
export const blockOfId = (id: string, blocks: number): number => idHash(id) % blocks;

export const indexEntryBytes = (parts: number): number => 8 + 4 * parts;

async function gunzipJson(bytes: Uint8Array): Promise<PackRow[]> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text()) as PackRow[];
}

export interface Pack {
  header: PackHeader;
  /** Whether the server honours range requests (false: the file was read whole). */
  ranged: boolean;
  /** Block `k`'s rows, fetched once and kept. */
  block(k: number): Promise<PackBlock>;
}

/** Opens the pack at `url`: reads its header now, blocks when asked. */
export async function openPack(url: string, {fetchFn = globalThis.fetch.bind(globalThis), wholeFileLimit = WHOLE_FILE_LIMIT} = {}): Promise<Pack> {
  const {read, first, ranged} = await openRangedBytes(url, fetchFn, {
    firstRead: FIRST_READ, wholeFileLimit,
    refusal: (size) => `opening one episode would download the whole ${size} episode file`,
  });
  const magic = new TextDecoder().decode(first.subarray(0, 4));
  if (magic !== PACK_MAGIC) throw new Error(`${url} is not an episode pack (starts with ${JSON.stringify(magic)}, expected "${PACK_MAGIC}")`);
  const headerLength = new DataView(first.buffer, first.byteOffset, first.byteLength).getUint32(4, true);
  const headerBytes = 8 + headerLength <= first.length ? first.subarray(8, 8 + headerLength) : await read(8, 8 + headerLength);
  const header = JSON.parse(new TextDecoder().decode(headerBytes)) as PackHeader;
  const indexStart = 8 + headerLength;
  const entryBytes = indexEntryBytes(header.parts.length);
  const cache = new Map<number, Promise<PackBlock>>();

  async function load(k: number): Promise<PackBlock> {
    const entry = await read(indexStart + k * entryBytes, indexStart + (k + 1) * entryBytes);
    const view = new DataView(entry.buffer, entry.byteOffset, entry.byteLength);
    const offset = view.getFloat64(0, true);
    const lengths = header.parts.map((_, i) => view.getUint32(8 + 4 * i, true));
    const bytes = await read(offset, offset + lengths.reduce((s, n) => s + n, 0));
    const block: PackBlock = {};
    let at = 0;
    for (const [i, part] of header.parts.entries()) {
      block[part] = await gunzipJson(bytes.subarray(at, at + lengths[i]));
      at += lengths[i];
    }
    return block;
  }

  return {
    header,
    ranged,
    block(k: number) {
      if (!Number.isInteger(k) || k < 0 || k >= header.blocks) return Promise.reject(new Error(`no block ${k} in a pack of ${header.blocks}`));
      let pending = cache.get(k);
      if (!pending) {
        pending = load(k);
        // A failed read is not kept: the next ask tries again.
        pending.catch(() => cache.delete(k));
        cache.set(k, pending);
      }
      return pending;
    },
  };
}
