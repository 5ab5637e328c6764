// Data for the InformativeBench page: results, InfoNav plans, consensus steps
// and schedule inputs (decoded directly), and the page's glue around
// src/lib/informativebench.ts (which computes every number, as the CLI's
// `report informativebench`, `informativebench-ablations` and `infonav` do).

import {
  ablations, DEFAULT_IB_OPTIONS, goldChecks, infoNavBehaviour, infoNavWarnings, parseBaseSpec, schedulesFromRows, scoreRows, table3,
  type AblationRow, type ConsensusRow, type GoldCheck, type IbOptions, type IbResultRow, type IbScoredRow, type InfoNavRow, type PlanUpdateRow, type ScheduleRow,
  type StoredSchedule, type Table3,
} from "../lib/informativebench.js";
import {verifierLabel, type VerifierOptions} from "../lib/schedule.js";
import {decodeView, orderBy, type Tables} from "./tables.js";

export interface IbData {
  results: IbResultRow[];
  updates: PlanUpdateRow[];
  consensus: ConsensusRow[];
  schedules: ScheduleRow[];
  /** The schedules rebuilt from their rows, by scheduleKey. */
  stored: Map<string, StoredSchedule>;
  models: string[];
  /** Backends whose records carry an InfoNav trajectory. */
  trajectoryModels: string[];
}

/** The page's data from its decoded tables, in the order the SQL path gave them. */
export function informativeBenchData(tables: Tables<"ib_results" | "ib_plans" | "ib_consensus" | "ib_schedules">): IbData {
  const results = orderBy(tables.ib_results as unknown as IbResultRow[], ["model", "dataset", "question_id", "episode_id"]);
  const updates = orderBy(tables.ib_plans as unknown as PlanUpdateRow[], ["episode_id", "plan", "update_index"]);
  const consensus = orderBy(tables.ib_consensus as unknown as ConsensusRow[], ["episode_id", "plan"]);
  const schedules = tables.ib_schedules as unknown as ScheduleRow[];
  const withPlans = new Set(updates.map((u) => u.episode_id));
  const models = [...new Set(results.map((r) => r.model))].sort();
  const trajectoryModels = models.filter((m) => results.some((r) => r.model === m && withPlans.has(r.episode_id)));
  return {results, updates, consensus, schedules, stored: schedulesFromRows(schedules), models, trajectoryModels};
}

export interface IbView {
  scored: IbScoredRow[];
  table: Table3;
  ablations: AblationRow[];
  gold: {checks: GoldCheck[]; unchecked: number};
}

/** Everything the page shows for a set of options, computed by the library. */
export function ibView(data: IbData, o: IbOptions): IbView {
  const scored = scoreRows(data.results, {match: o.match, schedules: data.stored});
  const base = parseBaseSpec(o.base);
  return {scored, table: table3(scored, {settings: o.settings, base}), ablations: ablations(scored, {base}), gold: goldChecks(data.results, data.stored, o.verifier)};
}

/** Table 4 for the records of `models` (all when empty), and what the reader should know about the trajectories. */
export function infoNavView(data: IbData, scored: readonly IbScoredRow[], o: IbOptions, models: readonly string[]): {rows: InfoNavRow[]; warnings: string[]} {
  const chosen = models.length ? scored.filter((r) => models.includes(r.model)) : scored;
  return {rows: infoNavBehaviour(chosen, data.updates, data.consensus, o), warnings: infoNavWarnings(chosen, data.updates)};
}

/** The sentence about gold answers checked by the verifier, naming the verifier's options when given. */
export function goldSentence(gold: {checks: GoldCheck[]; unchecked: number}, verifier?: VerifierOptions): string {
  const wrong = gold.checks.filter((c) => !c.agrees);
  if (!gold.checks.length && !gold.unchecked) return "No schedule question in the results.";
  return `Gold answers checked by the schedule verifier${verifier ? ` (${verifierLabel(verifier)})` : ""}: ${gold.checks.length - wrong.length} of ${gold.checks.length} agree` +
    (gold.unchecked ? `; ${gold.unchecked} schedule question(s) have no schedule in the store to check against` : "") +
    (wrong.length ? `; disagreeing: ${wrong.slice(0, 10).map((w) => `${w.dataset} ${w.question_id} (log: ${w.logged}; verifier: ${w.verifier})`).join("; ")}` +
      `${wrong.length > 10 ? `; and ${wrong.length - 10} more` : ""}.` : ".");
}

/** The one-line reminder beside a scored table: the scoring options in force, in a few words (the full text is in Options in effect). */
export function scoringCaption({match, settings, base}: Pick<IbOptions, "match" | "settings" | "base">): string {
  return `Match ${match}; records: ${settings === "majority" ? `each dataset's base settings (base ${base})` : "every record"} (see Options in effect).`;
}

/** What the first view draws (informativebench-first-view.bin), bounded by models and datasets: Table 3 under the default options. */
export interface IbFirstView {
  results: number;
  schedules: number;
  options: IbOptions;
  table: Table3;
}

/** The first view from the page's data, computed at build time by the same functions the page runs (the page's inputs start at DEFAULT_IB_OPTIONS). */
export function ibFirstView(data: IbData): IbFirstView {
  return {results: data.results.length, schedules: data.schedules.length, options: DEFAULT_IB_OPTIONS, table: ibView(data, DEFAULT_IB_OPTIONS).table};
}

export const readIbFirstView = (tables: Tables<"ib_first">): IbFirstView => decodeView<IbFirstView>(tables.ib_first, "data/informativebench-first-view.bin");

/** Table 3 for `o` before the result rows have come: the first view's when they are its options, else null (still loading). */
export function ibTableBeforeRows(first: IbFirstView, o: Pick<IbOptions, "match" | "settings" | "base" | "verifier">): Table3 | null {
  const d = first.options;
  const same = d.match === o.match && d.settings === o.settings && d.base === o.base &&
    d.verifier.easy === o.verifier.easy && d.verifier.fixed === o.verifier.fixed;
  return same ? first.table : null;
}
