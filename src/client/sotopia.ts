// Data for the SOTOPIA page: the statistics table (decoded directly) and the
// raters a reader can choose from (which one comes first is the library's
// defaultRater, shared with the CLI), and the page's glue around the library:
// dimension choices, (model, partner) groups, the Table 3 comparison, the
// SOTOPIA-hard sentence, words per turn. Formulas stay in src/lib/sotopia.ts.

import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import {
  hardSelectionNotes, OVERALL, pairwiseMatrix, wordsPerTurn,
  type HardBoundRule, type HardSelection, type PairCell, type SotopiaGroupRow, type SotopiaStatRow, type TaskInfo,
} from "../lib/sotopia.js";
import {compareText, distinctSorted, orderBy, type Row, type Tables} from "./tables.js";

export interface RaterInfo {
  rater: string;
  rater_kind: string;
  /** Instances (episode, agent, dimension) this rater scored on the seven dimensions, its runs on one counted once (overall rows not counted). */
  instances: number;
}

export interface SotopiaData {
  /** Sums per (rater, model, partner, dimension), over tasks: every view but SOTOPIA-hard. */
  rows: SotopiaGroupRow[];
  /** LLM raters first, then the mean of human annotators, then by number of scores, most first. */
  raters: RaterInfo[];
  /** Every model with a score from any rater, in name order. */
  models: string[];
}

/** The first-view tables (data/sotopia-first-view.bin): the statistics summed over tasks. */
export type SotopiaTables = Tables<"sotopia_groups">;

/**
 * The statistics rows, raters and models: what the page's SQL gave before it
 * drew from decoded tables (the raters in the order of
 * `ORDER BY rater_kind = 'llm' DESC, rater_kind = 'human_mean' DESC, instances DESC, rater`).
 */
export function sotopiaData(tables: SotopiaTables): SotopiaData {
  const rows = tables.sotopia_groups as unknown as SotopiaGroupRow[];
  const byRater = new Map<string, {rater: string; rater_kind: string; instances: number | null}>();
  for (const r of rows) {
    let info = byRater.get(r.rater);
    if (!info) byRater.set(r.rater, (info = {rater: r.rater, rater_kind: r.rater_kind, instances: null}));
    // sum(n) FILTER (WHERE dimension <> 'overall'): null when the rater has only overall rows.
    if (r.dimension !== OVERALL) info.instances = (info.instances ?? 0) + r.n;
  }
  const rank = (kind: string) => (kind === "llm" ? 0 : kind === HUMAN_MEAN_KIND ? 1 : 2);
  const raters = Array.from(byRater.values()).sort((a, b) =>
    rank(a.rater_kind) - rank(b.rater_kind) ||
    // instances DESC, NULLs last
    (a.instances === null || b.instances === null ? Number(a.instances === null) - Number(b.instances === null) : b.instances - a.instances) ||
    compareText(a.rater, b.rater));
  const models = distinctSorted(rows, "model");
  return {rows, raters: raters.map((r) => ({...r, instances: r.instances ?? 0})), models};
}

/** SOTOPIA-hard's tables (data/sotopia-by-task.bin, fetched after the first chart): per-task statistics and task names. */
export type SotopiaTaskTables = Tables<"sotopia_stats" | "sotopia_tasks">;

export interface SotopiaTaskData {
  /** Statistics per (rater, task, model, partner, dimension). */
  rows: SotopiaStatRow[];
  /** Codename and characters per task id. */
  tasks: Map<string, TaskInfo>;
}

/** The per-task statistics and the tasks' names by id. */
export function sotopiaTaskData(tables: SotopiaTaskTables): SotopiaTaskData {
  const tasks = tables.sotopia_tasks as unknown as TaskInfo[];
  return {rows: tables.sotopia_stats as unknown as SotopiaStatRow[], tasks: new Map(tasks.map((t) => [t.task_id, t]))};
}

/** The kind of the `humans` pseudo-rater: per instance, the mean over its human annotators (loaders/queries/sotopia.ts). */
export const HUMAN_MEAN_KIND = "human_mean";

/**
 * How a rater is named in the rater menu and in the sentence under the table,
 * with its instances (episode, agent, dimension): its runs on one instance are
 * averaged, so this is not the overview's number of scores.
 */
export function raterLabel(r: RaterInfo): string {
  const instances = `${r.instances.toLocaleString("en-US")} instance${r.instances === 1 ? "" : "s"}`;
  return r.rater_kind === HUMAN_MEAN_KIND
    ? `mean of human annotators (${r.rater}, ${instances})`
    : `${r.rater} (${r.rater_kind}, ${instances})`;
}

/** A dimension the page can show: one of the seven, or overall (the mean of the seven, on the mean of their ranges). */
export interface DimensionChoice {
  key: string;
  abbrev: string;
  name: string;
  lo: number;
  hi: number;
}

/** The seven SOTOPIA-EVAL dimensions and overall, whose range is the mean of theirs: [-30/7, 40/7]. */
export const DIMENSION_CHOICES: readonly DimensionChoice[] = [
  ...SOTOPIA_DIMENSIONS.map(({key, abbrev, name, lo, hi}) => ({key, abbrev, name, lo, hi})),
  {
    key: OVERALL,
    abbrev: "OVERALL",
    name: "Overall (mean of the seven)",
    lo: SOTOPIA_DIMENSIONS.reduce((s, d) => s + d.lo, 0) / SOTOPIA_DIMENSIONS.length,
    hi: SOTOPIA_DIMENSIONS.reduce((s, d) => s + d.hi, 0) / SOTOPIA_DIMENSIONS.length,
  },
];

/** How a dimension is named in menus and sentences: "Goal completion (GOAL) [0, 10]". */
export function dimensionLabel(d: DimensionChoice): string {
  const r = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));
  return d.key === OVERALL ? `${d.name} [${r(d.lo)}, ${r(d.hi)}]` : `${d.name} (${d.abbrev}) [${r(d.lo)}, ${r(d.hi)}]`;
}

/** A (model, partner model) group of the pairwise matrix. */
export interface GroupKey {
  model: string;
  partner: string;
}

/** The key a group is stored under in the comparison maps. */
export const groupKey = (g: GroupKey): string => `${g.model}\u0000${g.partner}`;

/**
 * The (model, partner) groups one rater scored, for the chosen models, on any
 * dimension: the rows of the Table 3 comparison and the reference menu.
 */
export function pairGroups(rows: readonly SotopiaGroupRow[], {rater, models}: {rater: string; models: readonly string[]}): GroupKey[] {
  const keep = new Set(models);
  const groups = new Map<string, GroupKey>();
  for (const r of rows) {
    if (r.rater !== rater || !keep.has(r.model)) continue;
    const g = {model: r.model, partner: r.partner};
    groups.set(groupKey(g), g);
  }
  return [...groups.values()].sort((a, b) => a.model.localeCompare(b.model) || a.partner.localeCompare(b.partner));
}

/** The reference group shown first: the first group played by humans (SOTOPIA Table 3 compares models with humans), else the first. */
export function defaultReference(groups: readonly GroupKey[]): GroupKey | null {
  return groups.find((g) => g.model === "human") ?? groups[0] ?? null;
}

/** Heatmap axes: the chosen models as rows; as columns, the partners they met, chosen models first. */
export function matrixAxes(cells: readonly PairCell[], models: readonly string[]): {rows: string[]; columns: string[]} {
  const rowsSeen = new Set(cells.map((c) => c.model));
  const partners = new Set(cells.map((c) => c.partner));
  const columns = [...models.filter((m) => partners.has(m)), ...[...partners].filter((p) => !models.includes(p)).sort()];
  return {rows: models.filter((m) => rowsSeen.has(m)), columns};
}

/** Which tasks SOTOPIA-hard kept for the page's choices, and the sentence that states those choices. */
export function hardSentence(
  selection: HardSelection,
  {rater, target, dimension, rule, n}: {rater: string; target: string; dimension: DimensionChoice; rule: HardBoundRule; n: number},
): string {
  const bound = rule === "max" ? "the highest of each model's mean + 3 sd" : "mean + 3 sd over all models' episodes pooled";
  const skipped = selection.skipped.length === 1 ? "1 task was" : `${selection.skipped.length} tasks were`;
  // The library's notes on fewer-than-N, saturation and ties, as sentences (the CLI prints the same notes).
  const notes = hardSelectionNotes(selection, {n, dimension}).map((s) => ` ${s[0]!.toUpperCase()}${s.slice(1)}.`).join("");
  return `Scores by ${rater}. SOTOPIA-hard for target model ${target}: the ${n} hardest tasks by difficulty on ` +
    `${dimensionLabel(dimension)}, upper bound rule "${rule}" (${bound}); ${selection.tasks.length} task(s) selected. ` +
    `${skipped} skipped because the target, or ${rule === "max" ? "every model" : "the pooled episodes"}, had fewer than two scored episodes there.${notes}`;
}

export interface WordsPerTurnRow {
  model: string;
  /** Spoken utterances. */
  turns: number;
  words: number;
  /** wordsPerTurn of the row (SOTOPIA §7). */
  perTurn: number;
}

/** Words per turn by speaking model, in model order, from the decoded `words_per_turn` (data/words-per-turn.parquet). */
export function wordsPerTurnRows(table: readonly Row[]): WordsPerTurnRow[] {
  const rows = orderBy(table as unknown as {model: string; turns: number; words: number}[], ["model"]);
  return rows.map((r) => ({model: r.model, turns: r.turns, words: r.words, perTurn: wordsPerTurn(r)}));
}
