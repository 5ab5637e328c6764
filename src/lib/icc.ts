// Intraclass correlation (issue 15): the six forms of
// Shrout & Fleiss (1979), named as McGraw & Wong (1996) name them too, from the
// one-way and two-way ANOVA of an items × raters matrix with no gaps. F tests,
// p-values and intervals follow Shrout & Fleiss and McGraw & Wong as R's
// psych::ICC computes them.

import {fQuantile, fUpperTail} from "./distributions.js";

export type IccForm = "1,1" | "2,1" | "3,1" | "1,k" | "2,k" | "3,k";

export const ICC_FORMS: readonly IccForm[] = ["1,1", "2,1", "3,1", "1,k", "2,k", "3,k"];

export const DEFAULT_ICC_FORM: IccForm = "2,1";

/** What each form assumes and measures, in a phrase. */
export const ICC_FORM_LABELS: Readonly<Record<IccForm, string>> = {
  "1,1": "ICC(1,1): one-way random, single rater (each item may have different raters)",
  "2,1": "ICC(2,1): two-way random, absolute agreement, single rater (McGraw–Wong ICC(A,1))",
  "3,1": "ICC(3,1): two-way mixed, consistency, single rater (McGraw–Wong ICC(C,1)); ignores a constant offset between raters",
  "1,k": "ICC(1,k): one-way random, mean of k raters",
  "2,k": "ICC(2,k): two-way random, absolute agreement, mean of k raters (McGraw–Wong ICC(A,k))",
  "3,k": "ICC(3,k): two-way mixed, consistency, mean of k raters (McGraw–Wong ICC(C,k))",
};

/** Parses a form as typed: "2,1", "2", "ICC(2,1)", "2k" or "2,k"; throws listing the choices. */
export function iccForm(name: string): IccForm {
  const bare = name.toLowerCase().replace(/^icc\(?|\)$/g, "").replace(/\s/g, "");
  const normal = /^[123]$/.test(bare) ? `${bare},1` : /^[123]k$/.test(bare) ? `${bare[0]},k` : bare;
  const found = ICC_FORMS.find((f) => f === normal);
  if (!found) throw new Error(`unknown ICC form "${name}": choose one of ${ICC_FORMS.join(", ")}`);
  return found;
}

export interface MeanSquares {
  /** Items (targets) n and raters k. */
  n: number;
  k: number;
  /** Between items, between raters (columns), residual, within items (one-way). */
  rows: number;
  columns: number;
  error: number;
  within: number;
}

export interface Icc {
  form: IccForm;
  value: number;
  /** F statistic of H0: ICC = 0, its degrees of freedom and upper-tail p. */
  f: number;
  df1: number;
  df2: number;
  p: number;
  /** The interval at `level` (F-based, Shrout & Fleiss; McGraw & Wong for the absolute-agreement forms). */
  lo: number;
  hi: number;
  level: number;
}

/** The ICC of one form from the mean squares (the formula shared by the plain and weighted forms). */
export function iccValue(ms: MeanSquares, form: IccForm): number {
  const {n, k, rows: r, columns: c, error: e, within: w} = ms;
  const [numerator, denominator] = ((): [number, number] => {
    switch (form) {
      case "1,1": return [r - w, r + (k - 1) * w];
      case "2,1": return [r - e, r + (k - 1) * e + (k * (c - e)) / n];
      case "3,1": return [r - e, r + (k - 1) * e];
      case "1,k": return [r - w, r];
      case "2,k": return [r - e, r + (c - e) / n];
      case "3,k": return [r - e, r];
    }
  })();
  // Items that do not vary (MSR = 0), or a column variance that drives the
  // denominator to or below zero, leave the ratio without meaning: ±∞ or a
  // value above 1 would be read as a number.
  return denominator > 0 ? numerator / denominator : NaN;
}

function checkMatrix(matrix: readonly (readonly number[])[]): void {
  const k = matrix.length ? matrix[0].length : 0;
  matrix.forEach((row, i) => {
    if (row.length !== k) throw new RangeError(`item ${i} has ${row.length} ratings where the first has ${k}: the ICC needs every item rated by the same raters`);
    row.forEach((x, j) => {
      if (!Number.isFinite(x)) throw new RangeError(`item ${i}, rater ${j}: not a finite number (${x})`);
    });
  });
}

/** Mean squares of a complete items × raters matrix (two-way ANOVA without replication). */
export function meanSquares(matrix: readonly (readonly number[])[]): MeanSquares {
  checkMatrix(matrix);
  const n = matrix.length;
  const k = n ? matrix[0].length : 0;
  let grand = 0;
  for (const row of matrix) for (const x of row) grand += x;
  grand /= n * k;
  let total = 0;
  let between = 0;
  const columnSums = new Float64Array(k);
  for (const row of matrix) {
    let rowSum = 0;
    row.forEach((x, j) => {
      total += (x - grand) * (x - grand);
      rowSum += x;
      columnSums[j] += x;
    });
    between += k * (rowSum / k - grand) * (rowSum / k - grand);
  }
  let raters = 0;
  for (const s of columnSums) raters += n * (s / n - grand) * (s / n - grand);
  const error = total - between - raters;
  return {n, k, rows: between / (n - 1), columns: raters / (k - 1), error: error / ((n - 1) * (k - 1)), within: (total - between) / (n * (k - 1))};
}

/** One form with its F test and interval. */
export function iccWithTest(ms: MeanSquares, form: IccForm, level = 0.95): Icc {
  const {n, k} = ms;
  const value = iccValue(ms, form);
  const q = 1 - (1 - level) / 2;
  const oneWay = form[0] === "1";
  const f = oneWay ? ms.rows / ms.within : ms.rows / ms.error;
  const df1 = n - 1;
  const df2 = oneWay ? n * (k - 1) : (n - 1) * (k - 1);
  const p = fUpperTail(f, df1, df2);
  const single = form.endsWith(",1");
  let lo: number;
  let hi: number;
  if (form[0] === "2") {
    // McGraw & Wong's interval for absolute agreement, with Satterthwaite's df v.
    const icc2 = iccValue(ms, "2,1");
    const fj = ms.columns / ms.error;
    const a = n * (1 + (k - 1) * icc2) - k * icc2;
    const v = ((k - 1) * (n - 1) * (k * icc2 * fj + a) ** 2) / ((n - 1) * k * k * icc2 * icc2 * fj * fj + a * a);
    const fu = fQuantile(q, n - 1, v);
    const fl = fQuantile(q, v, n - 1);
    const spread = k * ms.columns + (k * n - k - n) * ms.error;
    const l = (n * (ms.rows - fu * ms.error)) / (fu * spread + n * ms.rows);
    const u = (n * (fl * ms.rows - ms.error)) / (spread + n * fl * ms.rows);
    [lo, hi] = single ? [l, u] : [(l * k) / (1 + l * (k - 1)), (u * k) / (1 + u * (k - 1))];
  } else {
    const fl = f / fQuantile(q, df1, df2);
    const fu = f * fQuantile(q, df2, df1);
    [lo, hi] = single ? [(fl - 1) / (fl + k - 1), (fu - 1) / (fu + k - 1)] : [1 - 1 / fl, 1 - 1 / fu];
  }
  return {form, value, f, df1, df2, p, lo, hi, level};
}

/** Every form of a complete items × raters matrix. */
export function iccAll(matrix: readonly (readonly number[])[], level = 0.95): Icc[] {
  const ms = meanSquares(matrix);
  return ICC_FORMS.map((form) => iccWithTest(ms, form, level));
}

/**
 * One form as a function of item weights (an item of weight w counts as w
 * copies), for the bootstrap. `unitOf[i]` is the index in the weights of item
 * i; by default item i has weight i. Mean squares come from each item's mean
 * and within-item sum of squares, with the weighted item count N = Σ w in the
 * degrees of freedom. O(items × raters) per call.
 */
export function weightedIcc(matrix: readonly (readonly number[])[], form: IccForm = DEFAULT_ICC_FORM, unitOf?: ArrayLike<number>): (weights: Float64Array) => number {
  checkMatrix(matrix);
  const n = matrix.length;
  const k = n ? matrix[0].length : 0;
  const rowMean = new Float64Array(n);
  const rowWithin = new Float64Array(n);
  const cells = new Float64Array(n * k);
  matrix.forEach((row, i) => {
    let s = 0;
    row.forEach((x, j) => {
      s += x;
      cells[i * k + j] = x;
    });
    rowMean[i] = s / k;
    let ss = 0;
    for (const x of row) ss += (x - rowMean[i]) * (x - rowMean[i]);
    rowWithin[i] = ss;
  });
  const columnSums = new Float64Array(k);
  return (weights) => {
    let total = 0;
    let grand = 0;
    for (let i = 0; i < n; i++) {
      const w = weights[unitOf ? unitOf[i] : i];
      total += w;
      grand += w * rowMean[i];
    }
    if (!(total > 1)) return NaN;
    grand /= total;
    let between = 0;
    let within = 0;
    columnSums.fill(0);
    for (let i = 0; i < n; i++) {
      const w = weights[unitOf ? unitOf[i] : i];
      if (w === 0) continue;
      between += w * k * (rowMean[i] - grand) * (rowMean[i] - grand);
      within += w * rowWithin[i];
      for (let j = 0; j < k; j++) columnSums[j] += w * cells[i * k + j];
    }
    let raters = 0;
    for (let j = 0; j < k; j++) raters += total * (columnSums[j] / total - grand) * (columnSums[j] / total - grand);
    const error = within - raters;
    return iccValue({n: total, k, rows: between / (total - 1), columns: raters / (k - 1), error: error / ((total - 1) * (k - 1)), within: within / (total * (k - 1))}, form);
  };
}
