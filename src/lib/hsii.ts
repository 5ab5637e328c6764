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
 * `mean` averages win 1 / tie 0.5 / loss 0 over the two orders; `strict`
 * wins only when both orders say win; `first` reads the forward order alone.
 * Null when an order the policy needs was not judged: `mean` and `strict`
 * need both, so a comparison judged in one order only is unjudged under
 * them (never a one-order score passed off as a swapped pair).
 */
export function winScore(c: Comparison, policy: WinPolicy = "mean"): number | null {
  if (policy === "first") return c.forward === null ? null : POINTS[c.forward];
  if (c.forward === null || c.swapped === null) return null;
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
  /** Sum of stage-3 win scores over the judged n2 cases (fractional under `mean`). */
  n3: number;
  n4: number;
  /** Cases among the n2 with the stage-3 / stage-4 verdicts the policy needs: r3's and r4's denominators. */
  judged3: number;
  judged4: number;
  /** Cases among the n2 lacking them (n2 − judged): left out of r3 / r4, not counted as losses. */
  unjudged3: number;
  unjudged4: number;
}

/** n, n1, n2, n3, n4 of Definition 1: parsed, parsed with the right target, and the win scores among those. */
export function stageCounts(cases: readonly HsiiCase[], policy: WinPolicy = "mean"): StageCounts {
  const c: StageCounts = {n: cases.length, n1: 0, n2: 0, n3: 0, n4: 0, judged3: 0, judged4: 0, unjudged3: 0, unjudged4: 0};
  for (const k of cases) {
    if (!k.parsed) continue;
    c.n1++;
    if (!k.targetCorrect) continue;
    c.n2++;
    const w3 = winScore(k.stage3, policy);
    const w4 = winScore(k.stage4, policy);
    if (w3 === null) c.unjudged3++;
    else {
      c.judged3++;
      c.n3 += w3;
    }
    if (w4 === null) c.unjudged4++;
    else {
      c.judged4++;
      c.n4 += w4;
    }
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

/**
 * r1 = n1/n, r2 = n2/n1, and r3 = n3/n2, r4 = n4/n2 taken over the n2 cases
 * judged under the policy (judged3, judged4): a case with no verdict is not a
 * loss. NaN ("n/a") where a denominator is 0, so r4 is n/a, not 0, when no
 * stage-4 verdict exists at all.
 */
export function rates(c: StageCounts): Rates {
  const div = (a: number, b: number) => (b > 0 ? a / b : NaN);
  return {r1: div(c.n1, c.n), r2: div(c.n2, c.n1), r3: div(c.n3, c.judged3), r4: div(c.n4, c.judged4), absoluteTarget: div(c.n2, c.n)};
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
 * Both take r3 and r4 as rates() gives them, over the judged cases; where
 * either is n/a (no verdicts) the score is n/a too, not a score with a 0 in it.
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

/** A case as HSII_CASES_SQL ships it, for one judging rater (or none). */
export interface HsiiCaseRow {
  episode_id: string;
  model: string;
  case_id: string;
  cluster: string | null;
  cot: boolean;
  parsed: boolean;
  target_correct: boolean;
  logged_parsed: boolean | null;
  parser_parsed: boolean;
  rater: string | null;
  s3_forward: Verdict | null;
  s3_swapped: Verdict | null;
  s4_forward: Verdict | null;
  s4_swapped: Verdict | null;
}

export interface HsiiModelRow extends StageCounts, Rates {
  model: string;
  score: number;
  /** Shares of judged comparisons whose two orders disagree, per stage. */
  disagree3: number;
  disagree4: number;
  /** Stage-3 win rate over the n2 cases in each order alone (position-bias audit). */
  r3Forward: number;
  r3Swapped: number;
  /** Cases where the log stated stage 1 and the parser disagrees with it. */
  parserDisagreements: number;
}

export interface HsiiOptions {
  rater: string | null;
  policy?: WinPolicy;
  formula?: HsiiFormula;
  weights?: HsiiWeights;
  /** Only runs with (true) or without (false) COT; both when undefined. */
  cot?: boolean;
  /** Group by this field as well as by model (e.g. cluster). */
  by?: "cluster";
}

/** HSII Table 1 per model (and cluster, when asked), for one judging rater. */
export function hsiiByModel(rows: readonly HsiiCaseRow[], o: HsiiOptions): (HsiiModelRow & {cluster?: string | null})[] {
  const policy = o.policy ?? "mean";
  const groups = new Map<string, {model: string; cluster: string | null; rows: HsiiCaseRow[]}>();
  for (const r of rows) {
    if (o.cot !== undefined && r.cot !== o.cot) continue;
    const cluster = o.by === "cluster" ? r.cluster : null;
    const key = `${r.model}\u0000${cluster ?? ""}`;
    const g = groups.get(key) ?? {model: r.model, cluster, rows: []};
    g.rows.push(r);
    groups.set(key, g);
  }
  const unjudged = {s3_forward: null, s3_swapped: null, s4_forward: null, s4_swapped: null};
  return [...groups.values()].map(({model, cluster, rows: list}) => {
    // A case appears once per judging rater. Every case counts for stages 1 and 2;
    // its verdicts are the chosen rater's, or none.
    const byEpisode = new Map<string, HsiiCaseRow>();
    for (const r of list) {
      if (r.rater === o.rater) byEpisode.set(r.episode_id, r);
      else if (!byEpisode.has(r.episode_id)) byEpisode.set(r.episode_id, {...r, rater: null, ...unjudged});
    }
    const cases = [...byEpisode.values()];
    const asCase = (r: HsiiCaseRow): HsiiCase => ({
      parsed: r.parsed, targetCorrect: r.target_correct,
      stage3: {forward: r.s3_forward, swapped: r.s3_swapped}, stage4: {forward: r.s4_forward, swapped: r.s4_swapped},
    });
    const counts = stageCounts(cases.map(asCase), policy);
    const r = rates(counts);
    const eligible = cases.filter((c) => c.parsed && c.target_correct);
    const share = (xs: (boolean | null)[]) => {
      const judged = xs.filter((x): x is boolean => x !== null);
      return judged.length ? judged.filter(Boolean).length / judged.length : NaN;
    };
    const orderRate = (pick: (c: HsiiCaseRow) => Verdict | null) => {
      const scores = eligible.map(pick).filter((v): v is Verdict => v !== null).map((v) => POINTS[v]);
      return scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : NaN;
    };
    return {
      model, ...(o.by ? {cluster} : {}), ...counts, ...r,
      score: hsiiScore(r, o.formula ?? "eq1", o.weights ?? DEFAULT_WEIGHTS),
      disagree3: share(eligible.map((c) => ordersDisagree({forward: c.s3_forward, swapped: c.s3_swapped}))),
      disagree4: share(eligible.map((c) => ordersDisagree({forward: c.s4_forward, swapped: c.s4_swapped}))),
      r3Forward: orderRate((c) => c.s3_forward),
      r3Swapped: orderRate((c) => c.s3_swapped),
      parserDisagreements: cases.filter((c) => c.logged_parsed !== null && c.logged_parsed !== c.parser_parsed).length,
    };
  }).sort((a, b) => a.model.localeCompare(b.model) || (a.cluster ?? "").localeCompare(b.cluster ?? ""));
}
