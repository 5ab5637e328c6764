// HSII metrics (METRICS.md § HSII; HSII §5.2.1 Definitions 1 and 2, §6.3, §6.4).

/** A judge's verdict on one comparison, always from the tested model's side. */
export type Verdict = "win" | "tie" | "loss";

/** How the two position-swapped judgments of one comparison make one score. */
export type WinPolicy = "mean" | "strict" | "first";

/** Which HSII score formula: Eq. 1 as printed, or the form that reproduces Table 1's numbers. */
export type HsiiFormula = "eq1" | "table1";

const POINTS: Record<Verdict, number> = {win: 1, tie: 0.5, loss: 0};

export interface Comparison {
  /** Verdict with the tested response shown first. */
  forward: Verdict | null;
  /** Verdict with the two responses swapped. */
  swapped: Verdict | null;
}

/**
 * One comparison's win score in [0, 1] (METRICS.md § HSII, "Win with position swap"):
 * `mean` averages win 1 / tie 0.5 / loss 0 over the orders judged; `strict`
 * wins only when both orders say win; `first` reads the forward order alone.
 * Null when the policy's orders were not judged.
 */
export function winScore(c: Comparison, policy: WinPolicy = "mean"): number | null {
  if (policy === "first") return c.forward === null ? null : POINTS[c.forward];
  if (c.forward === null || c.swapped === null) {
    if (policy === "strict") return null;
    const one = c.forward ?? c.swapped;
    return one === null ? null : POINTS[one];
  }
  if (policy === "strict") return c.forward === "win" && c.swapped === "win" ? 1 : 0;
  return (POINTS[c.forward] + POINTS[c.swapped]) / 2;
}

/** Do the two orders of a comparison disagree (position bias)? Null unless both were judged. */
export const ordersDisagree = (c: Comparison): boolean | null => (c.forward === null || c.swapped === null ? null : c.forward !== c.swapped);

/** What a case contributes to the stage counts. */
export interface HsiiCase {
  parsed: boolean;
  targetCorrect: boolean;
  stage3: Comparison;
  stage4: Comparison;
}

export interface StageCounts {
  n: number;
  n1: number;
  n2: number;
  /** Sum of stage-3 win scores over the n2 cases (fractional under `mean`). */
  n3: number;
  n4: number;
  /** Cases among the n2 whose stage-3 / stage-4 comparison is missing for the policy. */
  unjudged3: number;
  unjudged4: number;
}

/** n, n1, n2, n3, n4 of Definition 1: parsed, parsed with the right target, and the win scores among those. */
export function stageCounts(cases: readonly HsiiCase[], policy: WinPolicy = "mean"): StageCounts {
  const c: StageCounts = {n: cases.length, n1: 0, n2: 0, n3: 0, n4: 0, unjudged3: 0, unjudged4: 0};
  for (const k of cases) {
    if (!k.parsed) continue;
    c.n1++;
    if (!k.targetCorrect) continue;
    c.n2++;
    const w3 = winScore(k.stage3, policy);
    const w4 = winScore(k.stage4, policy);
    if (w3 === null) c.unjudged3++;
    else c.n3 += w3;
    if (w4 === null) c.unjudged4++;
    else c.n4 += w4;
  }
  return c;
}

export interface Rates {
  r1: number;
  r2: number;
  r3: number;
  r4: number;
  /** n2 / n: Table 1's "absolute target selection pass rate". */
  absoluteTarget: number;
}

/** r1 = n1/n, r2 = n2/n1, r3 = n3/n2, r4 = n4/n2 (NaN where a denominator is 0). */
export function rates(c: StageCounts): Rates {
  const div = (a: number, b: number) => (b > 0 ? a / b : NaN);
  return {r1: div(c.n1, c.n), r2: div(c.n2, c.n1), r3: div(c.n3, c.n2), r4: div(c.n4, c.n2), absoluteTarget: div(c.n2, c.n)};
}

export interface HsiiWeights {
  alpha: number;
  beta: number;
  gamma: number;
}

export const DEFAULT_WEIGHTS: HsiiWeights = {alpha: 1, beta: 1, gamma: 1};

/**
 * The HSII score ι. `eq1` is Eq. 1: r1 · (1 + α·r2 · (1 + β·(r3 + γ·r4))).
 * `table1` is r1 · (1 + r2 · (r3 + r4)), the form that reproduces HSII
 * Table 1 (it takes no weights). See METRICS.md, "Known discrepancy".
 */
export function hsiiScore(r: Pick<Rates, "r1" | "r2" | "r3" | "r4">, formula: HsiiFormula = "eq1", w: HsiiWeights = DEFAULT_WEIGHTS): number {
  if (formula === "table1") return r.r1 * (1 + r.r2 * (r.r3 + r.r4));
  return r.r1 * (1 + w.alpha * r.r2 * (1 + w.beta * (r.r3 + w.gamma * r.r4)));
}

/** One (case, COT variant): whether the answer matched gold after each round; round 0 is the answer without COT. */
export interface CotRun {
  rounds: readonly boolean[];
}

export const DEFAULT_CAP = 128;

/** k of Definition 2: the first round whose answer matches gold, or the cap N∞ when none does within it. */
export function cotRounds(run: CotRun, cap = DEFAULT_CAP): number {
  const k = run.rounds.findIndex((ok, i) => ok && i <= cap);
  return k < 0 ? cap : k;
}

export interface CotSummary {
  runs: number;
  /** Share of (case, COT) solved at round 0. */
  successWithoutCot: number;
  /** Share solved within the cap. */
  successWithCot: number;
  /** Mean of k, unsolved counted as the cap (Eq. 2). */
  complexity: number;
  /** Smallest k at which the share solved within k rounds reaches the threshold; Infinity if never. */
  roundsToThreshold: number;
  threshold: number;
  cap: number;
}

/** COT complexity and its companions (HSII Table 2). */
export function cotSummary(runs: readonly CotRun[], {cap = DEFAULT_CAP, threshold = 0.7} = {}): CotSummary {
  const ks = runs.map((r) => ({k: cotRounds(r, cap), solved: r.rounds.some((ok, i) => ok && i <= cap)}));
  const n = ks.length;
  const solvedAt = ks.filter((x) => x.solved).map((x) => x.k).sort((a, b) => a - b);
  let roundsToThreshold = Infinity;
  for (let i = 0; i < solvedAt.length; i++) {
    // Solved within solvedAt[i] rounds: all runs up to the last one with that same k.
    if (i + 1 < solvedAt.length && solvedAt[i + 1] === solvedAt[i]) continue;
    if ((i + 1) / n >= threshold) {
      roundsToThreshold = solvedAt[i]!;
      break;
    }
  }
  return {
    runs: n,
    successWithoutCot: n ? ks.filter((x) => x.solved && x.k === 0).length / n : NaN,
    successWithCot: n ? solvedAt.length / n : NaN,
    complexity: n ? ks.reduce((s, x) => s + x.k, 0) / n : NaN,
    roundsToThreshold: n ? roundsToThreshold : NaN,
    threshold,
    cap,
  };
}

/** Success share by rounds: for k = 0..K, the share of runs solved within k rounds (the curve beside Table 2). */
export function successByRounds(runs: readonly CotRun[], maxK: number, cap = DEFAULT_CAP): {k: number; share: number}[] {
  const ks = runs.map((r) => (r.rounds.some((ok, i) => ok && i <= cap) ? cotRounds(r, cap) : Infinity));
  return Array.from({length: maxK + 1}, (_, k) => ({k, share: runs.length ? ks.filter((x) => x <= k).length / runs.length : NaN}));
}
