// `sociometer report reliability`: the reliability table of src/lib/reliability.ts
// (issue 15) over the agreement rows, one row per rater A and dimension, then
// one per dimension among the human annotators.

import {AGREEMENT_ROWS_SQL, RATER_COVERAGE_SQL} from "../../queries/agreement.js";
import {EPISODE_SCENARIOS_SQL} from "../../queries/reliability.js";
import {rows, type Store} from "../../store/db.js";
import {coverageText, defaultJudge, HUMANS, raterLabel, reportedP, type RaterChoice, type RaterCoverage, type RaterScore} from "../../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../../src/lib/dimensions.js";
import {ICC_FORM_LABELS, iccForm, type IccForm} from "../../../src/lib/icc.js";
import {kappaWeighting} from "../../../src/lib/kappa.js";
import {alphaMetric} from "../../../src/lib/krippendorff.js";
import {MULTIPLICITY_LABELS, multiplicityMethod} from "../../../src/lib/multiplicity.js";
import {RELIABILITY_EXPLAINED, reliabilityReport, reliabilityThresholdsText, reliabilityVerdicts, type ReliabilityOptions, type ReliabilityReport} from "../../../src/lib/reliability.js";
import {INTERVAL_METHODS, intervalNote, type BootstrapInterval, type IntervalMethod} from "../../../src/lib/resample.js";
import type {ResultTable} from "../output.js";

/** The report's own flags, as typed; checked here. */
export interface ReliabilityFlags {
  metric?: string;
  icc?: string;
  kappaWeights?: string;
  resamples?: string;
  seed?: string;
  interval?: string;
  cluster?: string;
  adjust?: string;
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!(Number.isInteger(n) && n >= min && n <= max)) throw new Error(`--${flag} must be a whole number from ${min} to ${max}, not ${value}`);
  return n;
}

/** The options of src/lib/reliability.ts from the command line's flags, every value checked. */
export function reliabilityOptions(flags: ReliabilityFlags, bins: number | undefined): Omit<ReliabilityOptions, "judges" | "dimensions" | "against" | "scenarioOf"> {
  if (flags.interval !== undefined && !INTERVAL_METHODS.includes(flags.interval as IntervalMethod)) throw new Error(`--interval must be ${INTERVAL_METHODS.join(" or ")}, not ${flags.interval}`);
  if (flags.cluster !== undefined && flags.cluster !== "scenario" && flags.cluster !== "episode") throw new Error(`--cluster must be scenario or episode, not ${flags.cluster}`);
  return {
    metric: flags.metric === undefined ? undefined : alphaMetric(flags.metric),
    iccForm: flags.icc === undefined ? undefined : iccForm(flags.icc),
    weighting: flags.kappaWeights === undefined ? undefined : kappaWeighting(flags.kappaWeights),
    bins,
    resamples: wholeNumber("resamples", flags.resamples, 1, 1_000_000),
    seed: wholeNumber("seed", flags.seed, 0, 0xffffffff),
    method: flags.interval as IntervalMethod | undefined,
    cluster: flags.cluster === "scenario",
    adjust: flags.adjust === undefined ? undefined : multiplicityMethod(flags.adjust),
  };
}

const choice = (name: string): RaterChoice => (name === HUMANS ? HUMANS : {rater: name});

/** Columns of one interval: the estimate, then its bounds. */
const withBounds = (name: string, i: BootstrapInterval | null) => ({[name]: i?.estimate ?? null, [`${name}_lo`]: i?.lo ?? null, [`${name}_hi`]: i?.hi ?? null});

export async function reliabilityCliReport(store: Store, options: {raters?: string[]; against?: string; bins?: number; reliability?: ReliabilityFlags}): Promise<ResultTable> {
  const coverage = coverageText(await rows<RaterCoverage>(store.conn, RATER_COVERAGE_SQL));
  const scores = await rows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
  if (!scores.length) throw new Error(`no episode in the store is scored by two or more raters. ${coverage.lines.join(" ")}`);
  const parsed = reliabilityOptions(options.reliability ?? {}, options.bins);
  const present = new Set(scores.map((s) => s.rater));
  const firstLlm = coverage.llmMeetsHumans || options.against ? defaultJudge(scores) : undefined;
  const judges = options.raters?.length ? options.raters : firstLlm ? [firstLlm] : [];
  const against = choice(options.against ?? HUMANS);
  for (const r of judges.concat(options.against ?? [])) {
    if (r !== HUMANS && !present.has(r)) throw new Error(`no rater ${JSON.stringify(r)} on multiply-rated episodes; raters: ${[...present].join(", ")}, or humans`);
  }
  const scenarioOf = parsed.cluster
    ? new Map((await rows<{episode_id: string; scenario_id: string | null}>(store.conn, EPISODE_SCENARIOS_SQL)).map((r) => [r.episode_id, r.scenario_id]))
    : undefined;
  const report = reliabilityReport(scores, {...parsed, judges, against, dimensions: SOTOPIA_DIMENSIONS, scenarioOf});
  return reliabilityTable(report, coverage.lines);
}

/**
 * What the annotators' icc values are. They are the --icc form, like the
 * judges'; the design (columns in annotator-name order, not the same people on
 * every item) is one-way, so a two-way form gets the one-way form named as
 * the one that fits, instead of a note that seemed to describe the values.
 */
function annotatorIccNote(form: IccForm, leftOut: readonly string[]): string {
  const oneWay = form.startsWith("1,");
  return `icc among annotators: ${ICC_FORM_LABELS[form]}, as --icc chooses, on the items with the most common number of annotators ` +
    `(columns in annotator-name order, not the same people on every item${oneWay ? ": the one-way form fits that design" : `, a one-way design: --icc 1,${form.slice(2)} fits it, the values here are ICC(${form})`})` +
    (leftOut.length ? `; left out: ${leftOut.join("; ")}` : "");
}

/** The report as one table: the judge rows, then the annotators' rows, with notes saying every option. */
export function reliabilityTable(report: ReliabilityReport, coverage: readonly string[] = []): ResultTable {
  const o = report.options;
  const verdicts = new Map(reliabilityVerdicts(report).map((v) => [`${v.a}\u0000${v.dimension}`, v]));
  const B = raterLabel(o.against);
  const judgeRows = report.judges.map((j) => ({
    comparison: `A vs ${B}`, a: j.a, dimension: j.dimension, n: j.n, episodes: j.episodes,
    ...withBounds("alpha", j.alphaWithA), ...withBounds("icc", j.iccBootstrap), icc_f_lo: j.icc.lo, icc_f_hi: j.icc.hi,
    icc_p: reportedP(j.icc.p), icc_p_adj: reportedP(j.iccPAdjusted),
    ...withBounds("kappa", j.kappa), ...withBounds("ac1", j.ac1), ...withBounds("r", j.pearson), r_p_adj: reportedP(j.pearsonPAdjusted),
    ...withBounds("rho", j.spearman),
    ba_bias: j.blandAltman.bias, ba_lower: j.blandAltman.lower, ba_upper: j.blandAltman.upper, ba_slope: j.blandAltman.slope, ba_slope_p_adj: reportedP(j.slopePAdjusted),
    fleiss: null, randolph: null, po: null, icc_items: j.n, icc_left_out: 0,
    stands_in: verdicts.get(`${j.a}\u0000${j.dimension}`)?.standsIn ? "yes" : "no",
  }));
  const annotatorRows = report.annotators.map((r) => ({
    comparison: "among annotators", a: `${r.annotators} annotators`, dimension: r.dimension, n: r.items, episodes: r.episodes,
    ...withBounds("alpha", r.alpha), ...withBounds("icc", r.iccBootstrap), icc_f_lo: r.icc?.lo ?? null, icc_f_hi: r.icc?.hi ?? null,
    icc_p: r.icc ? reportedP(r.icc.p) : null, icc_p_adj: r.icc ? reportedP(r.iccPAdjusted) : null,
    kappa: null, kappa_lo: null, kappa_hi: null, ...withBounds("ac1", r.ac1), r: null, r_lo: null, r_hi: null, r_p_adj: null, rho: null, rho_lo: null, rho_hi: null,
    ba_bias: null, ba_lower: null, ba_upper: null, ba_slope: null, ba_slope_p_adj: null,
    fleiss: r.fleissKappa, randolph: r.randolphKappa, po: r.pairwiseAgreement, icc_items: r.iccItems, icc_left_out: r.iccLeftOut, stands_in: null,
  }));
  const first = report.judges[0]?.iccBootstrap ?? report.annotators[0]?.alpha;
  const leftOut = report.annotators.filter((r) => r.iccLeftOut > 0).map((r) => `${r.dimension} ${r.iccLeftOut} of ${r.items} (ICC on ${r.iccItems} items with ${r.iccRaters} annotators)`);
  const verdictLines = reliabilityVerdicts(report).map((v) => `${v.a} ${v.standsIn ? "can" : "cannot"} stand in for ${B} on ${v.dimension}: ${v.because}`);
  return {
    title: report.judges.length
      ? `Reliability of ${o.judges.join(", ")} against ${B}, and among the human annotators, per dimension`
      : "Reliability among the human annotators, per dimension",
    notes: [
      `A = ${o.judges.join(", ") || "none (name one with --rater)"}; B = ${B}; an item is one (episode, agent) on one dimension, a rater's repeated responses averaged`,
      `alpha: Krippendorff's α, ${o.metric} metric (--metric nominal|ordinal|interval|ratio); for A vs B over B's raters with A added${o.against === HUMANS ? " (each annotator, not their mean)" : ""}`,
      ...(o.metric === "ratio" ? [`alpha n/a on dimensions whose scores go below 0 (${o.dimensions.filter((d) => d.lo < 0).map((d) => d.key).join(", ")}): the ratio metric needs a scale with a true zero`] : []),
      `icc: ${ICC_FORM_LABELS[o.iccForm]} (--icc); icc_lo/hi: bootstrap interval; icc_f_lo/hi: F-based 95% interval; icc_p: F test of ICC = 0`,
      `kappa: Cohen's κ, ${o.weighting} weights (--kappa-weights), and ac1: Gwet's AC1, on ${o.bins} equal-width bins (--bins); fleiss, randolph, po: among annotators on the same bins`,
      "r: Pearson, rho: Spearman; ba_*: Bland–Altman bias (mean A − B), 95% limits of agreement, slope of A − B on (A + B)/2",
      `intervals (*_lo, *_hi): ${first ? intervalNote(first) : `${o.resamples} resamples, seed ${o.seed}`} (--resamples, --seed, --interval percentile|bca, --cluster scenario)` +
        (o.cluster && report.unclustered ? `; ${report.unclustered} episodes without a scenario drawn as their own cluster` : ""),
      `p-values adjusted over the table's family (each statistic's tests across raters and dimensions): ${MULTIPLICITY_LABELS[o.adjust]} (--adjust holm|bh|none)`,
      ...(report.annotators.length ? [annotatorIccNote(o.iccForm, leftOut)] : []),
      reliabilityThresholdsText(report),
      ...verdictLines,
      ...Object.values(RELIABILITY_EXPLAINED),
      ...coverage,
    ],
    columns: ["comparison", "a", "dimension", "n", "episodes", "alpha", "alpha_lo", "alpha_hi", "icc", "icc_lo", "icc_hi", "icc_f_lo", "icc_f_hi", "icc_p", "icc_p_adj",
      "kappa", "kappa_lo", "kappa_hi", "ac1", "ac1_lo", "ac1_hi", "r", "r_lo", "r_hi", "r_p_adj", "rho", "rho_lo", "rho_hi",
      "ba_bias", "ba_lower", "ba_upper", "ba_slope", "ba_slope_p_adj", "fleiss", "randolph", "po", "icc_items", "icc_left_out", "stands_in"],
    rows: (judgeRows as Record<string, unknown>[]).concat(annotatorRows),
  };
}
