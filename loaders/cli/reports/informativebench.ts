// `report informativebench` (Table 3), `report informativebench-ablations`
// (Figure 7, Table 5), `report infonav` (Table 4) and `report
// informativebench-audit` (the denominators behind the paper's percentages):
// the store's rows from loaders/queries/informativebench.ts, scored by
// src/lib/informativebench.ts, as the InformativeBench page does.

import {IB_CONSENSUS_SQL, IB_PLAN_UPDATES_SQL, IB_RESULTS_SQL, IB_SCHEDULES_SQL} from "../../queries/informativebench.js";
import {rows, type Store} from "../../store/db.js";
import {
  ablations, DEFAULT_IB_OPTIONS, goldChecks, infoNavBehaviour, infoNavText, infoNavWarnings, METRIC_LABEL, paperDenominatorAudit, parseBaseSpec, schedulesFromRows,
  scoreRows, scoringText, table3, verifierText, type ConsensusRow, type IbOptions, type IbResultRow, type PlanUpdateRow, type ScheduleRow, type StoredSchedule,
} from "../../../src/lib/informativebench.js";
import type {ResultTable} from "../output.js";

/** The InformativeBench flags as the command line gives them, checked here. */
export interface IbReportFlags {
  match?: string;
  freeText?: string;
  settings?: string;
  base?: string;
  rightAt?: string;
  average?: string;
  perUpdate?: string;
  fake?: string;
  easyOverlap?: string;
  fixedActivities?: string;
}

export function ibOptions(flags: IbReportFlags = {}): IbOptions {
  const pick = <T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: T): T => {
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T)) throw new Error(`--${flag} must be ${allowed.join(" or ")}, not ${value}`);
    return value as T;
  };
  const rightAt = flags.rightAt === undefined ? DEFAULT_IB_OPTIONS.rightAt : Number(flags.rightAt);
  if (!(rightAt > 0 && rightAt <= 1)) throw new Error(`--right-at must be a score in (0, 1], not ${flags.rightAt}`);
  const base = flags.base ?? DEFAULT_IB_OPTIONS.base;
  parseBaseSpec(base);
  return {
    match: pick("match", flags.match, ["exact", "contains"] as const, DEFAULT_IB_OPTIONS.match),
    freeText: pick("free-text", flags.freeText, ["items", "commentary"] as const, DEFAULT_IB_OPTIONS.freeText),
    settings: pick("settings", flags.settings, ["majority", "all"] as const, DEFAULT_IB_OPTIONS.settings),
    average: pick("average", flags.average, ["plan", "pooled"] as const, DEFAULT_IB_OPTIONS.average),
    perUpdate: pick("per-update", flags.perUpdate, ["solving", "all"] as const, DEFAULT_IB_OPTIONS.perUpdate),
    fake: pick("fake", flags.fake, ["unsolved", "solved"] as const, DEFAULT_IB_OPTIONS.fake),
    verifier: {
      easy: pick("easy-overlap", flags.easyOverlap, ["pooled", "between"] as const, DEFAULT_IB_OPTIONS.verifier.easy),
      fixed: pick("fixed-activities", flags.fixedActivities, ["sleep", "none"] as const, DEFAULT_IB_OPTIONS.verifier.fixed),
    },
    base,
    rightAt,
  };
}

async function storedSchedules(store: Store): Promise<Map<string, StoredSchedule>> {
  return schedulesFromRows(await rows<ScheduleRow>(store.conn, IB_SCHEDULES_SQL));
}

async function resultRows(store: Store, models?: string[]): Promise<IbResultRow[]> {
  const list = await rows<IbResultRow>(store.conn, IB_RESULTS_SQL);
  if (!list.length) throw new Error("the store has no InformativeBench results; import some first (sociometer import informativebench FILE)");
  if (!models?.length) return list;
  const known = new Set(list.map((r) => r.model));
  for (const m of models) if (!known.has(m)) throw new Error(`no InformativeBench results for model ${JSON.stringify(m)}; models: ${[...known].sort().join(", ")}`);
  return list.filter((r) => models.includes(r.model));
}

export async function informativebenchReport(store: Store, flags: IbReportFlags, models?: string[]): Promise<ResultTable> {
  const o = ibOptions(flags);
  const results = await resultRows(store, models);
  const schedules = await storedSchedules(store);
  const t = table3(scoreRows(results, {match: o.match, freeText: o.freeText, schedules}), {settings: o.settings, base: parseBaseSpec(o.base)});
  const gold = goldChecks(results, schedules, o.verifier);
  const disagree = gold.checks.filter((c) => !c.agrees);
  return {
    title: "InformativeBench (iAgents Table 3): each dataset's metric per backend model",
    notes: [
      scoringText(o),
      ...t.columns.map((c) => `${c.dataset} (${METRIC_LABEL[c.metric]}): ${c.settings}`),
      ...t.columns.filter((c) => c.tie).map((c) => `warning: ${c.dataset} base settings ${c.tie}`),
      `gold answers checked by the schedule verifier: ${gold.checks.length - disagree.length} of ${gold.checks.length} agree` +
        `${gold.unchecked ? `; ${gold.unchecked} schedule question(s) have no schedule in the store` : ""}` +
        `${disagree.length ? `; disagreeing: ${disagree.slice(0, 5).map((d) => `${d.dataset} ${d.question_id} (log ${d.logged}, verifier ${d.verifier})`).join("; ")}` : ""}`,
      verifierText(o.verifier),
      "correct: questions scored 1; problems: predictions missing, with spans left out or read with a choice, or naming nothing",
    ],
    columns: ["model", "dataset", "metric", "n", "value", "correct", "problems"],
    rows: t.cells.map((c) => ({model: c.model, dataset: c.dataset, metric: c.metric, n: c.n, value: c.value, correct: c.correct, problems: c.problems})),
  };
}

export async function informativebenchAblationsReport(store: Store, flags: IbReportFlags, models?: string[]): Promise<ResultTable> {
  const o = ibOptions(flags);
  const list = ablations(scoreRows(await resultRows(store, models), {match: o.match, freeText: o.freeText, schedules: await storedSchedules(store)}), {base: parseBaseSpec(o.base)});
  return {
    title: "InformativeBench ablations (iAgents Figure 7, Table 5): every settings combination against the dataset's base, per backend model",
    notes: [
      scoringText({...o, settings: "majority"}),
      "paired by question: base and variant over the questions both answered (paired); unpaired questions are left out of both; delta = ablated − base",
    ],
    columns: ["dataset", "metric", "model", "variant", "paired", "base_n", "base", "ablated_n", "ablated", "delta", "unpaired_base", "unpaired_variant"],
    rows: list.map((a) => ({dataset: a.dataset, metric: a.metric, model: a.model, variant: a.variant, paired: a.paired, base_n: a.base.n, base: a.base.value,
      ablated_n: a.ablated.n, ablated: a.ablated.value, delta: a.delta, unpaired_base: a.unpaired.base, unpaired_variant: a.unpaired.variant})),
  };
}

export async function infonavReport(store: Store, flags: IbReportFlags, models?: string[]): Promise<ResultTable> {
  const o = ibOptions(flags);
  const scored = scoreRows(await resultRows(store, models), {match: o.match, freeText: o.freeText, schedules: await storedSchedules(store)});
  const updates = await rows<PlanUpdateRow>(store.conn, IB_PLAN_UPDATES_SQL);
  const consensus = await rows<ConsensusRow>(store.conn, IB_CONSENSUS_SQL);
  const table = infoNavBehaviour(scored, updates, consensus, o);
  return {
    title: "InfoNav behaviour (iAgents Table 4), by whether the question was predicted right",
    notes: [infoNavText(o), `models: ${models?.length ? models.join(", ") : "all"} (choose with --model)`, scoringText({...o, settings: "all"}),
      ...infoNavWarnings(scored, updates).map((w) => `warning: ${w}`)],
    columns: ["sample", "questions", "plans", "rationales", "solved_per_update", "solved_ratio", "fake_ratio", "consensus_ratio"],
    rows: table.map((r) => ({sample: r.sample, questions: r.questions, plans: r.plans, rationales: r.rationales, solved_per_update: r.solvedPerUpdate,
      solved_ratio: r.solvedRatio, fake_ratio: r.fakeRatio, consensus_ratio: r.consensusRatio})),
  };
}

export async function informativebenchAuditReport(): Promise<ResultTable> {
  const audit = paperDenominatorAudit();
  return {
    title: "The denominators behind iAgents Table 3's precision percentages, against Table 2's #QA",
    notes: [
      "consistent: some count out of the claimed n prints as the reported percentage (rounded half up to its digits); smallest_n: the smallest n that prints it",
      ...audit.columns.map((c) => `${c.dataset} column: claimed n = ${c.claimedN}; smallest n printing every cell at once: ${c.common[0] ? `${c.common[0][0]!.n} (${c.common[0].map((m) => m.counts.join("/")).join(", ")})` : "none up to 1000"}`),
    ],
    columns: ["model", "dataset", "reported", "claimed_n", "consistent", "counts", "smallest_n", "smallest_counts"],
    rows: audit.cells.map((c) => ({model: c.model, dataset: c.dataset, reported: c.reported, claimed_n: c.claimedN, consistent: c.consistent ? "yes" : "no",
      counts: c.counts.join(" "), smallest_n: c.smallest?.n ?? null, smallest_counts: c.smallest?.counts.join(" ") ?? ""})),
  };
}
