// InformativeBench metrics (METRICS.md § InformativeBench; iAgents §3, §5,
// Tables 2–5): which metric scores a dataset, Table 3 (datasets × backend
// models), ablations of any setting present in the logs (Figure 7, Table 5),
// InfoNav behaviour (Table 4), the denominators behind the paper's
// percentages, and gold answers checked against the schedule verifier.

import {denominatorCheck, commonDenominators, type DenominatorCheck, type DenominatorMatch} from "./audit.js";
import {answerItems, goldItems, goldNames, goldSpans, namesIn, normaliseAnswer, scheduleItems, scoreAnswer, type FreeText, type IbMetric, type MatchMode, type ScoreContext} from "./informativebench-answers.js";
import {DEFAULT_VERIFIER, EASY_TEXT, FIXED_TEXT, unionIntervals, verifySchedule, type Schedule, type ScheduleAnswer, type ScheduleLevel, type VerifierOptions} from "./schedule.js";
import type {Interval} from "./schedule-time.js";
import {extremes} from "./stats.js";

export type {FreeText, IbMetric, MatchMode, VerifierOptions};
export {DEFAULT_VERIFIER, EASY_TEXT, FIXED_TEXT};

// ---------------------------------------------------------------------------
// Datasets and their metrics (Table 2).

export interface IbDataset {
  name: string;
  metric: IbMetric;
  /** Other spellings accepted on import. */
  aliases: string[];
  /** The Schedule difficulty whose answer the verifier computes. */
  level: ScheduleLevel | null;
}

/** The paper's five datasets, in the column order of Table 3. */
export const IB_DATASETS: readonly IbDataset[] = [
  {name: "NP", metric: "precision", aliases: ["Needle in the Persona", "needle-in-the-persona"], level: null},
  {name: "FriendsTV", metric: "precision", aliases: ["Friends TV", "Friends"], level: null},
  {name: "ScheduleEasy", metric: "precision", aliases: ["Schedule Easy"], level: "easy"},
  {name: "ScheduleMedium", metric: "f1", aliases: ["Schedule Medium"], level: "medium"},
  {name: "ScheduleHard", metric: "iou", aliases: ["Schedule Hard"], level: "hard"},
];

export const IB_METRICS: readonly IbMetric[] = ["precision", "f1", "iou"];

export const METRIC_LABEL: Record<IbMetric, string> = {precision: "precision", f1: "F1", iou: "IoU"};

/** Spelling-insensitive key of a dataset name: "Schedule Easy", "schedule_easy" and "ScheduleEasy" are one. */
const datasetKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/** The known dataset a name stands for, if any. */
export function knownDataset(name: string): IbDataset | null {
  const key = datasetKey(name);
  return IB_DATASETS.find((d) => datasetKey(d.name) === key || d.aliases.some((a) => datasetKey(a) === key)) ?? null;
}

/** Why a dataset and metric do not resolve, and which of the two fields is at fault. */
export class DatasetError extends Error {
  constructor(readonly field: "dataset" | "metric", message: string) {
    super(message);
  }
}

/**
 * A record's dataset and metric: a known dataset (any spelling) takes its
 * Table 2 metric, and a declared metric must agree with it; any other name
 * needs a declared metric. Throws a DatasetError that says which.
 */
export function resolveDataset(name: string, declared: string | null): {dataset: string; metric: IbMetric; level: ScheduleLevel | null} {
  if (declared !== null && !IB_METRICS.includes(declared as IbMetric)) {
    throw new DatasetError("metric", `unknown metric ${JSON.stringify(declared)}; expected one of ${IB_METRICS.join(", ")}`);
  }
  const known = knownDataset(name);
  if (known) {
    if (declared !== null && declared !== known.metric) {
      throw new DatasetError("metric", `dataset ${known.name} is scored by ${known.metric} (iAgents Table 2), but the record declares ${declared}`);
    }
    return {dataset: known.name, metric: known.metric, level: known.level};
  }
  if (declared === null) {
    throw new DatasetError("dataset", `unknown dataset ${JSON.stringify(name)} has no metric: add "metric": "precision", "f1" or "iou" to the record (known datasets: ${IB_DATASETS.map((d) => d.name).join(", ")})`);
  }
  return {dataset: name, metric: declared as IbMetric, level: null};
}

/** Table 3's column order: the paper's datasets first, then others by name. */
export function datasetOrder(names: Iterable<string>): string[] {
  const rank = (n: string) => {
    const i = IB_DATASETS.findIndex((d) => d.name === n);
    return i < 0 ? IB_DATASETS.length : i;
  };
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

// ---------------------------------------------------------------------------
// Settings of a run (§4, §5.2, §5.4).

export const IB_SETTINGS = [
  {key: "infonav", label: "InfoNav"},
  {key: "distinct_memory", label: "distinct memory"},
  {key: "fuzzy_memory", label: "fuzzy memory"},
  {key: "recursive", label: "recursive communication"},
  {key: "anonymised", label: "anonymised names"},
  {key: "privacy_prompt", label: "privacy prompt"},
] as const;

export type IbSettingKey = (typeof IB_SETTINGS)[number]["key"];
export type IbSettings = Record<IbSettingKey, boolean>;

/** Settings when a record leaves them out: iAgents as run on NP and Schedule (InfoNav on, no memory, no recursion, real names, no privacy prompt). */
export const DEFAULT_SETTINGS: IbSettings = {infonav: true, distinct_memory: false, fuzzy_memory: false, recursive: false, anonymised: false, privacy_prompt: false};

/** One bit per setting, in IB_SETTINGS order: the identity of a settings combination. */
export const settingsKey = (s: IbSettings): string => IB_SETTINGS.map((x) => (s[x.key] ? "1" : "0")).join("");

const settingsOfKey = (key: string): IbSettings => Object.fromEntries(IB_SETTINGS.map((x, i) => [x.key, key[i] === "1"])) as IbSettings;

/** "InfoNav, distinct memory, fuzzy memory" (the settings that are on), or "no mechanism on". */
export function settingsLabel(s: IbSettings): string {
  const on = IB_SETTINGS.filter((x) => s[x.key]).map((x) => x.label);
  return on.length ? on.join(" + ") : "no setting on";
}

// ---------------------------------------------------------------------------
// Scored questions.

/** One row of loaders/queries/informativebench.ts IB_RESULTS_SQL: a (backend model, question, settings) record. */
export interface IbResultRow extends IbSettings {
  episode_id: string;
  model: string;
  dataset: string;
  metric: IbMetric;
  question_id: string;
  question: string;
  prediction: string | null;
  gold: string[];
  turns: number | null;
}

export interface IbScoredRow extends IbResultRow {
  score: number;
  problem: string | null;
}

export interface IbScoreOptions {
  match?: MatchMode;
  /** ScheduleMedium with a stored schedule only: free text that names no activity is an item (default) or commentary. */
  freeText?: FreeText;
  /** Schedules by scheduleKey: F1 reads activity names from them, IoU the day. */
  schedules?: ReadonlyMap<string, StoredSchedule>;
}

/** What scoring knows of a question from its stored schedule: the activity names and the day. */
function contextOf(r: IbResultRow, schedules: ReadonlyMap<string, StoredSchedule> | undefined): ScoreContext {
  const s = schedules?.get(scheduleKey(r.dataset, r.question_id));
  if (!s) return {};
  return {names: s.schedule.people.flatMap((p) => p.activities.map((a) => a.name)), day: s.schedule.day};
}

export const scoreRows = (rows: readonly IbResultRow[], {match = "exact", freeText = "items", schedules}: IbScoreOptions = {}): IbScoredRow[] =>
  rows.map((r) => ({...r, ...scoreAnswer(r.metric, r.prediction, r.gold, {match, freeText, context: contextOf(r, schedules)})}));

/**
 * Which records a Table 3 cell pools: `majority` (default) takes, per
 * dataset, the base settings combination (see BaseSpec); `all` pools every
 * record.
 */
export type Table3Settings = "majority" | "all";

/**
 * The settings iAgents reports its main results under (§4, §5.1): InfoNav on,
 * real names, no privacy prompt; FriendsTV with both memories and recursive
 * communication, NP and Schedule without ("we do not activate mixed memory …
 * the agent's ability to initiate new communication").
 */
export function paperBase(dataset: string): IbSettings {
  const friends = dataset === "FriendsTV";
  return {...DEFAULT_SETTINGS, distinct_memory: friends, fuzzy_memory: friends, recursive: friends};
}

/**
 * How each dataset's base settings are chosen (`--base`): `majority`
 * (default) the combination most records share, a tie going to the one
 * nearest the paper's base (fewest settings different), and said; `paper` the
 * paper's base (paperBase); or given: settings on joined by "+" ("none" for
 * none) for every dataset, or "DATASET=SETTINGS" entries separated by commas,
 * datasets not named falling back to majority.
 */
export type BaseSpec = {kind: "majority"} | {kind: "paper"} | {kind: "given"; all: string | null; byDataset: Map<string, string>};

const settingsKeyOfText = (text: string, what: string): string => {
  const t = text.trim();
  if (t === "none") return settingsKey({...DEFAULT_SETTINGS, infonav: false});
  const on = t.split("+").map((x) => x.trim());
  for (const k of on) {
    if (!IB_SETTINGS.some((x) => x.key === k)) throw new Error(`${what}: unknown setting ${JSON.stringify(k)}; settings: ${IB_SETTINGS.map((x) => x.key).join(", ")} (joined by +), or none`);
  }
  return IB_SETTINGS.map((x) => (on.includes(x.key) ? "1" : "0")).join("");
};

/** Reads a --base value; throws an Error that says what is wrong. */
export function parseBaseSpec(text: string): BaseSpec {
  const t = text.trim();
  if (t === "majority" || t === "") return {kind: "majority"};
  if (t === "paper") return {kind: "paper"};
  if (!t.includes("=")) return {kind: "given", all: settingsKeyOfText(t, "--base"), byDataset: new Map()};
  const byDataset = new Map<string, string>();
  for (const entry of t.split(",")) {
    const at = entry.indexOf("=");
    if (at < 0) throw new Error(`--base: expected DATASET=SETTINGS, got ${JSON.stringify(entry.trim())}`);
    const dataset = entry.slice(0, at).trim();
    byDataset.set(knownDataset(dataset)?.name ?? dataset, settingsKeyOfText(entry.slice(at + 1), `--base ${dataset}`));
  }
  return {kind: "given", all: null, byDataset};
}

export interface BaseChoice {
  /** The base settings combination (settingsKey). */
  key: string;
  /** How it was chosen, in words, for the page and the CLI notes. */
  how: string;
  /** Other combinations with as many records as the chosen one (majority only): a tie the reader should know of. */
  tiedWith: string[];
}

/** Settings that differ between two settings keys. */
const distance = (a: string, b: string) => [...a].filter((c, i) => c !== b[i]).length;

/** Per dataset, the base settings combination under a BaseSpec. */
export function baseSettings(rows: readonly IbResultRow[], spec: BaseSpec = {kind: "majority"}): Map<string, BaseChoice> {
  return baseChoices(settingsCounts(rows), spec);
}

/** Records per dataset and settings combination (settingsKey): all that baseSettings reads of the records. */
export function settingsCounts(rows: Iterable<IbSettings & {dataset: string}>): Map<string, Map<string, number>> {
  const counts = new Map<string, Map<string, number>>();
  for (const r of rows) addSettingsCount(counts, r.dataset, settingsKey(r), 1);
  return counts;
}

/** Adds `n` records of `dataset` with settings `key` to `counts`. */
export function addSettingsCount(counts: Map<string, Map<string, number>>, dataset: string, key: string, n: number): void {
  const byKey = counts.get(dataset) ?? new Map<string, number>();
  byKey.set(key, (byKey.get(key) ?? 0) + n);
  counts.set(dataset, byKey);
}

/** Per dataset, the base settings combination under a BaseSpec, from the records' settingsCounts. */
export function baseChoices(counts: ReadonlyMap<string, ReadonlyMap<string, number>>, spec: BaseSpec = {kind: "majority"}): Map<string, BaseChoice> {
  const out = new Map<string, BaseChoice>();
  for (const [dataset, byKey] of counts) {
    const paper = settingsKey(paperBase(dataset));
    const given = spec.kind === "given" ? spec.byDataset.get(dataset) ?? spec.all : null;
    if (given !== null) {
      out.set(dataset, {key: given, how: "given by --base", tiedWith: []});
      continue;
    }
    if (spec.kind === "paper") {
      out.set(dataset, {key: paper, how: "the paper's base", tiedWith: []});
      continue;
    }
    const most = extremes(byKey.values()).max;
    const top = [...byKey].filter(([, n]) => n === most).map(([k]) => k)
      .sort((a, b) => distance(a, paper) - distance(b, paper) || b.localeCompare(a));
    const [key, ...tiedWith] = top as [string, ...string[]];
    out.set(dataset, {
      key, tiedWith,
      how: tiedWith.length
        ? `tie: ${top.length} combinations have ${most} records each; chose the one nearest the paper's base (others: ${tiedWith.map((k) => settingsLabel(settingsOfKey(k))).join("; ")}); choose with --base`
        : `most common: ${most} records`,
    });
  }
  return out;
}

export interface ScoreSummary {
  n: number;
  /** Mean score: precision, mean F1 or mean IoU. NaN for no question. */
  value: number;
  /** Questions scored 1 (for precision: answered correctly). */
  correct: number;
  /** Questions whose prediction had a problem (missing, spans left out). */
  problems: number;
}

export function summarise(rows: readonly IbScoredRow[]): ScoreSummary {
  const n = rows.length;
  const sum = rows.reduce((s, r) => s + r.score, 0);
  return {n, value: n ? sum / n : NaN, correct: rows.filter((r) => r.score === 1).length, problems: rows.filter((r) => r.problem !== null).length};
}

export interface Table3Cell extends ScoreSummary {
  model: string;
  dataset: string;
  metric: IbMetric;
}

export interface Table3Column {
  dataset: string;
  metric: IbMetric;
  /** The settings the column's records share and how they were chosen, or "all settings". */
  settings: string;
  /** A warning when several settings combinations tied for the base. */
  tie: string | null;
}

export interface Table3 {
  models: string[];
  columns: Table3Column[];
  /** One per (model, dataset) with records. */
  cells: Table3Cell[];
}

const groupBy = <T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
};

/** A Table 3 column: the dataset, its metric (its first record's) and the records it pools under `settings`. */
export function table3Column(dataset: string, metric: IbMetric, choice: BaseChoice, settings: Table3Settings): Table3Column {
  return {
    dataset, metric,
    settings: settings === "all" ? "all settings" : `${settingsLabel(settingsOfKey(choice.key))} (${choice.how})`,
    tie: settings === "all" ? null : choice.tiedWith.length ? choice.how : null,
  };
}

/** iAgents Table 3: per backend model and dataset, the dataset's metric averaged over its questions, with n. */
export function table3(scored: readonly IbScoredRow[], {settings = "majority", base: spec = {kind: "majority"}}: {settings?: Table3Settings; base?: BaseSpec} = {}): Table3 {
  const base = baseSettings(scored, spec);
  const used = settings === "all" ? scored : scored.filter((r) => base.get(r.dataset)!.key === settingsKey(r));
  const columns = datasetOrder(scored.map((r) => r.dataset)).map((dataset) => table3Column(dataset, scored.find((r) => r.dataset === dataset)!.metric, base.get(dataset)!, settings));
  const models = [...new Set(scored.map((r) => r.model))].sort();
  const groups = groupBy(used, (r) => `${r.model}\u0000${r.dataset}`);
  const cells: Table3Cell[] = [];
  for (const model of models) {
    for (const c of columns) {
      const rows = groups.get(`${model}\u0000${c.dataset}`);
      if (rows) cells.push({model, dataset: c.dataset, metric: c.metric, ...summarise(rows)});
    }
  }
  return {models, columns, cells};
}

// ---------------------------------------------------------------------------
// Ablations (Figure 7, Table 5): every settings combination in the logs
// against the dataset's base combination, for the same backend model.

export interface AblationRow {
  dataset: string;
  metric: IbMetric;
  model: string;
  /** The settings that differ from the base, each with its value in the variant: "InfoNav off", "privacy prompt on". */
  variant: string;
  changed: IbSettingKey[];
  /** Both sides over the questions both have (paired by question id): base.n and ablated.n count records of those questions. */
  base: ScoreSummary;
  ablated: ScoreSummary;
  /** Questions both sides answered. */
  paired: number;
  /** Questions only the base, or only the variant, answered: left out of both. */
  unpaired: {base: number; variant: number};
  /** ablated.value − base.value. */
  delta: number;
}

/**
 * Every settings combination against its dataset's base for the same backend
 * model, paired by question: both sides are restricted to the question ids
 * both answered, so a variant run on a subset is compared with the base on
 * that subset.
 */
export function ablations(scored: readonly IbScoredRow[], {base: spec = {kind: "majority"}}: {base?: BaseSpec} = {}): AblationRow[] {
  const base = baseSettings(scored, spec);
  const groups = groupBy(scored, (r) => `${r.dataset}\u0000${r.model}\u0000${settingsKey(r)}`);
  const out: AblationRow[] = [];
  for (const dataset of datasetOrder(scored.map((r) => r.dataset))) {
    const baseKey = base.get(dataset)!.key;
    const baseSet = settingsOfKey(baseKey);
    for (const [key, rows] of groups) {
      const [d, model, k] = key.split("\u0000") as [string, string, string];
      if (d !== dataset || k === baseKey) continue;
      const variantSet = settingsOfKey(k);
      const changed = IB_SETTINGS.filter((x) => variantSet[x.key] !== baseSet[x.key]).map((x) => x.key);
      const baseRows = groups.get(`${dataset}\u0000${model}\u0000${baseKey}`) ?? [];
      const baseIds = new Set(baseRows.map((r) => r.question_id));
      const variantIds = new Set(rows.map((r) => r.question_id));
      const shared = new Set([...variantIds].filter((q) => baseIds.has(q)));
      const baseSummary = summarise(baseRows.filter((r) => shared.has(r.question_id)));
      const ablated = summarise(rows.filter((r) => shared.has(r.question_id)));
      out.push({
        dataset, metric: rows[0]!.metric, model, changed,
        variant: IB_SETTINGS.filter((x) => changed.includes(x.key)).map((x) => `${x.label} ${variantSet[x.key] ? "on" : "off"}`).join(", "),
        base: baseSummary, ablated, paired: shared.size, unpaired: {base: baseIds.size - shared.size, variant: variantIds.size - shared.size},
        delta: ablated.value - baseSummary.value,
      });
    }
  }
  return sortAblations(out, datasetOrder(scored.map((r) => r.dataset)));
}

/** Ablation rows in the order of `datasets` (Table 3's), then models and variants by name; sorts `rows` in place. */
export function sortAblations(rows: AblationRow[], datasets: readonly string[]): AblationRow[] {
  const rank = new Map(datasets.map((d, i) => [d, i]));
  return rows.sort((a, b) => rank.get(a.dataset)! - rank.get(b.dataset)! || a.model.localeCompare(b.model) || a.variant.localeCompare(b.variant));
}

/** The settings that some record turns on and another off: the ones an ablation can compare. */
export function varyingSettings(rows: readonly IbSettings[]): IbSettingKey[] {
  return IB_SETTINGS.filter((x) => rows.some((r) => r[x.key]) && rows.some((r) => !r[x.key])).map((x) => x.key);
}

// ---------------------------------------------------------------------------
// InfoNav behaviour (Table 4).

/** One plan update: every rationale of the plan at that point, and which are known or "fake solved". Update 0 is the initial plan. */
export interface PlanUpdateRow {
  episode_id: string;
  plan: number;
  update_index: number;
  rationales: string[];
  known: string[];
  fake: string[];
}

/** The consensus step of one plan: how many of its rationales were kept and dropped. */
export interface ConsensusRow {
  episode_id: string;
  plan: number;
  kept: number;
  dropped: number;
}

/**
 * Whether a "fake solved" rationale (filled as "solved, which is unknown",
 * §5.3) counts as solved: `unsolved` (default: the agent did not in fact learn
 * it) or `solved` (it was marked solved). It always counts in the fake-solved
 * ratio.
 */
export type FakeSolved = "unsolved" | "solved";

/**
 * Which updates "rationales solved per update" divides by: `solving`
 * (default) the updates that solved at least one rationale; `all` every update
 * after the initial plan. Table 4's right row has 5.29 rationales, 84.75%
 * solved, 2.04 per update: about 4.5 solved in about 2.2 updates per plan,
 * fewer than the plan updates of a run of several communication turns, so the
 * paper most likely counted only the updates that solved something.
 */
export type PerUpdate = "solving" | "all";

/** Raw counts of one plan, from which every Table 4 column follows. */
export interface PlanCounts {
  episode_id: string;
  plan: number;
  rationales: number;
  /** Updates after the initial plan. */
  updates: number;
  /** Of those, the updates that solved at least one rationale. */
  solvingUpdates: number;
  /** Rationales that became solved across those updates (counted at the update that first made each solved). */
  solvedByUpdates: number;
  known: number;
  fake: number;
  kept: number;
  dropped: number;
  /** Rationales listed in one update and gone in the next (renamed when filled?): each name counts as a rationale. */
  vanished: number;
}

/**
 * The counts of each plan. Rationales: the distinct rationales the plan ever
 * lists. An update (each plan after the initial one) solves the rationales
 * solved in it and not in the plan before (solved: known, and fake solved
 * under fake = "solved"). Known and fake solved: the statuses in the last update.
 */
export function planCounts(updates: readonly PlanUpdateRow[], consensus: readonly ConsensusRow[], {fake = "unsolved"}: {fake?: FakeSolved} = {}): PlanCounts[] {
  const agreed = new Map(consensus.map((c) => [`${c.episode_id}\u0000${c.plan}`, c]));
  const solvedIn = (u: PlanUpdateRow) => new Set(fake === "solved" ? [...u.known, ...u.fake] : u.known);
  return [...groupBy(updates, (u) => `${u.episode_id}\u0000${u.plan}`)].map(([key, list]) => {
    const ordered = [...list].sort((a, b) => a.update_index - b.update_index);
    const all = new Set(ordered.flatMap((u) => u.rationales));
    let solvedByUpdates = 0;
    let solvingUpdates = 0;
    let vanished = 0;
    for (let i = 1; i < ordered.length; i++) {
      const before = solvedIn(ordered[i - 1]!);
      const solved = [...solvedIn(ordered[i]!)].filter((r) => !before.has(r)).length;
      solvedByUpdates += solved;
      if (solved > 0) solvingUpdates++;
      const now = new Set(ordered[i]!.rationales);
      vanished += ordered[i - 1]!.rationales.filter((r) => !now.has(r)).length;
    }
    const last = ordered[ordered.length - 1]!;
    const c = agreed.get(key);
    return {
      episode_id: last.episode_id, plan: last.plan, rationales: all.size, updates: ordered.length - 1, solvingUpdates, solvedByUpdates,
      known: solvedIn(last).size, fake: new Set(last.fake).size, kept: c?.kept ?? 0, dropped: c?.dropped ?? 0, vanished,
    };
  });
}

/**
 * How Table 4's ratios average over plans: `plan` (default) takes each plan's
 * ratio and averages them, every plan counting once; `pooled` divides totals
 * over all plans (total solved over total updates, total known over total
 * rationales, total kept over total in consensus).
 */
export type InfoNavAverage = "plan" | "pooled";

export interface InfoNavRow {
  sample: "right" | "wrong" | "all";
  questions: number;
  plans: number;
  rationales: number;
  solvedPerUpdate: number;
  solvedRatio: number;
  fakeRatio: number;
  consensusRatio: number;
}

const meanOf = (xs: readonly number[]): number => {
  const ok = xs.filter((x) => !Number.isNaN(x));
  return ok.length ? ok.reduce((s, x) => s + x, 0) / ok.length : NaN;
};
const ratio = (a: number, b: number) => (b === 0 ? NaN : a / b);

function infoNavRow(sample: InfoNavRow["sample"], plans: readonly PlanCounts[], average: InfoNavAverage, perUpdate: PerUpdate): InfoNavRow {
  const questions = new Set(plans.map((p) => p.episode_id)).size;
  const sum = (k: keyof PlanCounts) => plans.reduce((s, p) => s + (p[k] as number), 0);
  const updatesOf: keyof PlanCounts = perUpdate === "solving" ? "solvingUpdates" : "updates";
  const stats = average === "pooled"
    ? {
      solvedPerUpdate: ratio(sum("solvedByUpdates"), sum(updatesOf)),
      solvedRatio: ratio(sum("known"), sum("rationales")),
      fakeRatio: ratio(sum("fake"), sum("rationales")),
      consensusRatio: ratio(sum("kept"), sum("kept") + sum("dropped")),
    }
    : {
      solvedPerUpdate: meanOf(plans.map((p) => ratio(p.solvedByUpdates, p[updatesOf] as number))),
      solvedRatio: meanOf(plans.map((p) => ratio(p.known, p.rationales))),
      fakeRatio: meanOf(plans.map((p) => ratio(p.fake, p.rationales))),
      consensusRatio: meanOf(plans.map((p) => ratio(p.kept, p.kept + p.dropped))),
    };
  return {sample, questions, plans: plans.length, rationales: plans.length ? sum("rationales") / plans.length : NaN, ...stats};
}

export interface InfoNavOptions {
  rightAt?: number;
  average?: InfoNavAverage;
  perUpdate?: PerUpdate;
  fake?: FakeSolved;
}

/** The plans of the given scored records, with their counts. */
const plansOf = (scored: readonly IbScoredRow[], updates: readonly PlanUpdateRow[], consensus: readonly ConsensusRow[], fake: FakeSolved) => {
  const ids = new Set(scored.map((r) => r.episode_id));
  return planCounts(updates.filter((u) => ids.has(u.episode_id)), consensus, {fake});
};

/**
 * Table 4: InfoNav statistics over the plans of questions predicted right
 * (score ≥ `rightAt`, default 1: exactly right, or a perfect F1 / IoU), wrong,
 * and all. Only plans of the given scored records count, so filtering the
 * records (a model, a dataset) filters the table.
 */
export function infoNavBehaviour(
  scored: readonly IbScoredRow[], updates: readonly PlanUpdateRow[], consensus: readonly ConsensusRow[],
  {rightAt = 1, average = "plan", perUpdate = "solving", fake = "unsolved"}: InfoNavOptions = {},
): InfoNavRow[] {
  return infoNavOfPlans(plansOf(scored, updates, consensus, fake), new Map(scored.map((r) => [r.episode_id, r.score])), {rightAt, average, perUpdate});
}

/** Table 4 from the plans' counts (planCounts) and the score of each plan's record by episode id: infoNavBehaviour once the plans are counted. */
export function infoNavOfPlans(
  plans: readonly PlanCounts[], score: ReadonlyMap<string, number>,
  {rightAt = 1, average = "plan", perUpdate = "solving"}: Omit<InfoNavOptions, "fake"> = {},
): InfoNavRow[] {
  const right = plans.filter((p) => score.get(p.episode_id)! >= rightAt);
  const wrong = plans.filter((p) => score.get(p.episode_id)! < rightAt);
  return [infoNavRow("right", right, average, perUpdate), infoNavRow("wrong", wrong, average, perUpdate), infoNavRow("all", plans, average, perUpdate)];
}

/** What the reader of Table 4 should know about the trajectories: plans whose rationales vanish between updates. */
export function infoNavWarnings(scored: readonly IbScoredRow[], updates: readonly PlanUpdateRow[]): string[] {
  return vanishedWarnings(plansOf(scored, updates, [], "unsolved"));
}

/** infoNavWarnings from the plans' counts (planCounts). */
export function vanishedWarnings(counted: readonly PlanCounts[]): string[] {
  const plans = counted.filter((p) => p.vanished > 0);
  if (!plans.length) return [];
  const total = plans.reduce((s, p) => s + p.vanished, 0);
  return [`${plans.length} plan(s) drop ${total} rationale(s) from one update to the next (renamed when filled?); each name counts as its own rationale, e.g. ${plans.slice(0, 3).map((p) => `${p.episode_id} plan ${p.plan}`).join(", ")}`];
}

// ---------------------------------------------------------------------------
// Denominators behind the paper's percentages (METRICS.md audit note).

/** iAgents Table 2, #QA per dataset: the number of questions each dataset claims. */
export const PAPER_QA: Record<string, number> = {NP: 100, ScheduleEasy: 30, ScheduleMedium: 30, ScheduleHard: 30, FriendsTV: 222};

/** iAgents Table 3 as printed (percentages), the reference the audit checks; rows are the backends. */
export const PAPER_TABLE3: readonly {model: string; values: Record<string, string>}[] = [
  {model: "GPT 4", values: {NP: "64.00%", FriendsTV: "57.94%", ScheduleEasy: "56.67%", ScheduleMedium: "51.00%", ScheduleHard: "22.80%"}},
  {model: "GPT 3.5", values: {NP: "51.00%", FriendsTV: "35.71%", ScheduleEasy: "36.67%", ScheduleMedium: "18.00%", ScheduleHard: "12.25%"}},
  {model: "Claude Sonnet", values: {NP: "50.00%", FriendsTV: "34.13%", ScheduleEasy: "43.33%", ScheduleMedium: "17.44%", ScheduleHard: "18.66%"}},
  {model: "Gemini 1.0", values: {NP: "40.00%", FriendsTV: "28.57%", ScheduleEasy: "26.67%", ScheduleMedium: "22.33%", ScheduleHard: "14.40%"}},
];

export interface PaperDenominatorRow extends DenominatorCheck {
  model: string;
  dataset: string;
}

/**
 * Each precision cell of the paper's Table 3 against the #QA of Table 2:
 * consistent or not, and the smallest n that prints it. (F1 and IoU are
 * means of fractions, not shares of questions: no denominator to infer.)
 */
export function paperDenominatorAudit(): {cells: PaperDenominatorRow[]; columns: {dataset: string; claimedN: number; common: DenominatorMatch[][]}[]} {
  const precision = IB_DATASETS.filter((d) => d.metric === "precision").map((d) => d.name);
  const cells = precision.flatMap((dataset) => PAPER_TABLE3.map((row) => ({model: row.model, dataset, ...denominatorCheck(row.values[dataset]!, PAPER_QA[dataset]!)})));
  const columns = precision.map((dataset) => ({
    dataset, claimedN: PAPER_QA[dataset]!,
    common: commonDenominators(PAPER_TABLE3.map((r) => r.values[dataset]!), {maxN: 1000, limit: 3}),
  }));
  return {cells, columns};
}

/** The sentence the page and the CLI print for one check. */
export function denominatorSentence(c: DenominatorCheck): string {
  const verdict = c.consistent
    ? `consistent with n = ${c.claimedN}: ${c.counts.map((k) => `${k}/${c.claimedN}`).join(" or ")}`
    : `not a share of ${c.claimedN} (no count out of ${c.claimedN} prints as ${c.reported}, ${c.rounding})`;
  const smallest = c.smallest ? `; smallest n that prints it: ${c.smallest.n} (${c.smallest.counts.map((k) => `${k}/${c.smallest!.n}`).join(" or ")})` : "; no n up to 10,000 prints it";
  return `${c.reported}: ${verdict}${smallest}`;
}

// ---------------------------------------------------------------------------
// Gold answers against the schedule verifier.

/** One row of IB_SCHEDULES_SQL: an activity of a person in a schedule question (NULL activity for a person with an empty day). */
export interface ScheduleRow {
  dataset: string;
  question_id: string;
  level: ScheduleLevel;
  day_start: number;
  day_end: number;
  /** The easy question's two people (person_index), when the schedule has more. */
  pair: number[] | null;
  person_index: number;
  person: string;
  activity: string | null;
  start_min: number | null;
  end_min: number | null;
  /** Fixed as stated in the record; null: the verifier's rule decides. */
  fixed: boolean | null;
}

export interface StoredSchedule {
  dataset: string;
  question_id: string;
  level: ScheduleLevel;
  schedule: Schedule;
}

export const scheduleKey = (dataset: string, questionId: string) => `${dataset}\u0000${questionId}`;

/** Schedules from their rows, keyed by (dataset, question id). */
export function schedulesFromRows(rows: readonly ScheduleRow[]): Map<string, StoredSchedule> {
  const out = new Map<string, StoredSchedule>();
  for (const r of rows) {
    const key = scheduleKey(r.dataset, r.question_id);
    let s = out.get(key);
    if (!s) {
      const pair = r.pair && r.pair.length === 2 ? [Number(r.pair[0]), Number(r.pair[1])] as [number, number] : null;
      s = {dataset: r.dataset, question_id: r.question_id, level: r.level, schedule: {day: {start: r.day_start, end: r.day_end}, people: [], pair}};
      out.set(key, s);
    }
    const people = s.schedule.people;
    while (people.length <= r.person_index) people.push({name: "", activities: []});
    people[r.person_index]!.name = r.person;
    if (r.activity !== null && r.start_min !== null && r.end_min !== null) {
      people[r.person_index]!.activities.push({name: r.activity, start: r.start_min, end: r.end_min, ...(r.fixed === null || r.fixed === undefined ? {} : {fixed: r.fixed})});
    }
  }
  return out;
}

const sameSpans = (a: readonly Interval[], b: readonly Interval[]) => {
  const ua = unionIntervals(a);
  const ub = unionIntervals(b);
  return ua.length === ub.length && ua.every((s, i) => s.start === ub[i]!.start && s.end === ub[i]!.end);
};

/**
 * Does a logged gold answer say what the verifier computed? Numbers after
 * normalisation; activities as sets, read from the gold the same way a
 * prediction is (the schedule's names it mentions, so "Rock and Roll class"
 * stays one activity; split at commas and "and" without a schedule); spans as
 * unions.
 */
export function goldAgrees(answer: ScheduleAnswer, gold: readonly string[], schedule?: Schedule): boolean {
  if (answer.level === "easy") return gold.some((g) => normaliseAnswer(g) === String(answer.deletions.deletions));
  if (answer.level === "medium") {
    const expected = new Set(answer.longest.activities.map((a) => normaliseAnswer(a.name)));
    const names = schedule?.people.flatMap((p) => p.activities.map((a) => a.name));
    const logged = new Set((names ? goldNames(gold, names) : null) ?? goldItems(gold));
    return expected.size === logged.size && [...expected].every((x) => logged.has(x));
  }
  return sameSpans(goldSpans(gold), answer.free);
}

export interface GoldCheck {
  dataset: string;
  question_id: string;
  logged: string;
  verifier: string;
  agrees: boolean;
}

/**
 * Every distinct (dataset, question, gold) of the records whose question has
 * a stored schedule, checked against the verifier; and how many schedule
 * questions had no schedule to check against.
 */
export function goldChecks(rows: readonly IbResultRow[], schedules: ReadonlyMap<string, StoredSchedule>, verifier: VerifierOptions = DEFAULT_VERIFIER): {checks: GoldCheck[]; unchecked: number} {
  const seen = new Set<string>();
  const checks: GoldCheck[] = [];
  const unchecked = new Set<string>();
  for (const r of rows) {
    const level = knownDataset(r.dataset)?.level ?? null;
    const s = schedules.get(scheduleKey(r.dataset, r.question_id));
    if (!s) {
      if (level) unchecked.add(scheduleKey(r.dataset, r.question_id));
      continue;
    }
    const key = `${scheduleKey(r.dataset, r.question_id)}\u0000${JSON.stringify(r.gold)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const answer = verifySchedule(s.level, s.schedule, verifier);
    checks.push({dataset: r.dataset, question_id: r.question_id, logged: r.gold.join(" | "), verifier: answer.text, agrees: goldAgrees(answer, r.gold, s.schedule)});
  }
  return {checks, unchecked: unchecked.size};
}

/** Items of a prediction as the F1 sees them (scheduleItems when the schedule is known), for showing next to the score. */
export const predictedItems = (prediction: string | null, names?: readonly string[], freeText: FreeText = "items"): string[] =>
  prediction === null ? [] : names ? scheduleItems(prediction, names, freeText) : answerItems(prediction);

// ---------------------------------------------------------------------------
// The options behind the numbers, said the same way by the page and the CLI.

export interface IbOptions {
  match: MatchMode;
  freeText: FreeText;
  settings: Table3Settings;
  /** --base as written: majority, paper, or given settings (parseBaseSpec). */
  base: string;
  rightAt: number;
  average: InfoNavAverage;
  perUpdate: PerUpdate;
  fake: FakeSolved;
  verifier: VerifierOptions;
}

export const DEFAULT_IB_OPTIONS: IbOptions = {
  match: "exact", freeText: "items", settings: "majority", base: "majority", rightAt: 1, average: "plan", perUpdate: "solving", fake: "unsolved", verifier: DEFAULT_VERIFIER,
};

export const MATCH_TEXT: Record<MatchMode, string> = {
  exact: "exact (the normalised prediction equals a normalised gold answer)",
  contains: "contains (a normalised gold answer appears as whole words in the normalised prediction, not right after a negation; a number must be the only number)",
};

export const FREE_TEXT_TEXT: Record<FreeText, string> = {
  items: "items (a piece of free text that names no activity of the schedule is an item of the prediction that matches nothing: \"Gym, which lasts 3 hours\" against \"Gym\" is F1 2/3)",
  commentary: "commentary (a piece of free text that names no activity of the schedule is left out: \"Gym, which lasts 3 hours\" against \"Gym\" is F1 1; a set or list literal's elements stay items)",
};

export const SETTINGS_TEXT: Record<Table3Settings, string> = {
  majority: "per dataset, the base settings combination",
  all: "every record, whatever its settings",
};

export const BASE_TEXT: Record<"majority" | "paper", string> = {
  majority: "majority (the combination most records share; a tie goes to the one nearest the paper's base, and is said)",
  paper: "paper (InfoNav on, real names, no privacy prompt; FriendsTV with both memories and recursive communication)",
};

export const AVERAGE_TEXT: Record<InfoNavAverage, string> = {
  plan: "per plan (each plan's ratio, then the mean over plans)",
  pooled: "pooled (totals over all plans, then the ratio)",
};

export const PER_UPDATE_TEXT: Record<PerUpdate, string> = {
  solving: "solving (over the updates that solved at least one rationale)",
  all: "all (over every update after the initial plan)",
};

export const FAKE_TEXT: Record<FakeSolved, string> = {
  unsolved: "unsolved (a fake-solved rationale does not count as solved)",
  solved: "solved (a fake-solved rationale counts as solved)",
};

/** The --base choice in words. */
export const baseText = (base: string): string => (base === "majority" || base === "paper" ? BASE_TEXT[base] : `given (${base})`);

/** How scores are computed: normalisation, matching, F1 and IoU. */
export function scoringText(o: Pick<IbOptions, "match" | "settings" | "freeText"> & Partial<Pick<IbOptions, "base">>): string {
  return `Precision: share of questions answered correctly, match ${MATCH_TEXT[o.match]} after normalisation (case, punctuation, articles, number words → digits); ` +
    `F1: mean over questions of the F1 between predicted and gold activity sets (the schedule's activity names each mentions, when the store has the schedule), ` +
    `free text ${FREE_TEXT_TEXT[o.freeText]}, for ScheduleMedium questions with a stored schedule; ` +
    `IoU: mean over questions of the IoU of the unions of predicted and gold free spans (no span and no explicit "none" scores 0); a missing prediction scores 0; ` +
    `records: ${SETTINGS_TEXT[o.settings]}${o.settings === "majority" ? `, base ${baseText(o.base ?? "majority")}` : ""}.`;
}

/** How the gold answers were checked. */
export const verifierText = (v: VerifierOptions): string => `verifier: easy overlaps ${EASY_TEXT[v.easy]}; fixed activities ${FIXED_TEXT[v.fixed]}`;

/** How Table 4 is computed. */
export function infoNavText(o: Pick<IbOptions, "rightAt" | "average" | "perUpdate" | "fake" | "match" | "freeText">): string {
  return `Predicted right: score ≥ ${o.rightAt} under match ${o.match}, free text ${o.freeText}; every dataset and settings combination of the chosen backends pooled; averaging ${AVERAGE_TEXT[o.average]}; ` +
    `solved per update ${PER_UPDATE_TEXT[o.perUpdate]}; fake solved ${FAKE_TEXT[o.fake]}; fake-solved ratio over the plan's rationales. ` +
    `The paper's All row cannot be one mix of its right and wrong rows: the other columns put right plans at 51–53% of all, the consensus column at 45%.`;
}
