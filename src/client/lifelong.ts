// Data for the LIFELONG-SOTOPIA page: the instance rows, checkpoint pairs and
// failure counts (decoded directly), and the page's glue around
// src/lib/lifelong.ts (which computes every number, as the CLI's
// `report lifelong` and `report belext` do): rater choices, the options
// sentence, the index-range table and the logged-vs-own penalised BEL check.

import {CHECKPOINT_SETS} from "../lib/dimensions.js";
import {checkpointInfo, checkpointValidation, curvePoint, instancePenalisedBel, meanSd, type BandKind, type CheckpointPair, type Confusion, type CurveRow, type LabelRuns, type CheckpointFailures, type LifelongInstance, type PositiveClass, type TQuantile, type Validation} from "../lib/lifelong.js";
import {emptyMoments, moments, type Moments, type VarianceKind} from "../lib/stats.js";
import {decodeView, orderBy, type Tables} from "./tables.js";

/** One row of data/checkpoint-pairs.parquet. */
export type {CheckpointPair};

// The failure rates are the CLI's `report checkpoint-failures` too, so they live with the metrics.
export {checkpointInfo, failureRates, type CheckpointFailures} from "../lib/lifelong.js";

export interface LifelongData {
  instances: LifelongInstance[];
  pairs: CheckpointPair[];
  failures: CheckpointFailures[];
}

/** The three tables, in the order of the SQL that built them (the order the CLI sees). */
export function lifelongData(tables: Tables<"lifelong_instances" | "checkpoint_pairs" | "checkpoint_failures">): LifelongData {
  const instances = orderBy(tables.lifelong_instances as unknown as LifelongInstance[], ["model", "memory_mode", "chain_id", "chain_index", "agent", "rater"]);
  const pairs = orderBy(tables.checkpoint_pairs as unknown as CheckpointPair[], ["dimension", "episode_id", "agent"]);
  return {instances, pairs, failures: checkpointFailures(tables)};
}

/** The checkpoint failure counts in the SQL's order: bounded by checkpoints, raters, models, memory modes and chain indices. */
export const checkpointFailures = (tables: Tables<"checkpoint_failures">): CheckpointFailures[] =>
  orderBy(tables.checkpoint_failures as unknown as CheckpointFailures[], ["dimension", "rater", "model", "memory_mode", "chain_index"]);

const POSITIVE_CLASSES: readonly PositiveClass[] = ["fail", "pass"];
const LABEL_RUNS: readonly LabelRuns[] = ["majority", "unanimous"];
const validationKey = (validator: string, positive: PositiveClass, labelRuns: LabelRuns) => JSON.stringify([validator, positive, labelRuns]);

/**
 * What the sections after the curves read from the instance rows and
 * checkpoint pairs, for every rater, LLM rater and positive class, computed at
 * build time by the page's own functions (bounded by raters, checkpoint sets
 * and checkpoints): the page never fetches those rows (176k instances and 110k
 * pairs, 47 MB, at 100 times the samples), and a change of rater, validator or
 * positive class is a lookup.
 */
export interface LifelongRowViews {
  /** Per rater: the checkpoint sets it labelled (sorted), and its logged-vs-own penalised BEL check. */
  raters: Record<string, {sets: string[]; logged: {logged: number; differ: number; uncomputable: number}}>;
  /** LLM raters that label checkpoints beside a human, in row order. */
  validators: string[];
  /** Table 1 rows by validator, positive class and runs rule (validationKey). */
  validation: Record<string, ValidationRow[]>;
  /** Per validator: the human raters its labels are paired with, in row order. */
  humans: Record<string, string[]>;
}

/** Every rater's and validator's view from the page's data. */
export function lifelongRowViews(data: LifelongData): LifelongRowViews {
  const raters: LifelongRowViews["raters"] = {};
  for (const {rater} of lifelongRaters(data.instances).raters) {
    const sets = Array.from(new Set(data.instances.filter((i) => i.rater === rater && i.checkpoints > 0).map((i) => i.checkpoint_set))).sort();
    raters[rater] = {sets, logged: loggedBelCheck(data.instances, rater)};
  }
  const validators = validationRaters(data.pairs);
  const validation: Record<string, ValidationRow[]> = {};
  const humans: Record<string, string[]> = {};
  for (const validator of validators) {
    for (const positive of POSITIVE_CLASSES) {
      for (const labelRuns of LABEL_RUNS) validation[validationKey(validator, positive, labelRuns)] = validationRows(data.pairs, validator, positive, labelRuns);
    }
    humans[validator] = Array.from(new Set(data.pairs.filter((p) => p.llm_rater === validator).map((p) => p.human_rater)));
  }
  return {raters, validators, validation, humans};
}

/** Table 1 rows for a validator, positive class and runs rule; a choice the views lack is a stale build, said as such. */
export function validationLookup(views: LifelongRowViews, validator: string, positive: PositiveClass, labelRuns: LabelRuns = "majority"): ValidationRow[] {
  const rows = views.validation[validationKey(validator, positive, labelRuns)];
  if (!rows) throw new Error(`data/lifelong-rows.bin: no Table 1 for ${validator}, positive class ${positive}, runs ${labelRuns}; rebuild the site`);
  return rows;
}

export const readLifelongRowViews = (tables: Tables<"lifelong_views">): LifelongRowViews => decodeView<LifelongRowViews>(tables.lifelong_views, "data/lifelong-rows.bin");

/** One row of the first view's statistics (lifelongGroupsSql): one (rater, model, memory mode, chain index). */
export interface LifelongGroup {
  rater: string;
  model: string;
  memory_mode: string;
  chain_index: number;
  harder: boolean;
  /** The rater's runs combined into the group's instances. */
  runs: number;
  bel_n: number;
  bel_sum: number;
  bel_sum_sq: number;
  goal_n: number;
  goal_sum: number;
  goal_sum_sq: number;
  penalised_n: number;
  penalised_sum: number;
  penalised_sum_sq: number;
  /** BEL of the instances with a penalised BEL only. */
  bel_checklisted_n: number;
  bel_checklisted_sum: number;
  bel_checklisted_sum_sq: number;
}

export interface LifelongFirstView {
  groups: LifelongGroup[];
  /** As lifelongRaters gives them from the instance rows. */
  raters: {rater: string; kind: string; n: number}[];
  initial: string | undefined;
  /** The largest chain index of any rater (1 with none). */
  maxIndex: number;
}

/** The first view's tables (data/lifelong-first-view.bin): statistics per group and the raters in the instance rows' order. */
export function lifelongFirstView(tables: Tables<"lifelong_groups" | "lifelong_raters">): LifelongFirstView {
  const groups = orderBy(tables.lifelong_groups as unknown as LifelongGroup[], ["rater", "model", "memory_mode", "chain_index"]);
  // Already in the order the raters first appear in the instance rows (lifelongRatersSql).
  const list = tables.lifelong_raters as unknown as {rater: string; kind: string; n: number; llm_bel: boolean}[];
  const raters = list.map(({rater, kind, n}) => ({rater, kind, n}));
  const initial = list.find((r) => r.llm_bel)?.rater ?? list[0]?.rater;
  let maxIndex = 1;
  for (const g of groups) if (g.chain_index > maxIndex) maxIndex = g.chain_index;
  return {groups, raters, initial, maxIndex};
}

/**
 * The curves of one rater from the per-group statistics: the rows `curves`
 * (src/lib/lifelong.ts) computes from the instances, in the same order.
 */
export function curvesFromGroups(
  groups: readonly LifelongGroup[],
  {rater, band = "sd", variance = "sample", tQuantile}: {rater: string; band?: BandKind; variance?: VarianceKind; tQuantile?: TQuantile},
): CurveRow[] {
  const point = (m: Moments) => curvePoint(m, band, variance, tQuantile);
  return groups
    .filter((g) => g.rater === rater)
    .map((g) => ({
      model: g.model, memory_mode: g.memory_mode, chain_index: g.chain_index, harder: g.harder, runs: g.runs,
      bel: point({n: g.bel_n, sum: g.bel_sum, sumSq: g.bel_sum_sq}),
      goal: point({n: g.goal_n, sum: g.goal_sum, sumSq: g.goal_sum_sq}),
      penalised: point({n: g.penalised_n, sum: g.penalised_sum, sumSq: g.penalised_sum_sq}),
      bel_checklisted: point({n: g.bel_checklisted_n, sum: g.bel_checklisted_sum, sumSq: g.bel_checklisted_sum_sq}),
    }))
    .sort((a, b) => a.model.localeCompare(b.model) || a.memory_mode.localeCompare(b.memory_mode) || a.chain_index - b.chain_index);
}

/**
 * `tQuantile` with its values kept by (p, df): a 95% band asks for the same
 * few degrees of freedom over and over (810 calls for one rater at ×100 the
 * samples, each a bisection of about 45 Student t tails: 120–300 ms), and a
 * kept value is the same number the function gave.
 */
export function keptTQuantile(tQuantile: TQuantile): TQuantile {
  const kept = new Map<string, number>();
  return (p, df) => {
    const key = `${p}/${df}`;
    let q = kept.get(key);
    if (q === undefined) kept.set(key, (q = tQuantile(p, df)));
    return q;
  };
}

/** The degrees of freedom (n − 1) a 95% band needs over `groups`, each once, in first-seen order: what the page works out in idle time. */
export function bandDegrees(groups: readonly LifelongGroup[]): number[] {
  const seen = new Set<number>();
  for (const g of groups) for (const n of [g.bel_n, g.goal_n, g.penalised_n, g.bel_checklisted_n]) if (n >= 2) seen.add(n - 1);
  return Array.from(seen);
}

/**
 * Asks `tQuantile` (a keptTQuantile) for the two-sided 95% quantile
 * (curvePoint's p = 0.975) at each of `degrees` while the page is idle, a few
 * per idle period, so a later 95% band finds every value kept.
 */
export function keepInIdle(degrees: readonly number[], tQuantile: TQuantile): void {
  const idle: (work: (deadline: {timeRemaining(): number}) => void) => void = typeof requestIdleCallback === "function"
    ? (work) => requestIdleCallback(work)
    : (work) => setTimeout(() => work({timeRemaining: () => 0}), 0);
  let next = 0;
  const work = (deadline: {timeRemaining(): number}) => {
    do tQuantile(0.975, degrees[next++]!);
    while (next < degrees.length && deadline.timeRemaining() > 2);
    if (next < degrees.length) idle(work);
  };
  if (degrees.length) idle(work);
}

/** harderStarts (src/lib/lifelong.ts) of one rater's instances, from the per-group statistics. */
export function harderStartsFromGroups(groups: readonly LifelongGroup[], rater: string | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of groups) {
    if (g.rater !== rater || !g.harder) continue;
    const key = `${g.model}\u0000${g.memory_mode}`;
    out.set(key, Math.min(out.get(key) ?? Infinity, g.chain_index));
  }
  return out;
}

/** Raters in row order; the default is the CLI's: the first LLM rater with a BEL score. */
export function lifelongRaters(instances: readonly LifelongInstance[]): {raters: {rater: string; kind: string; n: number}[]; initial: string | undefined} {
  const raters = new Map<string, {rater: string; kind: string; n: number}>();
  for (const i of instances) {
    const r = raters.get(i.rater) ?? {rater: i.rater, kind: i.rater_kind, n: 0};
    r.n++;
    raters.set(i.rater, r);
  }
  const list = [...raters.values()];
  const initial = list.find((r) => instances.some((i) => i.rater === r.rater && i.rater_kind === "llm" && i.bel !== null))?.rater ?? list[0]?.rater;
  return {raters: list, initial};
}

export const BAND_LABELS: Record<BandKind, string> = {sd: "± one sd", ci95: "95% CI of the mean"};

/** The sentence that says which options produced the curves and tables. */
export function curveOptionsText(rater: string, band: BandKind, variance: VarianceKind): string {
  const b = band === "sd"
    ? `band ± one ${variance} sd`
    : "band: 95% confidence interval of the mean (Student's t, n − 1 df; uses the sample sd whatever the sd choice)";
  return `Rater: ${rater}; ${b}. Penalised BEL = max(BEL − 5 × failed checkpoints, 0) (Eq. 1), computed here from the rater's BEL and eight checkpoint labels; n/a without a full checklist. ` +
    "Each instance (episode, agent) counts once: a rater's several judging runs of it are averaged first (each run's penalised BEL too), as SOTOPIA does; the table gives the runs combined per point.";
}

/** What the page says about a checklist: the paper's, or another implementation's own list. */
export function checklistText(sets: readonly string[]): string {
  if (sets.length === 0) return "No checkpoint labels by this rater.";
  return sets.map((s) => {
    const info = CHECKPOINT_SETS.find((c) => c.name === s);
    if (s === "paper") return "checklist paper: the eight BELEXT checkpoints of LIFELONG-SOTOPIA §3.4";
    return `checklist ${s}: ${info?.description ?? "not a checklist the workbench knows"}; its checkpoint names are shown as the log gives them, not mapped to the paper's`;
  }).join("; ") + ".";
}

export interface ValidationRow extends Validation, Confusion {
  dimension: string;
  checklist: string;
  checkpoint: string;
  label: string;
  n: number;
}

/** LLM raters that label checkpoints beside a human, in row order (the CLI's default is the first). */
export const validationRaters = (pairs: readonly CheckpointPair[]): string[] => [...new Set(pairs.map((p) => p.llm_rater))];

/** Table 1 per checkpoint for one LLM rater, in the CLI's order. */
export function validationRows(pairs: readonly CheckpointPair[], rater: string, positive: PositiveClass, labelRuns: LabelRuns = "majority"): ValidationRow[] {
  return checkpointValidation(pairs, {rater, positive, labelRuns}).map((row) => {
    const info = checkpointInfo(row.dimension);
    return {...row, checklist: info.set, checkpoint: info.key, label: info.label};
  });
}

export interface RangeRow {
  model: string;
  memory_mode: string;
  bel: ReturnType<typeof meanSd>;
  goal: ReturnType<typeof meanSd>;
  penalised: ReturnType<typeof meanSd>;
}

/** Mean ± sd of BEL, GOAL and penalised BEL per (model, memory mode) over chain indices from..to (Appendix G Table 2). */
export function rangeTable(instances: readonly LifelongInstance[], {rater, from, to, variance}: {rater: string; from: number; to: number; variance: VarianceKind}): RangeRow[] {
  const groups = new Map<string, {model: string; memory_mode: string; bel: number[]; goal: number[]; penalised: number[]}>();
  for (const i of instances) {
    if (i.rater !== rater || i.chain_index < from || i.chain_index > to) continue;
    const key = `${i.model}\u0000${i.memory_mode}`;
    const g = groups.get(key) ?? {model: i.model, memory_mode: i.memory_mode, bel: [], goal: [], penalised: []};
    if (i.bel !== null) g.bel.push(i.bel);
    if (i.goal !== null) g.goal.push(i.goal);
    const p = instancePenalisedBel(i);
    if (p !== null) g.penalised.push(p);
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({model: g.model, memory_mode: g.memory_mode, bel: meanSd(moments(g.bel), variance), goal: meanSd(moments(g.goal), variance), penalised: meanSd(moments(g.penalised), variance)}))
    .sort((a, b) => a.model.localeCompare(b.model) || a.memory_mode.localeCompare(b.memory_mode));
}

/**
 * rangeTable from the first view's per-group statistics (counts, sums and sums
 * of squares per chain index, summed over the indices from..to): the same rows
 * with no instance read, so moving the range is a lookup at any store size.
 * Scores are whole numbers, so the sums are exact either way.
 */
export function rangeTableFromGroups(groups: readonly LifelongGroup[], {rater, from, to, variance}: {rater: string; from: number; to: number; variance: VarianceKind}): RangeRow[] {
  const sums = new Map<string, {model: string; memory_mode: string; bel: Moments; goal: Moments; penalised: Moments}>();
  const add = (m: Moments, n: number, sum: number, sumSq: number) => {
    m.n += n;
    m.sum += sum;
    m.sumSq += sumSq;
  };
  for (const g of groups) {
    if (g.rater !== rater || g.chain_index < from || g.chain_index > to) continue;
    const key = `${g.model}\u0000${g.memory_mode}`;
    let s = sums.get(key);
    if (!s) sums.set(key, (s = {model: g.model, memory_mode: g.memory_mode, bel: emptyMoments(), goal: emptyMoments(), penalised: emptyMoments()}));
    add(s.bel, g.bel_n, g.bel_sum, g.bel_sum_sq);
    add(s.goal, g.goal_n, g.goal_sum, g.goal_sum_sq);
    add(s.penalised, g.penalised_n, g.penalised_sum, g.penalised_sum_sq);
  }
  return Array.from(sums.values())
    .map((s) => ({model: s.model, memory_mode: s.memory_mode, bel: meanSd(s.bel, variance), goal: meanSd(s.goal, variance), penalised: meanSd(s.penalised, variance)}))
    .sort((a, b) => a.model.localeCompare(b.model) || a.memory_mode.localeCompare(b.memory_mode));
}

/** Instances whose log reports its own penalised BEL, and how many differ from the workbench's (Eq. 1 on the same rater's BEL and labels). */
export function loggedBelCheck(instances: readonly LifelongInstance[], rater: string): {logged: number; differ: number; uncomputable: number} {
  let logged = 0;
  let differ = 0;
  let uncomputable = 0;
  for (const i of instances) {
    if (i.rater !== rater || i.logged_bel_extended === null) continue;
    logged++;
    const own = instancePenalisedBel(i);
    if (own === null) uncomputable++;
    else if (Math.abs(own - i.logged_bel_extended) > 1e-9) differ++;
  }
  return {logged, differ, uncomputable};
}
