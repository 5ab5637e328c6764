// SOTOPIA-EVAL metrics (METRICS.md § SOTOPIA-EVAL). Pure functions over
// per-group sufficient statistics, so pages, the CLI and tests share them.

import {SOTOPIA_DIMENSIONS, type Dimension} from "./dimensions.js";
import {combineMoments, extremes, meanOf, sdOf, type Moments} from "./stats.js";

/** The pseudo-dimension holding each instance's overall score. */
export const OVERALL = "overall";

/** Overall score of one agent in one episode: plain mean of the seven dimensions (METRICS.md § SOTOPIA-EVAL). */
export function overallScore(scores: Readonly<Record<string, number>>): number {
  let sum = 0;
  for (const d of SOTOPIA_DIMENSIONS) {
    const v = scores[d.key];
    if (v === undefined) throw new Error(`overall needs all seven dimensions; ${d.key} is missing`);
    sum += v;
  }
  return sum / SOTOPIA_DIMENSIONS.length;
}

/**
 * One row of the SOTOPIA statistics table: the moments of one rater's scores on
 * one dimension for one model playing one task against one partner model. `dimension`
 * is one of the seven keys or `overall` (instances with all seven scored).
 */
export interface SotopiaStatRow {
  rater: string;
  rater_kind: string;
  /** Scenario and character pair (SOTOPIA §7's task). */
  task_id: string;
  model: string;
  partner: string;
  dimension: string;
  n: number;
  sum: number;
  sum_sq: number;
}

export interface ModelAggregate {
  model: string;
  dimension: string;
  n: number;
  mean: number;
  sd: number;
  moments: Moments;
}

/**
 * A statistics row with or without its task: the per-task rows, or their sums
 * over tasks (one row per rater, model, partner and dimension). Means, the
 * matrix and the default rater are the same from either; a task filter keeps
 * only rows that name a chosen task.
 */
export type SotopiaGroupRow = Omit<SotopiaStatRow, "task_id"> & {task_id?: string};

const inTasks = (r: SotopiaGroupRow, tasks: ReadonlySet<string> | undefined): boolean =>
  !tasks || (r.task_id !== undefined && tasks.has(r.task_id));

const toMoments = (r: SotopiaGroupRow): Moments => ({n: r.n, sum: r.sum, sumSq: r.sum_sq});

/**
 * Model aggregates (SOTOPIA Table 2): a model's mean on each dimension over all
 * episodes it played, whatever its partner and seat, by one rater. Rows are
 * ordered by model, then by the paper's dimension order with overall last.
 */
export function modelAggregates(
  rows: readonly SotopiaGroupRow[],
  {rater, models, tasks}: {rater: string; models?: readonly string[]; tasks?: ReadonlySet<string>},
): ModelAggregate[] {
  const groups = new Map<string, {model: string; dimension: string; parts: Moments[]}>();
  const keep = models ? new Set(models) : null;
  for (const r of rows) {
    if (r.rater !== rater || (keep && !keep.has(r.model)) || !inTasks(r, tasks)) continue;
    const key = `${r.model}\u0000${r.dimension}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = {model: r.model, dimension: r.dimension, parts: []}));
    g.parts.push(toMoments(r));
  }
  const order = new Map<string, number>([...SOTOPIA_DIMENSIONS.map((d, i) => [d.key, i] as const), [OVERALL, 99]]);
  return [...groups.values()]
    .map(({model, dimension, parts}) => {
      const m = combineMoments(parts);
      return {model, dimension, n: m.n, mean: meanOf(m), sd: sdOf(m), moments: m};
    })
    .sort((a, b) => a.model.localeCompare(b.model) || (order.get(a.dimension) ?? 50) - (order.get(b.dimension) ?? 50));
}

/** The rater a SOTOPIA view shows first: the LLM rater with the most scores, else any rater with the most. */
export function defaultRater(rows: readonly SotopiaGroupRow[]): string | undefined {
  const totals = new Map<string, {n: number; llm: boolean}>();
  for (const r of rows) {
    const t = totals.get(r.rater) ?? {n: 0, llm: r.rater_kind === "llm"};
    t.n += r.n;
    totals.set(r.rater, t);
  }
  return [...totals.entries()].sort((a, b) => Number(b[1].llm) - Number(a[1].llm) || b[1].n - a[1].n || a[0].localeCompare(b[0]))[0]?.[0];
}

export interface PairCell {
  model: string;
  partner: string;
  n: number;
  mean: number;
  moments: Moments;
}

/** Mean of a model's scores grouped by (model, partner model), one rater and dimension (SOTOPIA Figure 3 / G.4, Table 3). */
export function pairwiseMatrix(rows: readonly SotopiaGroupRow[], {rater, dimension, tasks}: {rater: string; dimension: string; tasks?: ReadonlySet<string>}): PairCell[] {
  const cells = new Map<string, {model: string; partner: string; parts: Moments[]}>();
  for (const r of rows) {
    if (r.rater !== rater || r.dimension !== dimension || !inTasks(r, tasks)) continue;
    const key = `${r.model}\u0000${r.partner}`;
    const c = cells.get(key) ?? {model: r.model, partner: r.partner, parts: []};
    c.parts.push(toMoments(r));
    cells.set(key, c);
  }
  return [...cells.values()]
    .map(({model, partner, parts}) => {
      const m = combineMoments(parts);
      return {model, partner, n: m.n, mean: meanOf(m), moments: m};
    })
    .sort((a, b) => a.model.localeCompare(b.model) || a.partner.localeCompare(b.partner));
}

/** How the highest reward of a task is estimated (METRICS.md § SOTOPIA-hard). */
export type HardBoundRule = "max" | "pooled";

export interface HardTask {
  task_id: string;
  /** clamp(upper) − clamp(mean_target − 3·sd_target). */
  difficulty: number;
  upper: number;
  lower: number;
  targetMean: number;
  targetN: number;
}

export interface HardSelection {
  tasks: HardTask[];
  /** Tasks left out because the target, or every model, had fewer than two episodes there (no sd). */
  skipped: string[];
  /** Tasks with a difficulty: the N hardest of them are `tasks` (all of them when fewer than N). */
  eligible: number;
  /** The largest difficulty there can be: the whole range, hi − lo. */
  bound: number;
  /** Eligible tasks whose difficulty is the bound (upper clamped to hi, the target's lower end to lo): their order is by task id alone. */
  saturated: number;
  /** When the cut at N falls inside a run of equal difficulties: that difficulty, and how many such tasks were left out. */
  tieAtCut: {difficulty: number; selected: number; left: number} | null;
}

/** How a task is named beside its id: the scenario's codename and the characters, in the order of the id. */
export interface TaskInfo {
  task_id: string;
  codename: string | null;
  characters: string | null;
}

/** "codename: Ana & Ben", falling back to whichever is known, else the task id. */
export function taskLabel(info: TaskInfo | undefined, taskId: string): string {
  if (!info || (!info.codename && !info.characters)) return taskId;
  return [info.codename, info.characters].filter(Boolean).join(": ");
}

/**
 * SOTOPIA-hard (§7): for each task, difficulty for the target model =
 * clamp(max over models of mean + 3·sd) − clamp(mean_target − 3·sd_target),
 * with clamp to the dimension's range and mean / sd (sample) over the task's
 * repeated episodes; `pooled` takes mean + 3·sd once over all models' episodes.
 * Under `max`, a model with fewer than two episodes on a task has no sd and does
 * not enter that task's max. The n hardest tasks are returned, hardest first.
 */
export function sotopiaHard(
  rows: readonly SotopiaStatRow[],
  {rater, target, dimension, rule = "max", n = 20}: {rater: string; target: string; dimension: Dimension; rule?: HardBoundRule; n?: number},
): HardSelection {
  const clamp = (v: number) => Math.min(dimension.hi, Math.max(dimension.lo, v));
  const byTask = new Map<string, Map<string, Moments[]>>();
  for (const r of rows) {
    if (r.rater !== rater || r.dimension !== dimension.key) continue;
    const models = byTask.get(r.task_id) ?? new Map<string, Moments[]>();
    const parts = models.get(r.model);
    if (parts) parts.push(toMoments(r));
    else models.set(r.model, [toMoments(r)]);
    byTask.set(r.task_id, models);
  }
  const tasks: HardTask[] = [];
  const skipped: string[] = [];
  for (const [task_id, models] of byTask) {
    const targetParts = models.get(target);
    if (!targetParts) continue;
    const t = combineMoments(targetParts);
    const perModel = [...models.values()].map((parts) => combineMoments(parts)).filter((m) => m.n >= 2);
    const pooled = combineMoments([...models.values()].flat());
    if (t.n < 2 || (rule === "max" ? !perModel.length : pooled.n < 2)) {
      skipped.push(task_id);
      continue;
    }
    const upperOf = (m: Moments) => meanOf(m) + 3 * sdOf(m);
    const upper = clamp(rule === "max" ? extremes(perModel.map(upperOf)).max : upperOf(pooled));
    const lower = clamp(meanOf(t) - 3 * sdOf(t));
    tasks.push({task_id, difficulty: upper - lower, upper, lower, targetMean: meanOf(t), targetN: t.n});
  }
  tasks.sort((a, b) => b.difficulty - a.difficulty || a.task_id.localeCompare(b.task_id));
  const bound = dimension.hi - dimension.lo;
  const selected = tasks.slice(0, n);
  const last = selected.at(-1);
  const left = last ? tasks.slice(n).filter((t) => t.difficulty === last.difficulty).length : 0;
  return {
    tasks: selected, skipped: skipped.sort(), eligible: tasks.length, bound,
    saturated: tasks.filter((t) => t.difficulty === bound).length,
    tieAtCut: last && left ? {difficulty: last.difficulty, selected: selected.filter((t) => t.difficulty === last.difficulty).length, left} : null,
  };
}

/**
 * What a reader needs to know about a SOTOPIA-hard selection beyond its list,
 * worded the same on the page and in the CLI: fewer qualifying tasks than N,
 * difficulties tied at the bound (saturated: their order is by task id only),
 * and a cut at N that splits a tie.
 */
export function hardSelectionNotes(s: HardSelection, {n, dimension}: {n: number; dimension: Pick<Dimension, "lo" | "hi">}): string[] {
  const notes: string[] = [];
  if (s.eligible < n) {
    const others = s.skipped.length ? `; the other ${s.skipped.length} lack two or more scored episodes (an sd needs two)` : "";
    notes.push(`only ${s.eligible} task(s) of the target have a difficulty${others}, so ${s.eligible} are selected, not ${n}`);
  }
  if (s.saturated > 0) {
    notes.push(`${s.saturated} task(s) tie at the bound: difficulty ${s.bound}, the whole range [${dimension.lo}, ${dimension.hi}] (upper bound clamped to ${dimension.hi}, ` +
      `the target's mean − 3 sd clamped to ${dimension.lo}); the 3 sd bounds saturate on so few episodes, and tied tasks are ordered by task id only`);
  }
  if (s.tieAtCut) {
    notes.push(`the cut at N = ${n} falls inside a tie: ${s.tieAtCut.selected} selected and ${s.tieAtCut.left} left out at difficulty ${+s.tieAtCut.difficulty.toFixed(3)} (by task id)`);
  }
  return notes;
}

/** Words per turn: mean whitespace-separated words in a speaker's utterances (SOTOPIA §7). */
export const wordsPerTurn = (r: {turns: number; words: number}): number => (r.turns > 0 ? r.words / r.turns : NaN);
