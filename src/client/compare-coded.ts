// The Compare page's rows as its worker reads them: each block of the shipped
// pack (src/data/compare-rows.ts writeBenchmarkRows, compare-pack.ts) holds
// every text column as integer codes numbered in JS sort order, and the texts
// it uses once each, in dictionary rows after the data. The sides' rows are
// picked and paired on the codes in
// typed arrays, as src/lib/compare.ts compareRuns would pair the same rows
// as objects (same items, same order, same sums: the same numbers to the
// bit); text is decoded only for what the comparison lists. When a matched
// key (src/lib/compare.ts matchedKeys) has values on the sides, its text is
// part of the item's key: those rows are turned back into objects and
// compared by compareRuns itself.

import {tableFromIPC, type Column} from "@uwdata/flechette";
import type {ParquetFile} from "parquet-wasm/esm";
import {
  checkedPairing, comparePaired, compareRuns, distinguishingKeys, matchedKeys, SIDE_KEYS,
  type CompareBenchmark, type CompareOptions, type CompareRow, type Comparison, type PairedMetric, type Side, type SideKey,
} from "../lib/compare.js";

/** The coded columns, in the order of src/data/compare-rows.ts CODED_COLUMNS (dict_column numbers them). */
export const CODED_COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", ...SIDE_KEYS] as const;
type CodedColumn = (typeof CODED_COLUMNS)[number];
const column = (name: CodedColumn): number => CODED_COLUMNS.indexOf(name);

export interface CodedRows {
  /** Data rows (the dictionary rows excluded). */
  count: number;
  value: Float64Array;
  /** Per coded column, each row's code (−1: null). */
  codes: Int32Array[];
  /** Per coded column, how many distinct texts it has. */
  sizes: Int32Array;
  /** The text of a code of a column, decoded on first ask. */
  text(columnIndex: number, code: number): string;
}

/** One block of a compare pack (compare-pack.ts), decoded: its data rows with their codes over the whole benchmark, and its dictionary. */
export interface DecodedBlock {
  /** Each row's place in the CLI's order. */
  seq: Int32Array;
  value: Float64Array;
  /** Per coded column, each row's code (−1: null). */
  codes: Int32Array[];
  /** Per coded column, the codes this block holds the text of (every code its rows use). */
  dictCodes: Int32Array[];
  /** The text of dictionary entry `entry` of column c (dictCodes[c][entry]'s). */
  dictText(c: number, entry: number): string;
}

/**
 * Decodes one block's Parquet file, one row group at a time: data rows
 * (dict_column −1) in seq order, their seq and codes the running sums of the
 * steps stored, then dictionary rows, whose texts are decoded when asked.
 */
export async function decodeBlock(file: ParquetFile, url: string): Promise<DecodedBlock> {
  const metadata = file.metadata();
  const groups = metadata.rowGroups();
  const total = metadata.fileMetadata().numRows();
  const seq = new Int32Array(total);
  const codes = CODED_COLUMNS.map(() => new Int32Array(total));
  const value = new Float64Array(total);
  // Per column, its dictionary entries: the code, and where the text is (a row group's text column and the row in it).
  const dictCodes: number[][] = CODED_COLUMNS.map(() => []);
  const dictGroup: number[][] = CODED_COLUMNS.map(() => []);
  const dictIndex: number[][] = CODED_COLUMNS.map(() => []);
  const dictTexts: Column<string>[] = [];
  let count = 0;
  // The seq and codes of the row before: data rows carry the step from them.
  let last = 0;
  const lastCodes = new Int32Array(CODED_COLUMNS.length);
  try {
    for (let g = 0; g < groups.length; g++) {
      const table = tableFromIPC((await file.read({rowGroups: [g], columns: ["seq", ...CODED_COLUMNS, "value", "dict_column", "dict_code"]})).intoIPCStream());
      const seqSteps = intsOf(table.getChild("seq"), url, "seq");
      const steps = CODED_COLUMNS.map((name) => intsOf(table.getChild(name), url, name));
      const values = table.getChild("value").toArray() as Float64Array;
      const dictColumn = intsOf(table.getChild("dict_column"), url, "dict_column");
      const dictCode = intsOf(table.getChild("dict_code"), url, "dict_code");
      let dictionaryRows = false;
      for (let i = 0; i < table.numRows; i++) {
        const c = dictColumn[i];
        if (c < 0) {
          last += seqSteps[i];
          seq[count] = last;
          for (let k = 0; k < steps.length; k++) codes[k][count] = lastCodes[k] += steps[k][i];
          value[count++] = values[i];
          continue;
        }
        dictionaryRows = true;
        dictCodes[c].push(dictCode[i]);
        dictGroup[c].push(dictTexts.length);
        dictIndex[c].push(i);
      }
      if (dictionaryRows) dictTexts.push(tableFromIPC((await file.read({rowGroups: [g], columns: ["dict_text"]})).intoIPCStream()).getChild("dict_text") as Column<string>);
    }
  } finally {
    for (const group of groups) group.free();
    metadata.free();
  }
  return {
    seq: seq.subarray(0, count), value: value.subarray(0, count), codes: codes.map((c) => c.subarray(0, count)),
    dictCodes: dictCodes.map((c) => Int32Array.from(c)),
    dictText: (c, entry) => dictTexts[dictGroup[c][entry]].at(dictIndex[c][entry])!,
  };
}

function intsOf(col: Column<unknown> | undefined, url: string, name: string): Int32Array {
  if (!col) throw new Error(`${url} has no column ${name}: rebuild the site`);
  const values = col.toArray();
  if (!(values instanceof Int32Array)) throw new Error(`${url}: column ${name} is not a column of codes: rebuild the site`);
  return values;
}

/** Per side key, the code a side asks for (−2 when no row has that text), or undefined when the side names no value. */
function wantedCodes(rows: CodedRows, side: Side): (number | undefined)[] {
  return SIDE_KEYS.map((k) => {
    const want = side[k];
    if (want === undefined) return undefined;
    const c = column(k);
    // Codes are numbered in sort order: a binary search finds the text.
    let lo = 0;
    let hi = rows.sizes[c] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = rows.text(c, mid);
      if (t === want) return mid;
      if (t < want) lo = mid + 1;
      else hi = mid - 1;
    }
    return -2;
  });
}

/** Whether row r is on a side (src/lib/compare.ts onSide): each named key equals the row's code or the row has none. */
function onCodedSide(rows: CodedRows, r: number, wanted: readonly (number | undefined)[]): boolean {
  for (let k = 0; k < SIDE_KEYS.length; k++) {
    const want = wanted[k];
    if (want === undefined) continue;
    const have = rows.codes[column(SIDE_KEYS[k])][r];
    if (have !== -1 && have !== want) return false;
  }
  return true;
}

/** A side's items of one metric, indexed by the key's code. */
interface CodedItems {
  sum: Float64Array;
  rows: Int32Array;
  episode: Int32Array;
  cluster: Int32Array;
  /** The keys in the order first met. */
  order: Int32Array;
  size: number;
}

function codedItems(keys: number): CodedItems {
  return {sum: new Float64Array(keys), rows: new Int32Array(keys), episode: new Int32Array(keys), cluster: new Int32Array(keys), order: new Int32Array(keys), size: 0};
}

/**
 * Compares side B with side A over coded rows, as compareRuns does over the
 * same rows as objects (the worker passed it the rows on either side).
 */
export function compareCoded(benchmark: CompareBenchmark, rows: CodedRows, a: Side, b: Side, options: CompareOptions): Comparison {
  const pairing = checkedPairing(a, b);
  const say = options.onStep ?? (() => {});
  say(`Picking the rows of side A or B among ${rows.count.toLocaleString("en-US")}…`);
  const wantA = wantedCodes(rows, a);
  const wantB = wantedCodes(rows, b);
  const sided: number[] = [];
  for (let r = 0; r < rows.count; r++) if (onCodedSide(rows, r, wantA) || onCodedSide(rows, r, wantB)) sided.push(r);
  const matched = matchedKeys(a, b);
  const present = matched.filter((k) => sided.some((r) => rows.codes[column(k)][r] !== -1));
  // A matched key's text is part of the item key: compareRuns builds those keys from the rows themselves.
  if (present.length) return compareRuns(benchmark, sided.map((r) => rowObject(rows, r)), a, b, options);
  say(`Pairing the ${sided.length.toLocaleString("en-US")} rows of side A or B item by item…`);
  const apart = distinguishingKeys(a, b).map((k) => rows.codes[column(k)]);
  const tellsApart = (r: number): boolean => {
    for (const codes of apart) if (codes[r] !== -1) return true;
    return false;
  };
  const metricCodes = rows.codes[column("metric")];
  const kindCodes = rows.codes[column("kind")];
  const keyColumn = column(pairing === "task" ? "task" : "instance");
  const keyCodes = rows.codes[keyColumn];
  const episodeCodes = rows.codes[column("episode_id")];
  const clusterCodes = rows.codes[column("cluster")];
  const keyCount = rows.sizes[keyColumn];
  // Metrics in the order first met, with the kind of their first row and whether a row tells the sides apart.
  const metricOrder: number[] = [];
  const metricKind = new Map<number, number>();
  const told = new Map<number, boolean>();
  const sides = [new Map<number, CodedItems>(), new Map<number, CodedItems>()];
  for (const r of sided) {
    const m = metricCodes[r];
    if (!metricKind.has(m)) {
      metricOrder.push(m);
      metricKind.set(m, kindCodes[r]);
      told.set(m, false);
    }
    if (!tellsApart(r)) continue;
    told.set(m, true);
    for (let s = 0; s < 2; s++) {
      if (!onCodedSide(rows, r, s === 0 ? wantA : wantB)) continue;
      let items = sides[s].get(m);
      if (!items) sides[s].set(m, (items = codedItems(keyCount)));
      const key = keyCodes[r];
      if (items.rows[key] === 0) {
        items.sum[key] = rows.value[r];
        items.episode[key] = episodeCodes[r];
        items.cluster[key] = clusterCodes[r];
        items.order[items.size++] = key;
      } else {
        items.sum[key] += rows.value[r];
        if (episodeCodes[r] < items.episode[key]) items.episode[key] = episodeCodes[r];
      }
      items.rows[key]++;
    }
  }
  const paired: PairedMetric[] = [];
  const none = codedItems(0);
  for (const m of metricOrder) {
    const itemsA = sides[0].get(m) ?? none;
    const itemsB = sides[1].get(m) ?? none;
    if (itemsA.size === 0 && itemsB.size === 0) continue;
    paired.push(pairedMetric(rows, rows.text(column("metric"), m), rows.text(column("kind"), metricKind.get(m)!), itemsA, itemsB, keyColumn));
  }
  const shared = metricOrder.filter((m) => !told.get(m)).map((m) => rows.text(column("metric"), m));
  return comparePaired(benchmark, paired, a, b, options, present, shared);
}

/** One metric's pairs, as src/lib/compare.ts pairItems gives them: keys in sort order (code order), unpaired A's then B's in the order met. */
function pairedMetric(rows: CodedRows, metric: string, kind: string, itemsA: CodedItems, itemsB: CodedItems, keyColumn: number): PairedMetric {
  const unpaired: PairedMetric["unpaired"] = [];
  const episodeColumn = column("episode_id");
  let averagedA = 0;
  let averagedB = 0;
  let n = 0;
  const allA = new Float64Array(itemsA.size);
  const allB = new Float64Array(itemsB.size);
  for (let i = 0; i < itemsA.size; i++) {
    const key = itemsA.order[i];
    allA[i] = itemsA.sum[key] / itemsA.rows[key];
    if (itemsA.rows[key] > 1) averagedA++;
    if (key < itemsB.rows.length && itemsB.rows[key] > 0) n++;
    else unpaired.push({side: "A", item: rows.text(keyColumn, key), episode: rows.text(episodeColumn, itemsA.episode[key])});
  }
  for (let i = 0; i < itemsB.size; i++) {
    const key = itemsB.order[i];
    allB[i] = itemsB.sum[key] / itemsB.rows[key];
    if (itemsB.rows[key] > 1) averagedB++;
    if (!(key < itemsA.rows.length && itemsA.rows[key] > 0)) unpaired.push({side: "B", item: rows.text(keyColumn, key), episode: rows.text(episodeColumn, itemsB.episode[key])});
  }
  const keyCodes = new Int32Array(n);
  let filled = 0;
  // Walking the codes in order gives the paired keys sorted, as pairItems sorts their texts.
  const both = Math.min(itemsA.rows.length, itemsB.rows.length);
  for (let key = 0; key < both; key++) if (itemsA.rows[key] > 0 && itemsB.rows[key] > 0) keyCodes[filled++] = key;
  const m: PairedMetric = {
    metric, kind, keys: new Array<string>(n), valuesA: new Float64Array(n), valuesB: new Float64Array(n), clusters: new Array<string>(n),
    episodesA: new Array<string>(n), episodesB: new Array<string>(n), unpaired, averagedA, averagedB, allA, allB,
  };
  const clusterColumn = column("cluster");
  for (let i = 0; i < n; i++) {
    const key = keyCodes[i];
    m.keys[i] = rows.text(keyColumn, key);
    m.valuesA[i] = itemsA.sum[key] / itemsA.rows[key];
    m.valuesB[i] = itemsB.sum[key] / itemsB.rows[key];
    m.clusters[i] = rows.text(clusterColumn, itemsA.cluster[key]);
    m.episodesA[i] = rows.text(episodeColumn, itemsA.episode[key]);
    m.episodesB[i] = rows.text(episodeColumn, itemsB.episode[key]);
  }
  return m;
}

/** Row r as the library's CompareRow (texts decoded). */
function rowObject(rows: CodedRows, r: number): CompareRow {
  const t = (name: CodedColumn): string | null => {
    const code = rows.codes[column(name)][r];
    return code === -1 ? null : rows.text(column(name), code);
  };
  return {
    episode_id: t("episode_id")!, task: t("task")!, instance: t("instance")!, cluster: t("cluster")!, metric: t("metric")!, kind: t("kind")!, value: rows.value[r],
    model: t("model"), rater: t("rater"), run: t("run"), source: t("source"), setting: t("setting"), memory: t("memory"), cot: t("cot"),
  };
}
