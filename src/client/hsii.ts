// Data for the HSII page: case rows and COT rounds (decoded directly), and the
// page's glue around src/lib/hsii.ts (which computes every number, as the
// CLI's `report hsii` and `report cot` do): judges, the options sentence and
// the COT rows per model.

import {cotSummary, hsiiByModel, hsiiScore, successByRounds, type CotSummary, type HsiiCaseRow, type HsiiFormula, type HsiiWeights, type WinPolicy} from "../lib/hsii.js";
import {decodeView, orderBy, type Tables} from "./tables.js";

/** One row of data/hsii-cot.parquet: one (episode, COT variant). */
export interface CotRow {
  episode_id: string;
  model: string;
  case_id: string;
  cluster: string | null;
  cot: boolean;
  variant: string;
  rounds: boolean[];
}

export interface HsiiData {
  cases: HsiiCaseRow[];
  cot: CotRow[];
  /** Judging raters, sorted: the CLI's default is the first. */
  raters: string[];
}

/** The page's data from its decoded tables, in the order the SQL path gave them. */
export function hsiiData(tables: Tables<"hsii_cases" | "hsii_cot">): HsiiData {
  const cases = orderBy(tables.hsii_cases as unknown as HsiiCaseRow[], ["model", "case_id", "cot", "rater"]);
  const cot = hsiiCot(tables);
  const raters = [...new Set(cases.map((r) => r.rater).filter((r): r is string => r !== null))].sort();
  return {cases, cot, raters};
}

/** The COT rounds in the SQL's order: what the page reads after its first view. */
export const hsiiCot = (tables: Tables<"hsii_cot">): CotRow[] => orderBy(tables.hsii_cot as unknown as CotRow[], ["model", "case_id", "episode_id", "variant"]);

export type CotFilter = "both" | "with" | "without";

/** The `cot` option of hsiiByModel for a COT filter. */
export const cotOption = (f: CotFilter): boolean | undefined => (f === "with" ? true : f === "without" ? false : undefined);

export const POLICY_TEXT: Record<WinPolicy, string> = {
  mean: "mean (win 1, tie 0.5, loss 0, averaged over both orders)",
  strict: "strict (a win only when both orders say win)",
  first: "first (the forward order only)",
};

/** The sentence that says which options produced the numbers. */
export function hsiiOptionsText({rater, policy, formula, weights, cot}: {rater: string | null; policy: WinPolicy; formula: HsiiFormula; weights: HsiiWeights; cot: CotFilter}): string {
  const score = formula === "eq1"
    ? `Eq. 1, ι = r1·(1 + α·r2·(1 + β·(r3 + γ·r4))) with α = ${weights.alpha}, β = ${weights.beta}, γ = ${weights.gamma}`
    : "ι = r1·(1 + r2·(r3 + r4)), the form that reproduces HSII Table 1 (α, β, γ do not apply)";
  const runs = cot === "both" ? "runs with and without COT" : cot === "with" ? "runs with COT only" : "runs without COT only";
  return `Judge: ${rater ?? "none (no stage-3/4 judgments)"}; win policy: ${POLICY_TEXT[policy]}; score: ${score}; ${runs}.`;
}

/** Table 2 per model, and the success-by-rounds curve up to `maxK`. */
export function cotByModel(runs: readonly CotRow[], {cap, threshold, maxK}: {cap: number; threshold: number; maxK: number}):
  {summaries: (CotSummary & {model: string})[]; curve: {model: string; k: number; share: number}[]} {
  const models = [...new Set(runs.map((r) => r.model))];
  const summaries = models.map((model) => ({model, ...cotSummary(runs.filter((r) => r.model === model), {cap, threshold})}));
  const curve = models.flatMap((model) => successByRounds(runs.filter((r) => r.model === model), maxK, cap).map((p) => ({model, ...p})));
  return {summaries, curve};
}

/**
 * One model's COT runs as counts of the first round whose answer matched gold
 * (round 0 included; runs never solved counted apart): every number of Table 2
 * and the curve follows from these counts for any cap and threshold, bounded by
 * the longest run whatever the number of runs.
 */
export interface CotFirstRounds {
  model: string;
  runs: number;
  /** Distinct first-solved rounds, ascending, and how many runs each. */
  rounds: number[];
  counts: number[];
}

/** Per model, in the order cotByModel takes them: the counts of first-solved rounds. */
export function cotFirstRounds(runs: readonly CotRow[]): CotFirstRounds[] {
  const byModel = new Map<string, Map<number, number>>();
  const totals = new Map<string, number>();
  for (const r of runs) {
    let firsts = byModel.get(r.model);
    if (!firsts) byModel.set(r.model, (firsts = new Map()));
    totals.set(r.model, (totals.get(r.model) ?? 0) + 1);
    const first = r.rounds.indexOf(true);
    if (first >= 0) firsts.set(first, (firsts.get(first) ?? 0) + 1);
  }
  return Array.from(byModel, ([model, firsts]) => {
    const rounds = Array.from(firsts.keys()).sort((a, b) => a - b);
    return {model, runs: totals.get(model)!, rounds, counts: rounds.map((k) => firsts.get(k)!)};
  });
}

/**
 * cotByModel from the first-solved counts: the same summaries (cotSummary) and
 * curve (successByRounds), by the same integer counts and divisions, so a cap
 * or threshold change reads no run.
 */
export function cotByModelFromRounds(models: readonly CotFirstRounds[], {cap, threshold, maxK}: {cap: number; threshold: number; maxK: number}):
  {summaries: (CotSummary & {model: string})[]; curve: {model: string; k: number; share: number}[]} {
  const summaries: (CotSummary & {model: string})[] = [];
  const curve: {model: string; k: number; share: number}[] = [];
  for (const m of models) {
    const n = m.runs;
    let solved = 0, atZero = 0, kSum = 0, roundsToThreshold = Infinity;
    m.rounds.forEach((k, i) => {
      if (k > cap) return;
      solved += m.counts[i]!;
      if (k === 0) atZero += m.counts[i]!;
      kSum += k * m.counts[i]!;
      if (roundsToThreshold === Infinity && solved / n >= threshold) roundsToThreshold = k;
    });
    kSum += (n - solved) * cap;
    summaries.push({
      model: m.model, runs: n, successWithoutCot: n ? atZero / n : NaN, successWithCot: n ? solved / n : NaN, complexity: n ? kSum / n : NaN,
      roundsToThreshold: n ? roundsToThreshold : NaN, threshold, cap,
    });
    for (let k = 0, i = 0, within = 0; k <= maxK; k++) {
      for (; i < m.rounds.length && m.rounds[i]! <= k && m.rounds[i]! <= cap; i++) within += m.counts[i]!;
      curve.push({model: m.model, k, share: n ? within / n : NaN});
    }
  }
  return {summaries, curve};
}

/** The longest COT run (rounds after round 0): how far the curve can go. */
export function longestRun(runs: readonly CotRow[]): number {
  let longest = 1;
  for (const r of runs) if (r.rounds.length - 1 > longest) longest = r.rounds.length - 1;
  return longest;
}

/** The page's options as its inputs start. */
export interface HsiiPageOptions {
  rater: string | null;
  policy: WinPolicy;
  formula: HsiiFormula;
  weights: HsiiWeights;
  cot: CotFilter;
}

export const defaultHsiiOptions = (raters: readonly string[]): HsiiPageOptions =>
  ({rater: raters[0] ?? null, policy: "mean", formula: "eq1", weights: {alpha: 1, beta: 1, gamma: 1}, cot: "both"});

type HsiiTable = ReturnType<typeof hsiiByModel>;
const POLICIES: readonly WinPolicy[] = ["mean", "strict", "first"];
const COT_FILTERS: readonly CotFilter[] = ["both", "without", "with"];
const countsKey = (o: Pick<HsiiPageOptions, "rater" | "policy" | "cot">) => JSON.stringify([o.rater, o.policy, o.cot]);

/**
 * Table 1 per model and per model and cluster for every judge, win policy and
 * runs filter, computed at build time by hsiiByModel (bounded by judges, models
 * and clusters). The formula and the weights only combine a row's rates
 * (hsiiScore), so the page re-scores these rows and never reads a case row:
 * every change of the options above Table 1 is a lookup.
 */
export interface HsiiOptionViews {
  byModel: Record<string, HsiiTable>;
  byCluster: Record<string, HsiiTable>;
}

/** Every option view from the page's data. */
export function hsiiOptionViews(data: HsiiData): HsiiOptionViews {
  const views: HsiiOptionViews = {byModel: {}, byCluster: {}};
  for (const rater of data.raters.length ? data.raters : [null]) {
    for (const policy of POLICIES) {
      for (const cot of COT_FILTERS) {
        const o = {rater, policy, cot: cotOption(cot)};
        views.byModel[countsKey({rater, policy, cot})] = hsiiByModel(data.cases, o);
        views.byCluster[countsKey({rater, policy, cot})] = hsiiByModel(data.cases, {...o, by: "cluster"});
      }
    }
  }
  return views;
}

/** Table 1 (per model, or per model and cluster) for the page's options: the looked-up rows scored by the chosen formula and weights, as hsiiByModel scores them. */
export function hsiiLookup(views: HsiiOptionViews, options: HsiiPageOptions, by?: "cluster"): HsiiTable {
  const rows = (by === "cluster" ? views.byCluster : views.byModel)[countsKey(options)];
  if (!rows) throw new Error(`data/hsii-first-view.bin: no Table 1 for judge ${options.rater ?? "none"}, policy ${options.policy}, runs ${options.cot}; rebuild the site`);
  return rows.map((r) => ({...r, score: hsiiScore(r, options.formula, options.weights)}));
}

/** What the first view draws (hsii-first-view.bin), bounded by models: Table 1 under the default options, the inputs' choices, and Table 1 for every other choice. */
export interface HsiiFirstView {
  cases: number;
  cot: number;
  raters: string[];
  options: HsiiPageOptions;
  table: HsiiTable;
  views: HsiiOptionViews;
  /** COT Table 2 and its curve for any cap and threshold, and the longest run (the curve's reach). */
  cotRounds: CotFirstRounds[];
  longestRun: number;
}

/** The first view from the page's data, computed at build time by the same functions the page runs. */
export function hsiiFirstView(data: HsiiData): HsiiFirstView {
  const options = defaultHsiiOptions(data.raters);
  const table = hsiiByModel(data.cases, {rater: options.rater, policy: options.policy, formula: options.formula, weights: options.weights, cot: cotOption(options.cot)});
  return {cases: data.cases.length, cot: data.cot.length, raters: data.raters, options, table, views: hsiiOptionViews(data), cotRounds: cotFirstRounds(data.cot), longestRun: longestRun(data.cot)};
}

export const readHsiiFirstView = (tables: Tables<"hsii_first">): HsiiFirstView => decodeView<HsiiFirstView>(tables.hsii_first, "data/hsii-first-view.bin");
