// Reports the CLI prints: each runs the store's SQL, then the metric library.

import {AGREEMENT_ROWS_SQL, RATER_COVERAGE_SQL} from "../queries/agreement.js";
import {HSII_CASES_SQL, HSII_COT_SQL} from "../queries/hsii.js";
import {CHECKPOINT_FAILURES_SQL, CHECKPOINT_PAIRS_SQL, LIFELONG_INSTANCES_SQL} from "../queries/lifelong.js";
import {SOTOPIA_STATS_SQL, SOTOPIA_TASKS_SQL} from "../queries/sotopia.js";
import {rows, type Store} from "../store/db.js";
import {SOTOPIA_DIMENSIONS, sotopiaDimension} from "../../src/lib/dimensions.js";
import {BEST_AMONG_NOTE, bestModels, type BestAmong} from "../../src/lib/sotopia-significance.js";
import {defaultRater, hardSelectionNotes, modelAggregates, sotopiaHard, taskLabel, type HardBoundRule, type SotopiaStatRow, type TaskInfo} from "../../src/lib/sotopia.js";
import {agreementTable, ANNOTATORS_KAPPA_NOTE, coverageText, defaultJudge, HUMANS, kappaAmongAllAnnotators, P_UNDERFLOW, pairInstances, POOLED_CORRELATION_REASON, raterLabel, reportedP, type RaterChoice, type RaterCoverage, type RaterScore, type SpreadBasis} from "../../src/lib/agreement.js";
import {checkpointValidation, curves, failureRates, LABEL_RUNS_NOTE, POSITIVE_CLASS_NOTE, type BandKind, type CheckpointFailures, type CheckpointPair, type LabelRuns, type LifelongInstance, type PositiveClass} from "../../src/lib/lifelong.js";
import {tQuantile} from "../../src/lib/t-quantile.js";
import type {VarianceKind} from "../../src/lib/stats.js";
import {cotSummary, DEFAULT_CAP, DEFAULT_WEIGHTS, hsiiByModel, type HsiiCaseRow, type HsiiFormula, type HsiiWeights, type WinPolicy} from "../../src/lib/hsii.js";
import type {ResultTable} from "./output.js";
import {unknownName} from "./unknown-name.js";
import {stssActionReport, stssLanguageReport, type StssFlags} from "./reports/stss.js";
import {reliabilityCliReport, type ReliabilityFlags} from "./reports/reliability.js";
import {disagreementsCliReport, type DisagreementFlags} from "./reports/disagreements.js";
import {infonavReport, informativebenchAblationsReport, informativebenchAuditReport, informativebenchReport, type IbReportFlags} from "./reports/informativebench.js";

export interface ReportOptions {
  rater?: string;
  /** agreement: several raters, each compared with --against, side by side. */
  raters?: string[];
  models?: string[];
  /** agreement: the rater compared with --rater ("humans" for the mean of human annotators). */
  against?: string;
  bins?: number;
  basis?: SpreadBasis;
  /** SOTOPIA-hard: restrict to the hardest tasks for this model. */
  hardTarget?: string;
  hardN?: number;
  hardRule?: HardBoundRule;
  hardDimension?: string;
  /** sotopia: who may be ranked best (default: models only). */
  bestAmong?: BestAmong;
  /** belext: which class counts as positive (default: failing the checkpoint). */
  positive?: PositiveClass;
  /** belext: how a rater's several runs on a checkpoint make one label (default: majority, ties split). */
  labelRuns?: LabelRuns;
  /** lifelong: band around the curves, and which sd. */
  band?: BandKind;
  variance?: VarianceKind;
  /** checkpoint-failures: chain indices pooled per row (default 5, as the page). */
  window?: number;
  /** hsii */
  weights?: HsiiWeights;
  formula?: HsiiFormula;
  winPolicy?: WinPolicy;
  cot?: boolean;
  byCluster?: boolean;
  /** cot */
  threshold?: number;
  cap?: number;
  /** stss, stss-action: drill-down per task or per task type; stss: the level it is at; stss-action: the conversation-ratio rule. */
  by?: "task" | "type";
  level?: "conversation" | "summary";
  convRatio?: "mean" | "pooled";
  /** stss: --run-id, --appointment-partners; stss-action: --help-order, --initiator (as given, checked by the report). */
  stss?: StssFlags;
  /** reliability: --metric, --icc, --kappa-weights, --resamples, --seed, --interval, --cluster, --adjust as given (checked by the report). */
  reliability?: ReliabilityFlags;
  /** informativebench, informativebench-ablations, infonav: --match, --settings, --right-at, --average as given (checked by the report). */
  ib?: IbReportFlags;
  /** disagreements: --dimension, --min-gap, --limit as given (checked by the report). */
  disagreements?: DisagreementFlags;
}

export interface Report {
  name: string;
  description: string;
  run(store: Store, options: ReportOptions): Promise<ResultTable>;
}

async function sotopiaStats(store: Store, options: ReportOptions): Promise<{stats: SotopiaStatRow[]; rater: string}> {
  const stats = await rows<SotopiaStatRow>(store.conn, SOTOPIA_STATS_SQL);
  const rater = options.rater ?? defaultRater(stats);
  if (!rater) throw new Error("the store has no SOTOPIA scores; import some first (sociometer import sotopia FILE)");
  const raters = [...new Set(stats.map((s) => s.rater))];
  if (!raters.includes(rater)) throw unknownName("rater", rater, raters, "the store's SOTOPIA scores (--rater; humans is the annotators' mean)");
  // A model no score has would only be left out of the table, which then looks like an answer.
  const models = [...new Set(stats.map((s) => s.model))].sort();
  for (const m of options.models ?? []) if (!models.includes(m)) throw unknownName("model", m, models, "the store's SOTOPIA scores (--model)");
  return {stats, rater};
}

function hardSelection(stats: SotopiaStatRow[], rater: string, options: ReportOptions & {hardTarget: string}) {
  const dimension = sotopiaDimension(options.hardDimension ?? "goal");
  if (!dimension) throw unknownName("dimension", options.hardDimension!, SOTOPIA_DIMENSIONS.map((d) => d.key), "SOTOPIA-EVAL (--hard-dimension)");
  if (!stats.some((s) => s.model === options.hardTarget)) {
    throw unknownName("model", options.hardTarget, [...new Set(stats.map((s) => s.model))].sort(), "the store's SOTOPIA scores (--hard-target)");
  }
  const rule = options.hardRule ?? "max";
  const n = options.hardN ?? 20;
  const selection = sotopiaHard(stats, {rater, target: options.hardTarget, dimension, rule, n});
  const note = `SOTOPIA-hard: the ${selection.tasks.length} hardest tasks for ${options.hardTarget} (n = ${n}, reward ${dimension.abbrev}, bound rule ${rule}` +
    `${selection.skipped.length ? `; ${selection.skipped.length} task(s) skipped for lack of repeated episodes` : ""})`;
  return {selection, note, notes: hardSelectionNotes(selection, {n, dimension}), dimension, rule, n};
}

const sotopia: Report = {
  name: "sotopia",
  description: "per-model means of the seven SOTOPIA-EVAL dimensions and overall, by one rater (--hard-target for SOTOPIA-hard)",
  async run(store, options) {
    const {stats, rater} = await sotopiaStats(store, options);
    const hard = options.hardTarget ? hardSelection(stats, rater, {...options, hardTarget: options.hardTarget}) : null;
    const tasks = hard ? new Set(hard.selection.tasks.map((t) => t.task_id)) : undefined;
    const aggregates = modelAggregates(stats, {rater, models: options.models, tasks});
    const among = options.bestAmong ?? "models";
    const best = new Map(bestModels(aggregates, {among}).map((b) => [b.dimension, b]));
    const abbrev = new Map(SOTOPIA_DIMENSIONS.map((d) => [d.key, d.abbrev]));
    return {
      title: "SOTOPIA-EVAL model aggregates (mean over all episodes a model played, any partner, either seat)",
      notes: [
        `rater: ${rater}${rater === "humans" ? " (per instance, the mean over its human annotators)" : ""}${options.rater ? "" : stats.some((s) => s.rater === rater && s.rater_kind === "llm")
          ? " (the LLM rater with the most scores; choose with --rater, or --rater humans)" : " (no LLM rater scored: the rater with the most scores; choose with --rater)"}`,
        "overall: mean of the seven dimensions per instance, over instances scored on all seven",
        "sd: sample standard deviation (n − 1); best: the highest mean, marked * when Student's t-test against the second best gives p < 0.05",
        `best among (--best-among ${among}): ${BEST_AMONG_NOTE[among]}`,
        ...(hard ? [hard.note, ...hard.notes] : []),
      ],
      columns: ["model", "dimension", "abbrev", "n", "mean", "sd", "best", "p_vs_second"],
      rows: aggregates.map((a) => {
        const b = best.get(a.dimension);
        const isBest = b?.best === a.model;
        return {
          model: a.model, dimension: a.dimension, abbrev: abbrev.get(a.dimension) ?? "OVERALL", n: a.n, mean: a.mean, sd: a.sd,
          best: isBest ? (b.significant ? "*" : "yes") : "", p_vs_second: isBest && b.test ? reportedP(b.test.p) : null,
        };
      }),
    };
  },
};

const sotopiaHardReport: Report = {
  name: "sotopia-hard",
  description: "the SOTOPIA-hard task selection for --hard-target (§7), with each task's difficulty",
  async run(store, options) {
    if (!options.hardTarget) throw new Error("sotopia-hard needs --hard-target MODEL");
    const {stats, rater} = await sotopiaStats(store, options);
    const hard = hardSelection(stats, rater, {...options, hardTarget: options.hardTarget});
    const names = new Map((await rows<TaskInfo>(store.conn, SOTOPIA_TASKS_SQL)).map((t) => [t.task_id, t]));
    return {
      title: `SOTOPIA-hard tasks for ${options.hardTarget}`,
      notes: [`rater: ${rater}`, hard.note,
        `difficulty = clamp(${hard.rule === "max" ? "max over models of (mean + 3 sd)" : "mean + 3 sd over all models' episodes"}) − clamp(target mean − 3 sd), clamped to [${hard.dimension.lo}, ${hard.dimension.hi}]`,
        ...hard.notes, "task: the scenario's codename and the characters; task_id: scenario id | the characters' profile ids"],
      columns: ["task", "difficulty", "upper", "lower", "target_mean", "target_n", "task_id"],
      rows: hard.selection.tasks.map((t) => ({task: taskLabel(names.get(t.task_id), t.task_id), difficulty: t.difficulty, upper: t.upper, lower: t.lower,
        target_mean: t.targetMean, target_n: t.targetN, task_id: t.task_id})),
    };
  },
};

const choice = (name: string): RaterChoice => (name === HUMANS ? HUMANS : {rater: name});

const agreement: Report = {
  name: "agreement",
  description: "how far raters agree with another (default: the LLM judge vs the mean of human annotators), per dimension; --rater may repeat",
  async run(store, options) {
    const coverage = coverageText(await rows<RaterCoverage>(store.conn, RATER_COVERAGE_SQL));
    const scores = await rows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
    if (!scores.length) throw new Error(`no episode in the store is scored by two or more raters. ${coverage.lines.join(" ")}`);
    const present = [...new Set(scores.map((s) => s.rater))];
    const bins = options.bins ?? 5;
    const basis = options.basis ?? "dimension";
    const humansOnly = !options.raters?.length && !options.against && !coverage.llmMeetsHumans && scores.some((s) => s.rater_kind === "human");
    if (humansOnly) return humanAgreement(scores, coverage.lines, bins);
    const firstLlm = defaultJudge(scores);
    const judges = options.raters?.length ? options.raters : firstLlm ? [firstLlm] : [];
    if (!judges.length) throw new Error(`no LLM rater scores an episode that others scored too; name one with --rater. ${coverage.lines.join(" ")}`);
    const against = options.against ?? HUMANS;
    for (const r of [...judges, against]) {
      if (r !== HUMANS && !present.includes(r)) throw new Error(`no rater ${JSON.stringify(r)} on multiply-rated episodes; raters: ${present.join(", ")}, or humans`);
    }
    const dimensions = SOTOPIA_DIMENSIONS.map((d) => d.key);
    const rowsOut = judges.flatMap((judge) =>
      kappaAmongAllAnnotators(agreementTable(pairInstances(scores, choice(judge), choice(against)), dimensions, {bins, basis}), scores, dimensions, {bins, basis}).map((t) => ({
        a: judge, dimension: t.dimension, played_by: t.played_by, n: t.n,
        // The pooled rows carry no correlation: null here, blank in the text table (see the note).
        r: t.pearson?.r ?? null, p: t.pearson ? reportedP(t.pearson.p) : null, ci_low: t.pearson?.ci[0] ?? null, ci_high: t.pearson?.ci[1] ?? null,
        rho: t.spearman?.r ?? null, rho_p: t.spearman ? reportedP(t.spearman.p) : null, bias: t.bias, within_1sd: t.withinOneSd,
        inside: t.ranges.inside, above: t.ranges.above, below: t.ranges.below,
        items_humans: t.kappaHumans.items, kappa_humans: t.kappaHumans.kappa, po_humans: t.kappaHumans.pairwiseAgreement,
        items_with_a: t.kappaWithJudge.items, kappa_with_a: t.kappaWithJudge.kappa, po_with_a: t.kappaWithJudge.pairwiseAgreement,
      })));
    return {
      title: `Agreement of ${judges.join(", ")} with ${raterLabel(choice(against))}, per dimension and by who played the rated agent`,
      notes: [
        `A = ${judges.join(", ")}; B = ${raterLabel(choice(against))}; an instance is one (episode, agent) on one dimension, a rater's repeated responses averaged`,
        `r: Pearson, p two-sided from Student's t with n − 2 df (${P_UNDERFLOW} where it underflows), 95% CI by Fisher z; rho: Spearman (average ranks); n/a where a side has no variance`,
        `dimension all: r, p, CI and rho left blank (null in JSON), ${POOLED_CORRELATION_REASON}; kappa there is pooled after binning each dimension on its own range, as the paper pools it`,
        `bias: mean of A − B; within_1sd: share with |A − B| ≤ one sample sd (${basis === "dimension" ? "of B's scores over the row's instances of the dimension: in a model or human row over that split only; in a dimension-all row each dimension's own sd" : "of the instance's own annotators"})`,
        "inside / above / below: A's score against the perceived range [min, max] of the human scores (instances with ≥ 2 annotators)",
        `kappa: Randolph's free-marginal kappa after ${bins} equal-width bins; po: pairwise agreement P_o; items: the instances each kappa is over`,
        ANNOTATORS_KAPPA_NOTE,
        ...playedByNote(scores),
        ...coverage.lines,
      ],
      columns: ["a", "dimension", "played_by", "n", "r", "p", "ci_low", "ci_high", "rho", "rho_p", "bias", "within_1sd",
        "inside", "above", "below", "items_humans", "kappa_humans", "po_humans", "items_with_a", "kappa_with_a", "po_with_a"],
      rows: rowsOut,
    };
  },
};

/** Why each played_by model row repeats its all row, when it does: otherwise the twin rows read as a bug. */
const playedByNote = (scores: readonly RaterScore[]): string[] =>
  scores.some((s) => s.played_by === "human") ? [] : ["played_by: no human played a rated agent in these episodes, so each model row is its all row again"];

/** Kappa among the human annotators alone: what `report agreement` shows when no LLM rater scores what they scored. */
function humanAgreement(scores: RaterScore[], coverage: string[], bins: number): ResultTable {
  const table = agreementTable(pairInstances(scores, HUMANS, HUMANS), SOTOPIA_DIMENSIONS.map((d) => d.key), {bins});
  return {
    title: "Agreement among the human annotators, per dimension and by who played the rated agent",
    notes: [
      ...coverage,
      "an item is one (episode, agent) on one dimension scored by two or more annotators, an annotator's repeated responses averaged",
      `kappa: Randolph's free-marginal kappa after ${bins} equal-width bins; po: pairwise agreement P_o; name an LLM rater with --rater to compare it with the annotators`,
      ...playedByNote(scores),
    ],
    columns: ["dimension", "played_by", "items", "kappa_humans", "po_humans"],
    rows: table.map((t) => ({dimension: t.dimension, played_by: t.played_by, items: t.kappaHumans.items, kappa_humans: t.kappaHumans.kappa, po_humans: t.kappaHumans.pairwiseAgreement})),
  };
}

const reliability: Report = {
  name: "reliability",
  description: "Krippendorff's alpha, ICC, weighted kappa, AC1, r and Bland–Altman of raters against the humans and among the annotators, with bootstrap intervals; --rater may repeat",
  run: (store, options) => reliabilityCliReport(store, options),
};

const disagreementsReport: Report = {
  name: "disagreements",
  description: "the instances where --rater and --against (default: humans) differ most, with both rationales; --rater humans alone: the widest annotator ranges",
  run: (store, options) => disagreementsCliReport(store, options),
};

/** The page's default rater (lifelongRaters): the first LLM rater with a BEL score, in the instance rows' order; else the first rater. */
const defaultLifelongRater = (instances: readonly LifelongInstance[], raters: readonly string[]): string =>
  raters.find((r) => instances.some((i) => i.rater === r && i.rater_kind === "llm" && i.bel !== null)) ?? raters[0]!;

const lifelong: Report = {
  name: "lifelong",
  description: "LIFELONG-SOTOPIA curves: mean BEL, GOAL and penalised BEL per model, memory mode and chain index",
  async run(store, options) {
    const instances = await rows<LifelongInstance>(store.conn, LIFELONG_INSTANCES_SQL);
    if (!instances.length) throw new Error("the store has no LIFELONG-SOTOPIA episodes; import some first (sociometer import lifelong FILE)");
    const raters = [...new Set(instances.map((i) => i.rater))];
    const rater = options.rater ?? defaultLifelongRater(instances, raters);
    if (!raters.includes(rater)) throw new Error(`no LIFELONG-SOTOPIA scores by ${JSON.stringify(rater)}; raters: ${raters.join(", ")}`);
    const band = options.band ?? "sd";
    const variance = options.variance ?? "sample";
    const sets = [...new Set(instances.filter((i) => i.rater === rater && i.checkpoints > 0).map((i) => i.checkpoint_set))];
    return {
      title: "LIFELONG-SOTOPIA: scores over the episode chain",
      notes: [
        `rater: ${rater}; band: ${band === "sd" ? `± one ${variance} sd` : "95% confidence interval of the mean (Student's t, n − 1 df)"}`,
        "penalised BEL = max(BEL − 5 × failed checkpoints, 0) (Eq. 1), computed here from the rater's BEL and eight labels of each run; n/a without a full checklist",
        `checklist: ${sets.length ? sets.join(", ") : "none"}${sets.includes("sonzai-python") ? " (the sonzai-python reimplementation's own eight checkpoints, not the paper's)" : ""}`,
        "harder: the index is one of the hand-crafted, memory-requiring scenarios",
        "n: instances (episode, agent), each counted once: a rater's several judging runs of one instance are averaged first (BEL, GOAL, and each run's penalised BEL), as SOTOPIA does; runs: the runs so combined",
        "bel: over every instance with a BEL (n); bel_checklisted: BEL of only the penalised_n instances (and runs) with a full checklist, the same ones as penalised_bel, so bel_checklisted − penalised_bel is what failed checkpoints cost",
      ],
      columns: ["model", "memory", "index", "harder", "n", "runs", "bel", "bel_low", "bel_high", "goal", "goal_low", "goal_high", "bel_checklisted", "penalised_bel", "penalised_n"],
      rows: curves(instances, {rater, band, variance, tQuantile}).map((c) => ({
        model: c.model, memory: c.memory_mode, index: c.chain_index, harder: c.harder ? "yes" : "", n: c.bel.n, runs: c.runs,
        bel: c.bel.mean, bel_low: c.bel.low, bel_high: c.bel.high, goal: c.goal.mean, goal_low: c.goal.low, goal_high: c.goal.high,
        bel_checklisted: c.bel_checklisted.mean, penalised_bel: c.penalised.mean, penalised_n: c.penalised.n,
      })),
    };
  },
};

const checkpointFailuresReport: Report = {
  name: "checkpoint-failures",
  description: "LIFELONG-SOTOPIA checkpoint failure rates per checkpoint, memory mode and window of chain indices (the page's failure chart); --model for one model, --window N",
  async run(store, options) {
    const failures = await rows<CheckpointFailures>(store.conn, CHECKPOINT_FAILURES_SQL);
    if (!failures.length) throw new Error("the store has no LIFELONG-SOTOPIA checkpoint labels; import some first (sociometer import lifelong FILE)");
    const raters = [...new Set(failures.map((f) => f.rater))];
    // The page's failure chart follows its one rater choice, whose default is the curves'.
    let rater = options.rater;
    if (rater === undefined) {
      const instances = await rows<LifelongInstance>(store.conn, LIFELONG_INSTANCES_SQL);
      rater = defaultLifelongRater(instances, [...new Set(instances.map((i) => i.rater))]);
    }
    if (!raters.includes(rater)) throw new Error(`no checkpoint labels by ${JSON.stringify(rater)}; raters: ${raters.join(", ")}`);
    if ((options.models?.length ?? 0) > 1) throw new Error("checkpoint-failures pools every model or shows one: give --model once or not at all");
    const model = options.models?.[0] ?? null;
    if (model !== null && !failures.some((f) => f.rater === rater && f.model === model)) throw new Error(`no checkpoint labels by ${rater} for model ${JSON.stringify(model)}`);
    const window = options.window ?? 5;
    return {
      title: "LIFELONG-SOTOPIA: checkpoint failure rates over the chain",
      notes: [
        `rater: ${rater}; ${model === null ? "all models pooled" : `model ${model}`}; ${window === 1 ? "one row per chain index" : `one row per ${window} chain indices (--window)`}`,
        "n: agent-episodes (episode, agent), each counted once; runs: the rater's runs combined into them; " +
          "failed: Σ over the agent-episodes of the share of their runs that failed; rate = failed / n, the mean of those shares (as the curves average runs per instance)",
      ],
      columns: ["checklist", "checkpoint", "memory", "from", "to", "n", "runs", "failed", "rate"],
      rows: failureRates(failures, {rater, model, window}).map((r) => ({
        checklist: r.checklist, checkpoint: r.dimension.split(":")[2] ?? r.dimension, memory: r.memory_mode, from: r.from, to: r.to, n: r.n, runs: r.runs, failed: r.failed, rate: r.rate,
      })),
    };
  },
};

const belext: Report = {
  name: "belext",
  description: "BELEXT checkpoint validation: an LLM rater's labels against a human's, per checkpoint (LIFELONG-SOTOPIA Table 1)",
  async run(store, options) {
    const pairs = await rows<CheckpointPair>(store.conn, CHECKPOINT_PAIRS_SQL);
    if (!pairs.length) throw new Error("no checkpoint is labelled by both an LLM rater and a human on the same episode and agent");
    const llmRaters = [...new Set(pairs.map((p) => p.llm_rater))];
    const rater = options.rater ?? llmRaters[0]!;
    if (!llmRaters.includes(rater)) throw new Error(`no checkpoint labels by LLM rater ${JSON.stringify(rater)} beside a human's; LLM raters: ${llmRaters.join(", ")}`);
    const positive = options.positive ?? "fail";
    const labelRuns = options.labelRuns ?? "majority";
    return {
      title: `BELEXT checkpoints: ${rater} against human labels`,
      notes: [
        `positive class (--positive ${positive}): ${POSITIVE_CLASS_NOTE[positive]}`,
        `runs (--label-runs ${labelRuns}): ${LABEL_RUNS_NOTE[labelRuns]}; split: pairs with a split on either side, in none of TP, FP, TN, FN`,
        "precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2PR/(P+R); n/a where undefined",
      ],
      columns: ["checklist", "checkpoint", "n", "tp", "fp", "tn", "fn", "split", "precision", "recall", "f1"],
      rows: checkpointValidation(pairs, {rater, positive, labelRuns}).map(({dimension, ...v}) => {
        const [, set, key] = dimension.split(":");
        return {checklist: set, checkpoint: key, ...v};
      }),
    };
  },
};

const hsii: Report = {
  name: "hsii",
  description: "HSII Table 1: per model n, r1, r2, absolute target rate, r3, r4 and the HSII score, with a position-bias audit",
  async run(store, options) {
    const rowsIn = await rows<HsiiCaseRow>(store.conn, HSII_CASES_SQL);
    if (!rowsIn.length) throw new Error("the store has no HSII cases; import some first (sociometer import hsii FILE)");
    const raters = [...new Set(rowsIn.map((r) => r.rater).filter((r): r is string => r !== null))].sort();
    const rater = options.rater ?? raters[0] ?? null;
    if (rater !== null && !raters.includes(rater)) throw new Error(`no HSII judgments by ${JSON.stringify(rater)}; raters: ${raters.join(", ") || "none"}`);
    const formula = options.formula ?? "eq1";
    const policy = options.winPolicy ?? "mean";
    const w = options.weights ?? DEFAULT_WEIGHTS;
    const table = hsiiByModel(rowsIn, {rater, policy, formula, weights: w, cot: options.cot, by: options.byCluster ? "cluster" : undefined});
    return {
      title: "HSII: stage pass rates and the HSII score per model",
      notes: [
        `judge: ${rater ?? "none (no stage-3/4 judgments)"}; win policy: ${policy} (${policy === "mean" ? "win 1, tie 0.5, loss 0, averaged over both orders" : policy === "strict" ? "a win only when both orders say win" : "the forward order only"})`,
        formula === "eq1"
          ? `score: Eq. 1, r1·(1 + α·r2·(1 + β·(r3 + γ·r4))) with α = ${w.alpha}, β = ${w.beta}, γ = ${w.gamma}`
          : "score: r1·(1 + r2·(r3 + r4)), the form that reproduces HSII Table 1 (weights do not apply)",
        `runs: ${options.cot === undefined ? "with and without COT" : options.cot ? "with COT only" : "without COT only"}; r2 = n2/n1, abs_target = n2/n`,
        "disagree_3/4: share of judged comparisons whose two orders disagree; r3_fwd / r3_swp: stage-3 win rate in each order alone",
        `r3 = n3 / (n2 − unjudged_3), r4 = n4 / (n2 − unjudged_4): over the n2 cases with the verdicts the ${policy} policy needs (${policy === "first" ? "the forward order" : "both orders"}); ` +
          "unjudged_3/4: n2 cases without them, left out rather than counted as losses; r3 / r4 n/a with none judged, and then the score is n/a",
      ],
      columns: ["model", ...(options.byCluster ? ["cluster"] : []), "n", "n1", "n2", "n3", "n4", "unjudged_3", "unjudged_4", "r1", "r2", "abs_target", "r3", "r4", "hsii",
        "disagree_3", "disagree_4", "r3_fwd", "r3_swp", "parser_disagrees"],
      rows: table.map((t) => ({
        model: t.model, cluster: t.cluster ?? "", n: t.n, n1: t.n1, n2: t.n2, n3: t.n3, n4: t.n4, unjudged_3: t.unjudged3, unjudged_4: t.unjudged4, r1: t.r1, r2: t.r2, abs_target: t.absoluteTarget,
        r3: t.r3, r4: t.r4, hsii: t.score, disagree_3: t.disagree3, disagree_4: t.disagree4, r3_fwd: t.r3Forward, r3_swp: t.r3Swapped,
        parser_disagrees: t.parserDisagreements,
      })),
    };
  },
};

const cot: Report = {
  name: "cot",
  description: "HSII Table 2: COT complexity, success with and without COT, and rounds needed for a success rate",
  async run(store, options) {
    const runs = await rows<{model: string; rounds: boolean[]}>(store.conn, HSII_COT_SQL);
    if (!runs.length) throw new Error("the store has no HSII COT rounds");
    const cap = options.cap ?? DEFAULT_CAP;
    const threshold = options.threshold ?? 0.7;
    const models = [...new Set(runs.map((r) => r.model))];
    return {
      title: "HSII COT complexity per model",
      notes: [
        `cap N∞ = ${cap}: a (case, COT) unsolved within it counts as ${cap}; complexity = mean rounds over all (case, COT) (Eq. 2)`,
        "runs: one per episode and COT variant; two episodes of one case, or its runs with and without COT, count as separate runs",
        `rounds_to_${threshold}: the smallest k at which the share solved within k rounds reaches ${threshold} (∞ if never)`,
      ],
      columns: ["model", "runs", "success_without_cot", "success_with_cot", "rounds_to_threshold", "complexity"],
      rows: models.map((model) => {
        const s = cotSummary(runs.filter((r) => r.model === model), {cap, threshold});
        return {model, runs: s.runs, success_without_cot: s.successWithoutCot, success_with_cot: s.successWithCot,
          rounds_to_threshold: Number.isFinite(s.roundsToThreshold) ? s.roundsToThreshold : "∞", complexity: s.complexity};
      }),
    };
  },
};

const stss: Report = {
  name: "stss",
  description: "STSS Table 3: SR and GCSR at the conversation and summary levels, micro and macro (--by task|type drills down)",
  run: stssLanguageReport,
};

const stssAction: Report = {
  name: "stss-action",
  description: "STSS Table 4: Appendix A.1 task scores per task type, overall over tasks, conversation ratio (--by task: per run)",
  run: stssActionReport,
};

const informativebenchReports: Report[] = [
  {name: "informativebench", description: "InformativeBench Table 3: each dataset's metric (precision, F1, IoU) per backend model, with n", run: (s, o) => informativebenchReport(s, o.ib ?? {}, o.models)},
  {name: "informativebench-ablations", description: "InformativeBench ablations (Figure 7, Table 5): settings combinations against each dataset's base", run: (s, o) => informativebenchAblationsReport(s, o.ib ?? {}, o.models)},
  {name: "infonav", description: "InfoNav behaviour (iAgents Table 4) by predicted right / wrong / all", run: (s, o) => infonavReport(s, o.ib ?? {}, o.models)},
  {name: "informativebench-audit", description: "the smallest denominators behind iAgents Table 3's precision percentages, against Table 2's #QA", run: () => informativebenchAuditReport()},
];

export const REPORTS: readonly Report[] = [sotopia, sotopiaHardReport, agreement, reliability, disagreementsReport, lifelong, checkpointFailuresReport, belext, hsii, cot, stss, stssAction, ...informativebenchReports];

export function getReport(name: string): Report {
  const r = REPORTS.find((x) => x.name === name);
  if (!r) throw new Error(`unknown report ${JSON.stringify(name)}; reports: ${REPORTS.map((x) => x.name).join(", ")}`);
  return r;
}
