// Pearson's r and Spearman's rho as functions of item weights (an item of
// weight w counts as w copies of it), so the bootstrap in src/lib/resample.ts
// can resample episodes without copying instances. With every weight 1 they
// equal pearson() and spearman() in src/lib/inference.ts.

/** Weighted Pearson's r of paired values; `unitOf[i]` is item i's index in the weights. O(items) per call. */
export function weightedPearson(xs: readonly number[], ys: readonly number[], unitOf?: ArrayLike<number>): (weights: Float64Array) => number {
  if (xs.length !== ys.length) throw new RangeError(`pearson needs paired values: ${xs.length} x and ${ys.length} y`);
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  return (weights) => correlationOf(x, y, weights, unitOf);
}

function correlationOf(x: Float64Array, y: Float64Array, weights: Float64Array, unitOf?: ArrayLike<number>): number {
  const n = x.length;
  let total = 0;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[unitOf ? unitOf[i] : i];
    total += w;
    mx += w * x[i];
    my += w * y[i];
  }
  if (!(total >= 2)) return NaN;
  mx /= total;
  my /= total;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[unitOf ? unitOf[i] : i];
    if (w === 0) continue;
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += w * dx * dy;
    sxx += w * dx * dx;
    syy += w * dy * dy;
  }
  return sxx === 0 || syy === 0 ? NaN : Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Weighted Spearman's rho: Pearson's r of the average ranks the weighted
 * sample would give (a value held by weight W_v, with W_below below it, ranks
 * W_below + (W_v + 1)/2). The sort is done once; each call walks it. O(items).
 */
export function weightedSpearman(xs: readonly number[], ys: readonly number[], unitOf?: ArrayLike<number>): (weights: Float64Array) => number {
  if (xs.length !== ys.length) throw new RangeError(`spearman needs paired values: ${xs.length} x and ${ys.length} y`);
  const rankX = ranker(xs, unitOf);
  const rankY = ranker(ys, unitOf);
  const rx = new Float64Array(xs.length);
  const ry = new Float64Array(ys.length);
  return (weights) => {
    rankX(weights, rx);
    rankY(weights, ry);
    return correlationOf(rx, ry, weights, unitOf);
  };
}

function ranker(values: readonly number[], unitOf?: ArrayLike<number>): (weights: Float64Array, out: Float64Array) => void {
  const order = Int32Array.from(values.keys()).sort((a, b) => values[a] - values[b]);
  return (weights, out) => {
    let below = 0;
    for (let i = 0; i < order.length; ) {
      let j = i;
      let tied = weights[unitOf ? unitOf[order[i]] : order[i]];
      while (j + 1 < order.length && values[order[j + 1]] === values[order[i]]) {
        j++;
        tied += weights[unitOf ? unitOf[order[j]] : order[j]];
      }
      const rank = below + (tied + 1) / 2;
      for (let k = i; k <= j; k++) out[order[k]] = rank;
      below += tied;
      i = j + 1;
    }
  };
}
