// A compare pack: one benchmark's compare rows (src/data/compare-rows.ts
// writes it), in blocks of one combination of side-key values each, so the
// Compare page's worker fetches, with one HTTP range request per block, only
// the blocks on the two sides it compares: bounded by the sides, not by the
// store (issue 18). episode-pack.ts is the model.
//
// Layout: "SCP1", u32 little-endian H, H bytes of UTF-8 JSON (ComparePackHeader),
// then the blocks, each a whole Parquet file (compare-coded.ts decodeBlock),
// at header.blocks[i].offset bytes after the header.

import {ParquetFile} from "parquet-wasm/esm";
import {CODED_COLUMNS, decodeBlock, type CodedRows, type DecodedBlock} from "./compare-coded.js";
import {SIDE_KEYS, type Side, type SideKey} from "../lib/compare.js";
import {openRangedBytes, type FetchCount} from "./range-bytes.js";

export const COMPARE_PACK_MAGIC = "SCP1";

/** One block: the side-key values all its rows share (null: the rows have no such key), and where its Parquet file lies. */
export interface PackBlockEntry {
  keys: Record<SideKey, string | null>;
  rows: number;
  /** Bytes from the end of the header. */
  offset: number;
  length: number;
}

export interface ComparePackHeader {
  /** The coded columns, in dict_column order (a pack of other columns is refused). */
  columns: string[];
  /** Rows of every block. */
  rows: number;
  blocks: PackBlockEntry[];
}

/** Bytes asked for first: the magic, the header's length and, almost always, the whole header. */
const FIRST_READ = 65536;

/** Below this size a pack is taken whole from a server that ignores range requests; above it the page says which server to use. */
export const WHOLE_FILE_LIMIT = 32 * 2 ** 20;

/** Whether a block's rows are on a side (src/lib/compare.ts onSide): each key the side names equals the block's, or the block has none. */
export function blockOnSide(keys: PackBlockEntry["keys"], side: Side): boolean {
  for (const k of SIDE_KEYS) {
    const want = side[k];
    if (want !== undefined && keys[k] !== null && keys[k] !== want) return false;
  }
  return true;
}

export interface ComparePack {
  header: ComparePackHeader;
  fetched: FetchCount;
  /** The rows of every block on side A or side B, in the CLI's order, coded; `say` hears progress. Only those blocks are kept. */
  rowsFor(a: Side, b: Side, say: (text: string) => void): Promise<CodedRows>;
}

/** Opens the pack at `url`: reads its header now, the blocks a comparison needs when asked (parquet-wasm must be initialised by then). */
export async function openComparePack(url: string, fetchFn: typeof fetch = globalThis.fetch.bind(globalThis)): Promise<ComparePack> {
  const fetched: FetchCount = {requests: 0, bytes: 0};
  const {read, first} = await openRangedBytes(url, fetchFn, {
    firstRead: FIRST_READ, wholeFileLimit: WHOLE_FILE_LIMIT, count: fetched,
    refusal: (size) => `comparing two sides would download the whole ${size} rows file`,
  });
  const magic = new TextDecoder().decode(first.subarray(0, 4));
  // A site built before the packs ships Parquet here ("PAR1").
  if (magic !== COMPARE_PACK_MAGIC) throw new Error(`${url} is not a compare pack (starts with ${JSON.stringify(magic)}): rebuild the site`);
  const headerLength = new DataView(first.buffer, first.byteOffset, first.byteLength).getUint32(4, true);
  const headerBytes = 8 + headerLength <= first.length ? first.subarray(8, 8 + headerLength) : await read(8, 8 + headerLength);
  const header = JSON.parse(new TextDecoder().decode(headerBytes)) as ComparePackHeader;
  if (header.columns.join() !== CODED_COLUMNS.join()) throw new Error(`${url} holds columns ${header.columns.join(", ")}, not this page's: rebuild the site`);
  const start = 8 + headerLength;
  const kept = new Map<number, Promise<DecodedBlock>>();
  let last: {blocks: string; rows: CodedRows} | null = null;

  async function load(k: number): Promise<DecodedBlock> {
    const {offset, length} = header.blocks[k];
    const file = await ParquetFile.fromFile(new Blob([(await read(start + offset, start + offset + length)) as BlobPart]));
    try {
      return await decodeBlock(file, url);
    } finally {
      file.free();
    }
  }

  return {
    header,
    fetched,
    async rowsFor(a, b, say) {
      const wanted: number[] = [];
      header.blocks.forEach((block, k) => {
        if (blockOnSide(block.keys, a) || blockOnSide(block.keys, b)) wanted.push(k);
      });
      if (last?.blocks === wanted.join()) return last.rows;
      // Blocks of an earlier choice that this one does not need are let go: memory follows the sides shown.
      for (const k of kept.keys()) if (!wanted.includes(k)) kept.delete(k);
      let rows = 0;
      for (const k of wanted) rows += header.blocks[k].rows;
      say(`Fetching the ${rows.toLocaleString("en-US")} rows of side A or B (${wanted.length} of ${header.blocks.length} blocks, ${header.rows.toLocaleString("en-US")} rows in all)…`);
      const blocks = await Promise.all(wanted.map((k) => {
        let pending = kept.get(k);
        if (!pending) {
          pending = load(k);
          pending.catch(() => kept.delete(k));
          kept.set(k, pending);
        }
        return pending;
      }));
      say(`Merging the ${rows.toLocaleString("en-US")} rows in the CLI's order…`);
      last = {blocks: wanted.join(), rows: mergedRows(blocks, url)};
      return last.rows;
    },
  };
}

/** Rows of several blocks as a run in seq order: which block and which of its rows. */
interface Run {
  seq: Int32Array;
  block: Int32Array;
  row: Int32Array;
}

function mergeRuns(x: Run, y: Run): Run {
  const n = x.seq.length + y.seq.length;
  const out: Run = {seq: new Int32Array(n), block: new Int32Array(n), row: new Int32Array(n)};
  let i = 0;
  let j = 0;
  for (let o = 0; o < n; o++) {
    const fromX = j >= y.seq.length || (i < x.seq.length && x.seq[i] < y.seq[j]);
    const src = fromX ? x : y;
    const at = fromX ? i++ : j++;
    out.seq[o] = src.seq[at];
    out.block[o] = src.block[at];
    out.row[o] = src.row[at];
  }
  return out;
}

/**
 * The blocks' rows merged in seq order (the CLI's order), each column's
 * codes renumbered densely over the codes these rows use, in the same order
 * (codes are numbered in text order over the whole benchmark, so the new
 * codes sort as the texts do).
 */
export function mergedRows(blocks: readonly DecodedBlock[], url: string): CodedRows {
  let runs: Run[] = blocks.map((b, k) => ({seq: b.seq, block: new Int32Array(b.seq.length).fill(k), row: Int32Array.from({length: b.seq.length}, (_, i) => i)}));
  // Pairwise rounds: log2(blocks) passes over the rows.
  while (runs.length > 1) {
    const next: Run[] = [];
    for (let i = 0; i < runs.length; i += 2) next.push(i + 1 < runs.length ? mergeRuns(runs[i], runs[i + 1]) : runs[i]);
    runs = next;
  }
  const order = runs[0] ?? {seq: new Int32Array(0), block: new Int32Array(0), row: new Int32Array(0)};
  const count = order.seq.length;
  const columns = CODED_COLUMNS.length;
  // Per column: global code → new code, and where each new code's text is (block, entry of its dictionary).
  const renumber: Int32Array[] = [];
  const textBlock: Int32Array[] = [];
  const textEntry: Int32Array[] = [];
  const sizes = new Int32Array(columns);
  for (let c = 0; c < columns; c++) {
    let top = -1;
    for (const b of blocks) for (const code of b.dictCodes[c]) if (code > top) top = code;
    const owner = new Int32Array(top + 1).fill(-1);
    const entry = new Int32Array(top + 1);
    blocks.forEach((b, k) => b.dictCodes[c].forEach((code, e) => {
      if (owner[code] === -1) {
        owner[code] = k;
        entry[code] = e;
      }
    }));
    const map = new Int32Array(top + 1).fill(-1);
    let size = 0;
    for (let code = 0; code <= top; code++) if (owner[code] !== -1) map[code] = size++;
    const tb = new Int32Array(size);
    const te = new Int32Array(size);
    for (let code = 0; code <= top; code++) {
      if (map[code] === -1) continue;
      tb[map[code]] = owner[code];
      te[map[code]] = entry[code];
    }
    renumber.push(map);
    textBlock.push(tb);
    textEntry.push(te);
    sizes[c] = size;
  }
  const value = new Float64Array(count);
  const codes = CODED_COLUMNS.map(() => new Int32Array(count));
  for (let o = 0; o < count; o++) {
    const b = blocks[order.block[o]];
    const r = order.row[o];
    value[o] = b.value[r];
    for (let c = 0; c < columns; c++) {
      const global = b.codes[c][r];
      if (global < 0) {
        codes[c][o] = -1;
        continue;
      }
      const mapped = global < renumber[c].length ? renumber[c][global] : -1;
      if (mapped < 0) throw new Error(`${url}: no text for code ${global} of ${CODED_COLUMNS[c]}: rebuild the site`);
      codes[c][o] = mapped;
    }
  }
  const decoded: (string | undefined)[][] = CODED_COLUMNS.map(() => []);
  return {
    count, value, codes, sizes,
    text(c, code) {
      let t = decoded[c][code];
      if (t === undefined) {
        if (!(code >= 0 && code < sizes[c])) throw new Error(`${url}: no text for code ${code} of ${CODED_COLUMNS[c]}: rebuild the site`);
        decoded[c][code] = t = blocks[textBlock[c][code]].dictText(c, textEntry[c][code]);
      }
      return t;
    },
  };
}
