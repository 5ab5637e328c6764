// LIFELONG-SOTOPIA metrics (METRICS.md § LIFELONG-SOTOPIA): penalised BEL,
// curves over the chain, and the validation of checkpoint labels.

import {CHECKPOINT_SETS} from "./dimensions.js";
import {meanOf, moments, sdOf, type Moments, type VarianceKind} from "./stats.js";

/** Points a failed checkpoint costs (Eq. 1). */
export const BELEXT_PENALTY = 5;

/** Penalised BEL, Eq. 1: max(BEL − 5 × failed checkpoints, 0). */
export function penalisedBel(bel: number, failedCheckpoints: number): number {
  if (!Number.isInteger(failedCheckpoints) || failedCheckpoints < 0) throw new Error(`failed checkpoints must be a count, got ${failedCheckpoints}`);
  return Math.max(bel - BELEXT_PENALTY * failedCheckpoints, 0);
}

/** How wide a curve's band is: ± one sd, or a 95% confidence interval of the mean (t with n − 1 df). */
export type BandKind = "sd" | "ci95";

export interface CurvePoint {
  n: number;
  mean: number;
  low: number;
  high: number;
}

/** The t quantile function a 95% band needs (t-quantile.ts); passed in so that sd bands load no distribution functions. */
export type TQuantile = (p: number, df: number) => number;

/** A curve's point at one chain index, from the moments of the scores there. Bands are NaN where undefined (n < 2). */
export function curvePoint(m: Moments, band: BandKind = "sd", variance: VarianceKind = "sample", tQuantile?: TQuantile): CurvePoint {
  const mean = meanOf(m);
  const sd = sdOf(m, variance);
  if (band === "ci95" && !tQuantile) throw new Error("a 95% confidence band needs tQuantile (src/lib/t-quantile.ts)");
  const half = band === "sd" ? sd : tQuantile!(0.975, m.n - 1) * (sdOf(m, "sample") / Math.sqrt(m.n));
  return {n: m.n, mean, low: mean - half, high: mean + half};
}

/**
 * The class counted as positive. METRICS.md's default is `fail` (fails the
 * checkpoint); LIFELONG-SOTOPIA Table 1 counts `pass` as positive (TP + FP =
 * 50 in every row), so compare with Table 1 under `pass`.
 */
export type PositiveClass = "fail" | "pass";

export const POSITIVE_CLASS_NOTE: Record<PositiveClass, string> = {
  fail: "fails the checkpoint (label 0), METRICS.md's default; LIFELONG-SOTOPIA Table 1 counts passes as positive: choose pass to compare with it",
  pass: "passes the checkpoint (label 1), as LIFELONG-SOTOPIA Table 1 counts it (TP + FP = 50 in every row)",
};

/**
 * How one rater's several runs on a checkpoint make one binary label:
 * `majority` (default) the label most runs gave, a tie a split; `unanimous`
 * a label only when every run gave it, else a split. One run is its label
 * under both. A split has no class: it is counted apart, never averaged
 * into 0.5.
 */
export type LabelRuns = "majority" | "unanimous";

export const LABEL_RUNS_NOTE: Record<LabelRuns, string> = {
  majority: "a rater's runs on a checkpoint give the label most of them gave; a tie is a split",
  unanimous: "a rater's runs on a checkpoint give a label only when all agree; any disagreement is a split",
};

/** One binary label (1 = passes, 0 = fails) from a rater's runs and how many said passes, or null for a split. */
export function combineLabels(runs: number, passes: number, rule: LabelRuns = "majority"): 0 | 1 | null {
  if (!Number.isInteger(runs) || !Number.isInteger(passes) || runs < 1 || passes < 0 || passes > runs) throw new Error(`checkpoint labels: ${passes} passes out of ${runs} runs is not a count`);
  const fails = runs - passes;
  if (rule === "unanimous") return passes === runs ? 1 : fails === runs ? 0 : null;
  return passes > fails ? 1 : fails > passes ? 0 : null;
}

export interface ConfusionCells {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export interface Confusion extends ConfusionCells {
  /** Pairs where either side's runs split (combineLabels null): in no cell of the matrix. */
  split: number;
}

export interface Validation extends ConfusionCells {
  /** TP / (TP + FP); NaN ("n/a") when nothing was predicted positive. */
  precision: number;
  /** TP / (TP + FN); NaN when no item is positive. */
  recall: number;
  /** 2PR / (P + R); NaN when either is undefined or both are 0. */
  f1: number;
}

/**
 * Confusion counts of an LLM rater's checkpoint labels against a human's
 * (1 = passes, 0 = fails, null = the runs split), with `positive` the class
 * counted as positive (default: failing the checkpoint, METRICS.md §
 * LIFELONG-SOTOPIA). A split is counted in `split`; any other label is refused.
 */
export function confusion(pairs: readonly {llm: number | null; human: number | null}[], positive: PositiveClass = "fail"): Confusion {
  const pos = positive === "fail" ? 0 : 1;
  const c = {tp: 0, fp: 0, tn: 0, fn: 0, split: 0};
  for (const {llm, human} of pairs) {
    for (const label of [llm, human]) {
      if (label !== null && label !== 0 && label !== 1) throw new Error(`a checkpoint label is 0 (fails) or 1 (passes), not ${label}`);
    }
    if (llm === null || human === null) c.split++;
    else if (llm === pos && human === pos) c.tp++;
    else if (llm === pos) c.fp++;
    else if (human === pos) c.fn++;
    else c.tn++;
  }
  return c;
}

/** Precision, recall and F1 from confusion counts (LIFELONG-SOTOPIA Table 1). */
export function validation<C extends ConfusionCells>(c: C): C & Validation {
  const precision = c.tp + c.fp > 0 ? c.tp / (c.tp + c.fp) : NaN;
  const recall = c.tp + c.fn > 0 ? c.tp / (c.tp + c.fn) : NaN;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : NaN;
  return {...c, precision, recall, f1};
}

/** One row of CHECKPOINT_PAIRS_SQL: an LLM rater's and a human's runs on one (episode, agent, checkpoint), as counts. */
export interface CheckpointPair {
  episode_id: string;
  agent: number;
  dimension: string;
  llm_rater: string;
  human_rater: string;
  llm_runs: number;
  llm_passes: number;
  human_runs: number;
  human_passes: number;
}

/** Table 1's counts per checkpoint (in the pairs' order) for one LLM rater: each side's runs made one label by `labelRuns`. */
export function checkpointValidation(pairs: readonly CheckpointPair[], {rater, positive = "fail", labelRuns = "majority"}: {rater: string; positive?: PositiveClass; labelRuns?: LabelRuns}):
  (Confusion & Validation & {dimension: string; n: number})[] {
  const byCheckpoint = new Map<string, {llm: 0 | 1 | null; human: 0 | 1 | null}[]>();
  for (const p of pairs) {
    if (p.llm_rater !== rater) continue;
    const pair = {llm: combineLabels(p.llm_runs, p.llm_passes, labelRuns), human: combineLabels(p.human_runs, p.human_passes, labelRuns)};
    const list = byCheckpoint.get(p.dimension);
    if (list) list.push(pair);
    else byCheckpoint.set(p.dimension, [pair]);
  }
  return [...byCheckpoint.entries()].map(([dimension, list]) => ({dimension, n: list.length, ...validation(confusion(list, positive))}));
}

/** Mean ± sd as Appendix G Table 2 prints it, saying which sd. */
export function meanSd(m: Moments, variance: VarianceKind = "sample"): {n: number; mean: number; sd: number; variance: VarianceKind} {
  return {n: m.n, mean: meanOf(m), sd: sdOf(m, variance), variance};
}

/** One agent's scores in one episode by one rater, as LIFELONG_INSTANCES_SQL ships them. */
export interface LifelongInstance {
  episode_id: string;
  agent: number;
  model: string;
  memory_mode: string;
  chain_id: string;
  chain_index: number;
  harder: boolean;
  checkpoint_set: string;
  rater: string;
  rater_kind: string;
  /** The rater's runs combined into this instance (each instance counts once, as in SOTOPIA). */
  runs: number;
  /** Means over the rater's runs. */
  bel: number | null;
  goal: number | null;
  /** The most checkpoint labels one run gave, and the mean failures per run. */
  checkpoints: number;
  failed: number;
  /** Eq. 1 per run with a full eight-label checklist, averaged over those runs; null with none. */
  penalised_bel: number | null;
  /** Mean BEL of the same runs as penalised_bel (null when it is null): raw BEL of exactly what was penalised. */
  bel_checklisted: number | null;
  logged_bel_extended: number | null;
}

/** Penalised BEL of an instance (the mean of its runs' Eq. 1), or null without a BEL and a full eight-label checklist. */
export const instancePenalisedBel = (i: LifelongInstance): number | null => i.penalised_bel;

export interface CurveRow {
  model: string;
  memory_mode: string;
  chain_index: number;
  harder: boolean;
  /** The rater's runs behind the point's n instances (n when each was judged once). */
  runs: number;
  bel: CurvePoint;
  goal: CurvePoint;
  penalised: CurvePoint;
  /** BEL of the instances (and runs) behind `penalised` only, to set beside it: `bel` covers every instance with a BEL. */
  bel_checklisted: CurvePoint;
}

/** BEL, GOAL and penalised BEL per (model, memory mode, chain index), with bands (LIFELONG-SOTOPIA Figures 3, 4). */
export function curves(
  instances: readonly LifelongInstance[],
  {rater, band = "sd", variance = "sample", tQuantile}: {rater: string; band?: BandKind; variance?: VarianceKind; tQuantile?: TQuantile},
): CurveRow[] {
  const groups = new Map<string, {model: string; memory_mode: string; chain_index: number; harder: boolean; runs: number; bel: number[]; goal: number[]; penalised: number[]; checklisted: number[]}>();
  for (const i of instances) {
    if (i.rater !== rater) continue;
    const key = `${i.model}\u0000${i.memory_mode}\u0000${i.chain_index}`;
    const g = groups.get(key) ?? {model: i.model, memory_mode: i.memory_mode, chain_index: i.chain_index, harder: false, runs: 0, bel: [], goal: [], penalised: [], checklisted: []};
    g.harder ||= i.harder;
    g.runs += i.runs;
    if (i.bel !== null) g.bel.push(i.bel);
    if (i.goal !== null) g.goal.push(i.goal);
    const p = instancePenalisedBel(i);
    if (p !== null) g.penalised.push(p);
    if (i.bel_checklisted !== null) g.checklisted.push(i.bel_checklisted);
    groups.set(key, g);
  }
  const point = (values: number[]) => curvePoint(moments(values), band, variance, tQuantile);
  return [...groups.values()]
    .map((g) => ({model: g.model, memory_mode: g.memory_mode, chain_index: g.chain_index, harder: g.harder, runs: g.runs, bel: point(g.bel), goal: point(g.goal), penalised: point(g.penalised), bel_checklisted: point(g.checklisted)}))
    .sort((a, b) => a.model.localeCompare(b.model) || a.memory_mode.localeCompare(b.memory_mode) || a.chain_index - b.chain_index);
}

/** The first chain index of the harder scenarios, per (model, memory mode): where the curves get their vertical rule. */
export function harderStarts(instances: readonly LifelongInstance[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const i of instances) {
    if (!i.harder) continue;
    const key = `${i.model}\u0000${i.memory_mode}`;
    out.set(key, Math.min(out.get(key) ?? Infinity, i.chain_index));
  }
  return out;
}

/** One row of CHECKPOINT_FAILURES_SQL (data/lifelong-rows.bin on the page). */
export interface CheckpointFailures {
  dimension: string;
  rater: string;
  model: string;
  memory_mode: string;
  chain_index: number;
  /** Agent-episodes (episode, agent) the rater labelled on this checkpoint. */
  n: number;
  /** The rater's runs combined into them. */
  runs: number;
  /** Σ over the agent-episodes of the share of their runs that failed. */
  failed: number;
}

/** A checklist by name, and how the page names one of its checkpoints. */
export function checkpointInfo(dimension: string): {set: string; key: string; label: string; paper: boolean} {
  const [, set = "?", key = dimension] = dimension.split(":");
  const list = CHECKPOINT_SETS.find((s) => s.name === set);
  const found = list?.checkpoints.find((c) => c.key === key);
  // The sonzai-python checklist keeps its own names, shown as they are.
  const label = set === "paper" && found ? `${found.label} (${key})` : key;
  return {set, key, label, paper: set === "paper"};
}

/**
 * Failure rate per (checkpoint, memory mode, window of chain indices) for one
 * rater, pooled over the chosen models: the mean over the window's
 * agent-episodes of each one's share of runs that failed (Σ failed / Σ n of
 * CHECKPOINT_FAILURES_SQL's rows), so a rater's several runs of one
 * agent-episode count once, as on the curves. Windows of `window` indices
 * start at 1 (1–5, 6–10, … for 5); a window of 1 is one index.
 */
export function failureRates(failures: readonly CheckpointFailures[], {rater, model, window = 1}: {rater: string; model: string | null; window?: number}):
  {dimension: string; checklist: string; checkpoint: string; memory_mode: string; from: number; to: number; n: number; runs: number; failed: number; rate: number}[] {
  if (!(Number.isInteger(window) && window >= 1)) throw new Error(`a window needs a whole number of chain indices ≥ 1, got ${window}`);
  const groups = new Map<string, {dimension: string; memory_mode: string; from: number; to: number; n: number; runs: number; failed: number}>();
  for (const f of failures) {
    if (f.rater !== rater || (model !== null && f.model !== model)) continue;
    const from = Math.floor((f.chain_index - 1) / window) * window + 1;
    const key = `${f.dimension}\u0000${f.memory_mode}\u0000${from}`;
    const g = groups.get(key) ?? {dimension: f.dimension, memory_mode: f.memory_mode, from, to: f.chain_index, n: 0, runs: 0, failed: 0};
    g.to = Math.max(g.to, f.chain_index);
    g.n += f.n;
    g.runs += f.runs;
    g.failed += f.failed;
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.dimension.localeCompare(b.dimension) || a.memory_mode.localeCompare(b.memory_mode) || a.from - b.from)
    .map((g) => {
      const info = checkpointInfo(g.dimension);
      return {...g, checklist: info.set, checkpoint: info.label, rate: g.n ? g.failed / g.n : NaN};
    });
}
