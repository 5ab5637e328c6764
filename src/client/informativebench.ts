// Data for the InformativeBench page: results, InfoNav plans, consensus steps
// and schedule inputs (decoded directly), and the page's glue around
// src/lib/informativebench.ts (which computes every number, as the CLI's
// `report informativebench`, `informativebench-ablations` and `infonav` do).

import {
  ablations, DEFAULT_IB_OPTIONS, goldChecks, infoNavBehaviour, infoNavWarnings, parseBaseSpec, schedulesFromRows, scoreRows, table3, varyingSettings,
  type AblationRow, type ConsensusRow, type GoldCheck, type IbOptions, type IbResultRow, type IbScoredRow, type IbSettingKey, type InfoNavRow, type MatchMode,
  type PlanUpdateRow, type ScheduleRow, type StoredSchedule, type Table3, type Table3Settings,
} from "../lib/informativebench.js";
import {verifierLabel, type EasyOverlap, type FixedRule, type VerifierOptions} from "../lib/schedule.js";
import {decodeView, orderBy, type Row, type Tables} from "./tables.js";

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
  const scored = scoreRows(data.results, {match: o.match, freeText: o.freeText, schedules: data.stored});
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
export function scoringCaption({match, freeText, settings, base}: Pick<IbOptions, "match" | "freeText" | "settings" | "base">): string {
  return `Match ${match}; ScheduleMedium F1 free text read as ${freeText}; records: ${settings === "majority" ? `each dataset's base settings (base ${base})` : "every record"} (see Options in effect).`;
}

/** The values of each page input that re-scores or re-pools records: the page offers these and only these (its radios). */
export const IB_CHOICES = {
  match: ["exact", "contains"],
  settings: ["majority", "all"],
  base: ["majority", "paper"],
  easy: ["pooled", "between"],
  fixed: ["sleep", "none"],
} as const satisfies {match: readonly MatchMode[]; settings: readonly Table3Settings[]; base: readonly string[]; easy: readonly EasyOverlap[]; fixed: readonly FixedRule[]};

type IbTableChoice = Pick<IbOptions, "match" | "settings" | "base">;
/** The keys of IbOptionViews' tables, ablations and gold checks. */
export const tableKey = (o: IbTableChoice) => `${o.match}/${o.settings}/${o.base}`;
export const ablationKey = (o: Pick<IbOptions, "match" | "base">) => `${o.match}/${o.base}`;
export const goldKey = (v: VerifierOptions) => `${v.easy}/${v.fixed}`;

/** InfoNav's own options at the page's defaults, and every backend chosen: the Table 4 the views hold per match. */
const isDefaultInfoNav = (o: Pick<IbOptions, "rightAt" | "average" | "perUpdate" | "fake">, models: readonly string[]) =>
  models.length === 0 && o.rightAt === DEFAULT_IB_OPTIONS.rightAt && o.average === DEFAULT_IB_OPTIONS.average &&
  o.perUpdate === DEFAULT_IB_OPTIONS.perUpdate && o.fake === DEFAULT_IB_OPTIONS.fake;

/**
 * What the page shows for every value of its scoring inputs, computed at build
 * time (bounded by models, datasets, settings combinations and schedule
 * questions): a change of match, records, base or verifier is a lookup, so no
 * input event re-scores the records (at ×100 the samples, 234k records took
 * 7–10 s to score on the main thread).
 */
export interface IbOptionViews {
  tables: Record<string, Table3>;
  ablations: Record<string, AblationRow[]>;
  gold: Record<string, {checks: GoldCheck[]; unchecked: number}>;
  /** Table 4 per match under InfoNav's default options, every backend. */
  infoNav: Record<string, {rows: InfoNavRow[]; warnings: string[]}>;
  /** The settings that vary among the records (the ablations' setting menu). */
  varying: IbSettingKey[];
  models: string[];
  trajectoryModels: string[];
}

/** Every option view from the page's data, by the library's own functions. */
export function ibOptionViews(data: IbData): IbOptionViews {
  const views: IbOptionViews = {tables: {}, ablations: {}, gold: {}, infoNav: {}, varying: varyingSettings(data.results), models: data.models, trajectoryModels: data.trajectoryModels};
  for (const match of IB_CHOICES.match) {
    const scored = scoreRows(data.results, {match, schedules: data.stored});
    for (const base of IB_CHOICES.base) {
      const spec = parseBaseSpec(base);
      for (const settings of IB_CHOICES.settings) views.tables[tableKey({match, settings, base})] = table3(scored, {settings, base: spec});
      views.ablations[ablationKey({match, base})] = ablations(scored, {base: spec});
    }
    views.infoNav[match] = infoNavView(data, scored, {...DEFAULT_IB_OPTIONS, match}, []);
  }
  for (const easy of IB_CHOICES.easy) {
    for (const fixed of IB_CHOICES.fixed) views.gold[goldKey({easy, fixed})] = goldChecks(data.results, data.stored, {easy, fixed});
  }
  return views;
}

/** The views for the page's scoring inputs; a value the page does not offer is a bug, said as such. */
export function ibLookup(views: IbOptionViews, o: Pick<IbOptions, "match" | "settings" | "base" | "verifier">): Pick<IbView, "table" | "ablations" | "gold"> {
  const table = views.tables[tableKey(o)], shown = views.ablations[ablationKey(o)], gold = views.gold[goldKey(o.verifier)];
  if (!table || !shown || !gold) throw new Error(`data/informativebench-first-view.bin: no view for match ${o.match}, records ${o.settings}, base ${o.base}, verifier ${goldKey(o.verifier)}; rebuild the site`);
  return {table, ablations: shown, gold};
}

/** Table 4 from the views when InfoNav's options are the defaults and no backend is picked; else null (computed from the records). */
export function infoNavLookup(views: IbOptionViews, o: Pick<IbOptions, "match" | "rightAt" | "average" | "perUpdate" | "fake">, models: readonly string[]): {rows: InfoNavRow[]; warnings: string[]} | null {
  return isDefaultInfoNav(o, models) ? views.infoNav[o.match] ?? null : null;
}

/**
 * Each record's score and problem under both matches, in the order of
 * IbData.results, computed at build time (informativebench-rows.bin) so the
 * page's question list and its InfoNav table never score on an input event.
 */
export interface IbRecordScores {
  score_exact: number[];
  problem_exact: (string | null)[];
  score_contains: number[];
  problem_contains: (string | null)[];
}

/** Records scored at a time by recordScores: each scored record is a copy of its row, so scoring all at once held a second copy of every record. */
const SCORE_CHUNK = 10_000;

/** The scores of every record of `data` under both matches. */
export function recordScores(data: IbData): IbRecordScores {
  const out: IbRecordScores = {score_exact: [], problem_exact: [], score_contains: [], problem_contains: []};
  for (const match of IB_CHOICES.match) {
    const scores = out[`score_${match}`], problems = out[`problem_${match}`];
    for (let start = 0; start < data.results.length; start += SCORE_CHUNK) {
      for (const r of scoreRows(data.results.slice(start, start + SCORE_CHUNK), {match, schedules: data.stored})) {
        scores.push(r.score);
        problems.push(r.problem);
      }
    }
  }
  return out;
}

/** The scored records per match from the shipped scores, checked against the records they belong to. */
export function scoredByMatch(data: IbData, scores: readonly Row[]): Record<MatchMode, IbScoredRow[]> {
  if (scores.length !== data.results.length) {
    throw new Error(`data/informativebench-rows.bin: ${scores.length} score rows for ${data.results.length} records; rebuild the site`);
  }
  const byMatch = {exact: [] as IbScoredRow[], contains: [] as IbScoredRow[]};
  data.results.forEach((r, i) => {
    const s = scores[i]!;
    byMatch.exact.push({...r, score: s.score_exact as number, problem: s.problem_exact as string | null});
    byMatch.contains.push({...r, score: s.score_contains as number, problem: s.problem_contains as string | null});
  });
  return byMatch;
}

/** What the first view draws (informativebench-first-view.bin), bounded by models and datasets: Table 3 under the default options. */
export interface IbFirstView {
  results: number;
  schedules: number;
  options: IbOptions;
  table: Table3;
  views: IbOptionViews;
}

/** The first view from the page's data, computed at build time by the same functions the page runs (the page's inputs start at DEFAULT_IB_OPTIONS). */
export function ibFirstView(data: IbData): IbFirstView {
  const views = ibOptionViews(data);
  return {results: data.results.length, schedules: data.schedules.length, options: DEFAULT_IB_OPTIONS, table: ibLookup(views, DEFAULT_IB_OPTIONS).table, views};
}

export const readIbFirstView = (tables: Tables<"ib_first">): IbFirstView => decodeView<IbFirstView>(tables.ib_first, "data/informativebench-first-view.bin");
