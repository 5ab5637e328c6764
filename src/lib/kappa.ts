// Chance-corrected agreement on a binned scale (issue 15): Cohen's kappa for
// two raters with unweighted, linear or quadratic weights (Cohen 1968), Fleiss' kappa and Gwet's AC1 for any number
// of raters per item (Gwet 2008, 2014), next to Randolph's free-marginal kappa
// in src/lib/agreement.ts. Scores arrive as bin indices 0…bins−1 (binIndex).

import {ExactSum} from "./exact-sum.js";

export type KappaWeighting = "unweighted" | "linear" | "quadratic";

export const KAPPA_WEIGHTINGS: readonly KappaWeighting[] = ["unweighted", "linear", "quadratic"];

export const DEFAULT_KAPPA_WEIGHTING: KappaWeighting = "quadratic";

/** Parses a weighting as typed; throws listing the choices. */
export function kappaWeighting(name: string): KappaWeighting {
  const found = KAPPA_WEIGHTINGS.find((w) => w === name.toLowerCase());
  if (!found) throw new Error(`unknown kappa weighting "${name}": choose one of ${KAPPA_WEIGHTINGS.join(", ")}`);
  return found;
}

/** Agreement weight of bins i and j: 1 on the diagonal, falling linearly or quadratically to 0 at the far corners. */
export function agreementWeight(i: number, j: number, bins: number, weighting: KappaWeighting): number {
  if (weighting === "unweighted") return i === j ? 1 : 0;
  const d = Math.abs(i - j) / (bins - 1);
  return weighting === "linear" ? 1 - d : 1 - d * d;
}

/** Throws naming the rating whose bin is not one of 0…bins−1; `who` names the list, and is only called then. */
function checkBins(list: readonly number[], bins: number, who: () => string): void {
  if (!(Number.isInteger(bins) && bins >= 2)) throw new RangeError(`kappa needs at least 2 bins, got ${bins}`);
  for (let i = 0; i < list.length; i++) {
    const b = list[i];
    if (!(Number.isInteger(b) && b >= 0 && b < bins)) throw new RangeError(`${who()} ${i}: bin ${b} is not one of 0…${bins - 1}`);
  }
}

function checkItems(items: readonly (readonly number[])[], bins: number): void {
  for (let i = 0; i < items.length; i++) checkBins(items[i], bins, () => `item ${i}, rating`);
}

export interface CohenKappa {
  kappa: number;
  weighting: KappaWeighting;
  bins: number;
  n: number;
  /** Weighted observed and chance agreement. */
  observed: number;
  expected: number;
}

/**
 * Cohen's kappa of two raters' bins over the same items, in Cohen's (1968)
 * disagreement form: κ_w = 1 − Σ v_ij·o_ij / Σ v_ij·e_ij, with v = 1 − agreement weight.
 */
export function cohenKappa(a: readonly number[], b: readonly number[], bins: number, weighting: KappaWeighting = DEFAULT_KAPPA_WEIGHTING): CohenKappa {
  if (a.length !== b.length) throw new RangeError(`rater A has ${a.length} items and rater B ${b.length}`);
  checkBins(a, bins, () => "rater A, item");
  checkBins(b, bins, () => "rater B, item");
  const n = a.length;
  const table = new Float64Array(bins * bins);
  for (let i = 0; i < n; i++) table[a[i] * bins + b[i]]++;
  const rows = new Float64Array(bins);
  const cols = new Float64Array(bins);
  for (let i = 0; i < bins; i++) {
    for (let j = 0; j < bins; j++) {
      rows[i] += table[i * bins + j];
      cols[j] += table[i * bins + j];
    }
  }
  let observedOff = 0;
  let expectedOff = 0;
  for (let i = 0; i < bins; i++) {
    for (let j = 0; j < bins; j++) {
      const v = 1 - agreementWeight(i, j, bins, weighting);
      observedOff += (v * table[i * bins + j]) / n;
      expectedOff += (v * rows[i] * cols[j]) / (n * n);
    }
  }
  const kappa = n === 0 || expectedOff === 0 ? NaN : 1 - observedOff / expectedOff;
  return {kappa, weighting, bins, n, observed: 1 - observedOff, expected: 1 - expectedOff};
}

/** Cohen's kappa as a function of item weights, for the bootstrap; `unitOf[i]` is item i's index in the weights. O(items + bins²). */
export function weightedCohenKappa(a: readonly number[], b: readonly number[], bins: number, weighting: KappaWeighting = DEFAULT_KAPPA_WEIGHTING, unitOf?: ArrayLike<number>): (weights: Float64Array) => number {
  if (a.length !== b.length) throw new RangeError(`rater A has ${a.length} items and rater B ${b.length}`);
  checkBins(a, bins, () => "rater A, item");
  checkBins(b, bins, () => "rater B, item");
  const agree = new Float64Array(bins * bins);
  for (let i = 0; i < bins; i++) for (let j = 0; j < bins; j++) agree[i * bins + j] = agreementWeight(i, j, bins, weighting);
  const cell = Int32Array.from(a, (x, i) => x * bins + b[i]);
  const table = new Float64Array(bins * bins);
  const rows = new Float64Array(bins);
  const cols = new Float64Array(bins);
  return (weights) => {
    table.fill(0);
    let n = 0;
    for (let i = 0; i < cell.length; i++) {
      const w = weights[unitOf ? unitOf[i] : i];
      table[cell[i]] += w;
      n += w;
    }
    rows.fill(0);
    cols.fill(0);
    let po = 0;
    for (let i = 0; i < bins; i++) {
      for (let j = 0; j < bins; j++) {
        const p = table[i * bins + j] / n;
        rows[i] += p;
        cols[j] += p;
        po += agree[i * bins + j] * p;
      }
    }
    let pe = 0;
    for (let i = 0; i < bins; i++) for (let j = 0; j < bins; j++) pe += agree[i * bins + j] * rows[i] * cols[j];
    return n === 0 || pe === 1 ? NaN : (po - pe) / (1 - pe);
  };
}

export interface MultiRaterAgreement {
  bins: number;
  /** Items with two or more ratings (those P_o and the kappas count). */
  items: number;
  /** P_o: the mean share of agreeing rater pairs per item. */
  pairwiseAgreement: number;
  /** Fleiss: chance agreement Σ π_k², π_k the mean share of an item's ratings in bin k. */
  fleissKappa: number;
  /** Gwet's AC1: chance agreement Σ π_k(1 − π_k)/(bins − 1). */
  gwetAc1: number;
  /** Randolph's free-marginal kappa: chance agreement 1/bins. */
  randolphKappa: number;
  /** The mean shares π_k behind Fleiss and AC1. */
  shares: number[];
}

/**
 * Fleiss' kappa, Gwet's AC1 and Randolph's kappa of items rated by varying
 * numbers of raters, each item the list of its ratings' bins. P_o counts items
 * with two or more ratings; the shares π_k average r_ik / r_i over those
 * items too (with the same raters on every item this is Fleiss' p_j).
 */
export function multiRaterAgreement(items: readonly (readonly number[])[], bins: number): MultiRaterAgreement {
  checkItems(items, bins);
  const shares = new Array<number>(bins).fill(0);
  // Summed exactly, as the agreement page's kappa is (agreement-sums.ts): the two give one P_o to the last bit.
  const agreeing = new ExactSum();
  let used = 0;
  for (const item of items) {
    const m = item.length;
    if (m < 2) continue;
    const counts = new Array<number>(bins).fill(0);
    for (const b of item) counts[b]++;
    let pairs = 0;
    counts.forEach((c, k) => {
      pairs += c * (c - 1);
      shares[k] += c / m;
    });
    agreeing.add(pairs / (m * (m - 1)));
    used++;
  }
  const po = used ? agreeing.value() / used : NaN;
  let fleissChance = 0;
  let gwetChance = 0;
  for (let k = 0; k < bins; k++) {
    shares[k] = used ? shares[k] / used : NaN;
    fleissChance += shares[k] * shares[k];
    gwetChance += (shares[k] * (1 - shares[k])) / (bins - 1);
  }
  const corrected = (chance: number) => (used === 0 || chance === 1 ? NaN : (po - chance) / (1 - chance));
  return {bins, items: used, pairwiseAgreement: po, fleissKappa: corrected(fleissChance), gwetAc1: corrected(gwetChance), randolphKappa: corrected(1 / bins), shares};
}

/**
 * Gwet's AC1 (or Fleiss' kappa) as a function of item weights, for the
 * bootstrap: each item's agreeing-pair share and bin shares are fixed, only
 * their weighted means change. O(items × bins) per call.
 */
export function weightedMultiRater(items: readonly (readonly number[])[], bins: number, statistic: "ac1" | "fleiss", unitOf?: ArrayLike<number>): (weights: Float64Array) => number {
  checkItems(items, bins);
  const kept: number[] = [];
  items.forEach((item, i) => {
    if (item.length >= 2) kept.push(i);
  });
  const agreement = new Float64Array(kept.length);
  const share = new Float64Array(kept.length * bins);
  kept.forEach((i, q) => {
    const item = items[i];
    const m = item.length;
    const counts = new Array<number>(bins).fill(0);
    for (const b of item) counts[b]++;
    let pairs = 0;
    counts.forEach((c, k) => {
      share[q * bins + k] = c / m;
      pairs += c * (c - 1);
    });
    agreement[q] = pairs / (m * (m - 1));
  });
  const pi = new Float64Array(bins);
  return (weights) => {
    let total = 0;
    let po = 0;
    pi.fill(0);
    for (let q = 0; q < kept.length; q++) {
      const w = weights[unitOf ? unitOf[kept[q]] : kept[q]];
      if (w === 0) continue;
      total += w;
      po += w * agreement[q];
      for (let k = 0; k < bins; k++) pi[k] += w * share[q * bins + k];
    }
    if (total === 0) return NaN;
    po /= total;
    let chance = 0;
    for (let k = 0; k < bins; k++) {
      const p = pi[k] / total;
      chance += statistic === "ac1" ? (p * (1 - p)) / (bins - 1) : p * p;
    }
    return chance === 1 ? NaN : (po - chance) / (1 - chance);
  };
}
