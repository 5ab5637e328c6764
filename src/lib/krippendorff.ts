// Krippendorff's alpha (issue 15; Krippendorff 2011,
// "Computing Krippendorff's alpha-reliability"): agreement among any number of
// raters, each unit rated by any subset of them, on a scale with a chosen
// difference function. α = 1 − D_o / D_e, from the coincidence matrix.

export type AlphaMetric = "nominal" | "ordinal" | "interval" | "ratio";

export const ALPHA_METRICS: readonly AlphaMetric[] = ["nominal", "ordinal", "interval", "ratio"];

export const DEFAULT_ALPHA_METRIC: AlphaMetric = "interval";

export interface Alpha {
  alpha: number;
  metric: AlphaMetric;
  /** Units with two or more values: the only ones that count. */
  units: number;
  /** Pairable values n (the coincidence matrix's total). */
  values: number;
  observed: number;
  expected: number;
  /** Why alpha is NaN, when it is. */
  reason?: string;
}

/** Parses a metric as typed in the CLI or a page menu; throws listing the choices. */
export function alphaMetric(name: string): AlphaMetric {
  const found = ALPHA_METRICS.find((m) => m === name.toLowerCase());
  if (!found) throw new Error(`unknown alpha metric "${name}": choose one of ${ALPHA_METRICS.join(", ")}`);
  return found;
}

const RATIO_NEEDS = "the ratio metric needs values ≥ 0 (a scale with a true zero)";

/** δ² of two values under a metric whose differences do not depend on the data (all but ordinal). */
function fixedDelta(metric: Exclude<AlphaMetric, "ordinal">, c: number, k: number): number {
  if (metric === "nominal") return c === k ? 0 : 1;
  if (metric === "interval") return (c - k) * (c - k);
  const s = c + k;
  return s === 0 ? 0 : ((c - k) / s) * ((c - k) / s);
}

/** Ordinal δ²_ck from the value totals n_g (values sorted ascending): (Σ_{g=c..k} n_g − (n_c + n_k)/2)². */
function ordinalDeltas(totals: ArrayLike<number>): Float64Array {
  const v = totals.length;
  const deltas = new Float64Array(v * v);
  for (let c = 0; c < v; c++) {
    let between = 0;
    for (let k = c; k < v; k++) {
      between += totals[k];
      const d = between - (totals[c] + totals[k]) / 2;
      deltas[c * v + k] = d * d;
      deltas[k * v + c] = d * d;
    }
  }
  return deltas;
}

function sortedDistinct(units: readonly (readonly number[])[]): number[] {
  const seen = new Set<number>();
  for (const u of units) if (u.length >= 2) for (const x of u) seen.add(x);
  return Array.from(seen).sort((a, b) => a - b);
}

function checkValues(units: readonly (readonly number[])[]): void {
  units.forEach((u, i) => u.forEach((x) => {
    if (!Number.isFinite(x)) throw new RangeError(`unit ${i} has a value that is not a finite number: ${x}`);
  }));
}

function result(metric: AlphaMetric, units: number, values: number, observedSum: number, expectedSum: number): Alpha {
  if (values < 2 || units === 0) return {alpha: NaN, metric, units, values, observed: NaN, expected: NaN, reason: "fewer than two pairable values"};
  const observed = observedSum / values;
  const expected = expectedSum / (values * (values - 1));
  if (expected === 0) return {alpha: NaN, metric, units, values, observed, expected, reason: "every pairable value is the same, so there is no disagreement to expect"};
  return {alpha: 1 - observed / expected, metric, units, values, observed, expected};
}

/**
 * Krippendorff's alpha over units, each the list of the values its raters gave
 * (a missing rating is simply absent). Units with fewer than two values are not
 * pairable and do not count. Computed from the dense coincidence matrix, as
 * in Krippendorff's worked example.
 */
export function krippendorffAlpha(units: readonly (readonly number[])[], metric: AlphaMetric = DEFAULT_ALPHA_METRIC): Alpha {
  checkValues(units);
  const values = sortedDistinct(units);
  const v = values.length;
  const index = new Map(values.map((x, i) => [x, i]));
  if (metric === "ratio" && v > 0 && values[0] < 0) return {alpha: NaN, metric, units: 0, values: 0, observed: NaN, expected: NaN, reason: `${RATIO_NEEDS}; found ${values[0]}`};
  const o = new Float64Array(v * v);
  let pairable = 0;
  let n = 0;
  for (const u of units) {
    const m = u.length;
    if (m < 2) continue;
    pairable++;
    n += m;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) if (i !== j) o[index.get(u[i])! * v + index.get(u[j])!] += 1 / (m - 1);
    }
  }
  const totals = new Float64Array(v);
  for (let c = 0; c < v; c++) for (let k = 0; k < v; k++) totals[c] += o[c * v + k];
  const ordinal = metric === "ordinal" ? ordinalDeltas(totals) : null;
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < v; c++) {
    for (let k = 0; k < v; k++) {
      const d = ordinal ? ordinal[c * v + k] : fixedDelta(metric as Exclude<AlphaMetric, "ordinal">, values[c], values[k]);
      observed += o[c * v + k] * d;
      expected += totals[c] * totals[k] * d;
    }
  }
  return result(metric, pairable, n, observed, expected);
}

/**
 * Alpha as a function of unit weights (a unit of weight w counts as w copies
 * of it), for the bootstrap (src/lib/resample.ts). `unitOf[i]` is the index in
 * the weights of unit i (its episode, say); by default unit i has weight i.
 * Precomputes what does not depend on the weights, so one call costs
 * O(units + values) (ordinal: O(value pairs within units + V²)).
 */
export function weightedAlpha(units: readonly (readonly number[])[], metric: AlphaMetric = DEFAULT_ALPHA_METRIC, unitOf?: ArrayLike<number>): (weights: Float64Array) => number {
  checkValues(units);
  const values = sortedDistinct(units);
  const v = values.length;
  if (metric === "ratio" && v > 0 && values[0] < 0) return () => NaN;
  const index = new Map(values.map((x, i) => [x, i]));
  const pairable = units.map((u, i) => ({u, i})).filter(({u}) => u.length >= 2);
  const count = pairable.length;
  const weightOf = new Int32Array(count);
  // Every pairable value as (unit, value index): the value totals n_c.
  let valueCount = 0;
  for (const {u} of pairable) valueCount += u.length;
  const valueUnit = new Int32Array(valueCount);
  const valueIndex = new Int32Array(valueCount);
  let p = 0;
  pairable.forEach(({u, i}, k) => {
    weightOf[k] = unitOf ? unitOf[i] : i;
    for (const x of u) {
      valueUnit[p] = k;
      valueIndex[p++] = index.get(x)!;
    }
  });
  // Centred values keep the interval metric's expected sum from cancelling.
  let centre = 0;
  for (const x of values) centre += x / v;
  const totals = new Float64Array(v);
  const fillTotals = (w: Float64Array): number => {
    totals.fill(0);
    for (let q = 0; q < valueCount; q++) totals[valueIndex[q]] += w[weightOf[valueUnit[q]]];
    let n = 0;
    for (let c = 0; c < v; c++) n += totals[c];
    return n;
  };
  const pairableUnits = (w: Float64Array): number => {
    let units = 0;
    for (let k = 0; k < count; k++) if (w[weightOf[k]] > 0) units++;
    return units;
  };

  if (metric === "ordinal") {
    // Each unit's coincidences off the diagonal, c < k (δ² is symmetric and zero on the diagonal).
    const pairUnit: number[] = [];
    const pairCell: number[] = [];
    const pairAmount: number[] = [];
    pairable.forEach(({u}, k) => {
      const cells = new Map<number, number>();
      for (let i = 0; i < u.length; i++) {
        for (let j = 0; j < u.length; j++) {
          const a = index.get(u[i])!;
          const b = index.get(u[j])!;
          if (a < b) cells.set(a * v + b, (cells.get(a * v + b) ?? 0) + 1 / (u.length - 1));
        }
      }
      for (const [cell, amount] of cells) {
        pairUnit.push(k);
        pairCell.push(cell);
        pairAmount.push(amount);
      }
    });
    const o = new Float64Array(v * v);
    return (w) => {
      const n = fillTotals(w);
      o.fill(0);
      for (let q = 0; q < pairUnit.length; q++) o[pairCell[q]] += w[weightOf[pairUnit[q]]] * pairAmount[q];
      const deltas = ordinalDeltas(totals);
      let observed = 0;
      let expected = 0;
      for (let c = 0; c < v; c++) {
        for (let k = c + 1; k < v; k++) {
          observed += 2 * o[c * v + k] * deltas[c * v + k];
          expected += 2 * totals[c] * totals[k] * deltas[c * v + k];
        }
      }
      return result(metric, pairableUnits(w), n, observed, expected).alpha;
    };
  }

  const fixed = metric;
  // Each unit's own disagreement Σ_{i≠j} δ²(x_i, x_j) / (m − 1).
  const unitDisagreement = new Float64Array(count);
  pairable.forEach(({u}, k) => {
    let sum = 0;
    for (let i = 0; i < u.length; i++) for (let j = i + 1; j < u.length; j++) sum += 2 * fixedDelta(fixed, u[i], u[j]);
    unitDisagreement[k] = sum / (u.length - 1);
  });
  return (w) => {
    const n = fillTotals(w);
    let observed = 0;
    for (let k = 0; k < count; k++) observed += w[weightOf[k]] * unitDisagreement[k];
    let expected = 0;
    if (fixed === "nominal") {
      let same = 0;
      for (let c = 0; c < v; c++) same += totals[c] * totals[c];
      expected = n * n - same;
    } else if (fixed === "interval") {
      let s1 = 0;
      let s2 = 0;
      for (let c = 0; c < v; c++) {
        const x = values[c] - centre;
        s1 += totals[c] * x;
        s2 += totals[c] * x * x;
      }
      expected = 2 * (n * s2 - s1 * s1);
    } else {
      for (let c = 0; c < v; c++) for (let k = c + 1; k < v; k++) expected += 2 * totals[c] * totals[k] * fixedDelta(fixed, values[c], values[k]);
    }
    // With one value left, expected disagreement is zero; the interval form's
    // n·Σx² − (Σx)² leaves a rounding residue there instead, which would read as α = 1.
    let present = 0;
    for (let c = 0; c < v && present < 2; c++) if (totals[c] > 0) present++;
    if (present < 2) expected = 0;
    return result(metric, pairableUnits(w), n, observed, expected).alpha;
  };
}
