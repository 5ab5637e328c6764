// The agreement page's rows as columns (typed arrays), one entry per score,
// grouped by instance as pairInstances groups them: from score objects (tests,
// benchmarks) or from the numbered rows of data/agreement-rows.parquet (the
// worker and the summary loader).

import {scoresByInstance, type RaterScore} from "../lib/agreement.js";

/**
 * Every score of the multiply-rated episodes, grouped by instance. Instances
 * come in the order pairInstances meets them (the rows' order: episode, agent,
 * dimension); within one, rows keep the rows' order (by rater name).
 */
export interface AgreementColumns {
  /** Per instance, its first row; one more entry closes the last instance. */
  rowStart: Int32Array;
  /** Per instance: episode index, below the number of instances. */
  episode: Int32Array;
  /** Per instance: index into `dimensions`. */
  dimension: Int32Array;
  /** Per instance: 1 when a person played the rated agent. */
  playedByHuman: Uint8Array;
  /** Per row: index into `raters`. */
  rater: Int32Array;
  /** Per row: 1 when the rater scored as a human annotator. */
  human: Uint8Array;
  value: Float64Array;
  raters: string[];
  dimensions: {key: string; lo: number; hi: number}[];
}

/** Columns from score objects, grouped as pairInstances groups them (first appearance): for tests, benchmarks and the summary loader. */
export function columnsFromScores(rows: readonly RaterScore[]): AgreementColumns {
  const raterIndex = new Map<string, number>();
  const dimensionIndex = new Map<string, number>();
  const episodeIndex = new Map<string, number>();
  const dimensions: AgreementColumns["dimensions"] = [];
  const byInstance = scoresByInstance(rows);
  for (const r of rows) {
    if (!raterIndex.has(r.rater)) raterIndex.set(r.rater, raterIndex.size);
    if (!dimensionIndex.has(r.dimension)) {
      dimensionIndex.set(r.dimension, dimensions.length);
      dimensions.push({key: r.dimension, lo: r.lo, hi: r.hi});
    }
  }
  const n = byInstance.size;
  const columns: AgreementColumns = {
    rowStart: new Int32Array(n + 1), episode: new Int32Array(n), dimension: new Int32Array(n), playedByHuman: new Uint8Array(n),
    rater: new Int32Array(rows.length), human: new Uint8Array(rows.length), value: new Float64Array(rows.length),
    raters: [...raterIndex.keys()], dimensions,
  };
  let i = 0;
  let row = 0;
  for (const list of byInstance.values()) {
    const first = list[0]!;
    if (!episodeIndex.has(first.episode_id)) episodeIndex.set(first.episode_id, episodeIndex.size);
    columns.rowStart[i] = row;
    columns.episode[i] = episodeIndex.get(first.episode_id)!;
    columns.dimension[i] = dimensionIndex.get(first.dimension)!;
    columns.playedByHuman[i] = first.played_by === "human" ? 1 : 0;
    for (const r of list) {
      columns.rater[row] = raterIndex.get(r.rater)!;
      columns.human[row] = r.rater_kind === "human" ? 1 : 0;
      columns.value[row] = r.value;
      row++;
    }
    i++;
  }
  columns.rowStart[n] = row;
  return columns;
}

/** The numbered columns of data/agreement-rows.parquet (AGREEMENT_COLUMNS_SQL), one entry per score. */
export interface CodedScores {
  instance: ArrayLike<number>;
  episode: ArrayLike<number>;
  dimension_code: ArrayLike<number>;
  played_human: ArrayLike<number>;
  rater_code: ArrayLike<number>;
  human: ArrayLike<number>;
  value: ArrayLike<number>;
}

/**
 * Columns from the numbered rows, with the raters and dimensions their codes
 * index (from data/agreement-summary.json). Rows out of (instance, rater)
 * order are put in it; a code out of range is an error naming the row, as it
 * means the two files come from different stores.
 */
export function columnsFromCodes(coded: CodedScores, raters: string[], dimensions: AgreementColumns["dimensions"], file = "agreement-rows.parquet"): AgreementColumns {
  const rows = coded.value.length;
  let instances = 0;
  let sorted = true;
  for (let r = 0; r < rows; r++) {
    const i = coded.instance[r]!;
    const problem = !(Number.isInteger(i) && i >= 0 && i < rows) ? `instance ${i} is not a row number below ${rows}`
      : !(coded.rater_code[r]! >= 0 && coded.rater_code[r]! < raters.length) ? `rater_code ${coded.rater_code[r]} is not below the ${raters.length} raters the summary names`
      : !(coded.dimension_code[r]! >= 0 && coded.dimension_code[r]! < dimensions.length) ? `dimension_code ${coded.dimension_code[r]} is not below the ${dimensions.length} dimensions the summary names`
      : !(coded.episode[r]! >= 0 && coded.episode[r]! < rows) ? `episode ${coded.episode[r]} is not a row number below ${rows}`
      : "";
    if (problem) throw new Error(`${file}, row ${r + 1}: ${problem}; the site's agreement files come from different stores: rebuild the site`);
    if (i + 1 > instances) instances = i + 1;
    if (r > 0 && (i < coded.instance[r - 1]! || (i === coded.instance[r - 1]! && coded.rater_code[r]! < coded.rater_code[r - 1]!))) sorted = false;
  }
  // A counting sort by instance keeps file order within one; then by rater code, as the SQL orders by rater name.
  const order = new Int32Array(rows);
  const rowStart = new Int32Array(instances + 1);
  for (let r = 0; r < rows; r++) rowStart[coded.instance[r]! + 1]++;
  for (let i = 0; i < instances; i++) rowStart[i + 1] += rowStart[i]!;
  if (sorted) {
    for (let r = 0; r < rows; r++) order[r] = r;
  } else {
    const fill = rowStart.slice(0, instances);
    for (let r = 0; r < rows; r++) order[fill[coded.instance[r]!]++] = r;
    for (let i = 0; i < instances; i++) {
      for (let x = rowStart[i]! + 1; x < rowStart[i + 1]!; x++) {
        const row = order[x]!;
        let y = x - 1;
        for (; y >= rowStart[i]! && coded.rater_code[order[y]!]! > coded.rater_code[row]!; y--) order[y + 1] = order[y]!;
        order[y + 1] = row;
      }
    }
  }
  const columns: AgreementColumns = {
    rowStart, episode: new Int32Array(instances), dimension: new Int32Array(instances), playedByHuman: new Uint8Array(instances),
    rater: new Int32Array(rows), human: new Uint8Array(rows), value: new Float64Array(rows), raters, dimensions,
  };
  for (let x = 0; x < rows; x++) {
    const r = order[x]!;
    const i = coded.instance[r]!;
    columns.episode[i] = coded.episode[r]!;
    columns.dimension[i] = coded.dimension_code[r]!;
    columns.playedByHuman[i] = coded.played_human[r]!;
    columns.rater[x] = coded.rater_code[r]!;
    columns.human[x] = coded.human[r]!;
    columns.value[x] = coded.value[r]!;
  }
  return columns;
}
