// Reports the CLI prints: each runs the store's SQL, then the metric library.

import {AGREEMENT_ROWS_SQL} from "../queries/agreement.js";
import {SOTOPIA_STATS_SQL} from "../queries/sotopia.js";
import {rows, type Store} from "../store/db.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {defaultRater, modelAggregates, type SotopiaStatRow} from "../../src/lib/sotopia.js";
import {agreementTable, HUMANS, pairInstances, raterLabel, type RaterChoice, type RaterScore, type SpreadBasis} from "../../src/lib/agreement.js";
import type {ResultTable} from "./output.js";

export interface ReportOptions {
  rater?: string;
  models?: string[];
  /** agreement: the rater compared with --rater ("humans" for the mean of human annotators). */
  against?: string;
  bins?: number;
  basis?: SpreadBasis;
}

export interface Report {
  name: string;
  description: string;
  run(store: Store, options: ReportOptions): Promise<ResultTable>;
}

const sotopia: Report = {
  name: "sotopia",
  description: "per-model means of the seven SOTOPIA-EVAL dimensions and overall, by one rater",
  async run(store, options) {
    const stats = await rows<SotopiaStatRow>(store.conn, SOTOPIA_STATS_SQL);
    const rater = options.rater ?? defaultRater(stats);
    if (!rater) throw new Error("the store has no SOTOPIA scores; import some first (sociometer import sotopia FILE)");
    const raters = [...new Set(stats.map((s) => s.rater))];
    if (!raters.includes(rater)) throw new Error(`no SOTOPIA scores by rater ${JSON.stringify(rater)}; raters in the store: ${raters.join(", ")}`);
    const aggregates = modelAggregates(stats, {rater, models: options.models});
    const abbrev = new Map(SOTOPIA_DIMENSIONS.map((d) => [d.key, d.abbrev]));
    return {
      title: "SOTOPIA-EVAL model aggregates (mean over all episodes a model played, any partner, either seat)",
      notes: [
        `rater: ${rater}${options.rater ? "" : " (the LLM rater with the most scores; choose with --rater)"}`,
        "overall: mean of the seven dimensions per instance, over instances scored on all seven",
        "sd: sample standard deviation (n − 1)",
      ],
      columns: ["model", "dimension", "abbrev", "n", "mean", "sd"],
      rows: aggregates.map((a) => ({...a, abbrev: abbrev.get(a.dimension) ?? "OVERALL"})),
    };
  },
};

const choice = (name: string): RaterChoice => (name === HUMANS ? HUMANS : {rater: name});

const agreement: Report = {
  name: "agreement",
  description: "how far one rater agrees with another (default: the LLM judge vs the mean of human annotators), per dimension",
  async run(store, options) {
    const scores = await rows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
    if (!scores.length) throw new Error("no episode in the store is scored by two or more raters");
    const raters = [...new Set(scores.map((s) => s.rater))];
    const judge = options.rater ?? raters.find((r) => scores.some((s) => s.rater === r && s.rater_kind === "llm"));
    if (!judge) throw new Error("no LLM rater scores an episode that others scored too; name one with --rater");
    const against = options.against ?? HUMANS;
    for (const r of [judge, against]) {
      if (r !== HUMANS && !raters.includes(r)) throw new Error(`no rater ${JSON.stringify(r)} on multiply-rated episodes; raters: ${raters.join(", ")}, or humans`);
    }
    const bins = options.bins ?? 5;
    const basis = options.basis ?? "dimension";
    const instances = pairInstances(scores, choice(judge), choice(against));
    const table = agreementTable(instances, SOTOPIA_DIMENSIONS.map((d) => d.key), {bins, basis});
    return {
      title: `Agreement of ${raterLabel(choice(judge))} with ${raterLabel(choice(against))}, per dimension and by who played the rated agent`,
      notes: [
        `A = ${judge}; B = ${raterLabel(choice(against))}; an instance is one (episode, agent) on one dimension, a rater's repeated responses averaged`,
        "r: Pearson, p two-sided from Student's t with n − 2 df, 95% CI by Fisher z; rho: Spearman (average ranks); n/a where a side has no variance",
        `bias: mean of A − B; within_1sd: share with |A − B| ≤ one sample sd (${basis === "dimension" ? "of B's scores over the dimension" : "of the instance's own annotators"})`,
        `kappa: Randolph's free-marginal kappa after ${bins} equal-width bins; po: pairwise agreement P_o; humans only, and with A as one more rater`,
      ],
      columns: ["dimension", "played_by", "n", "r", "p", "ci_low", "ci_high", "rho", "rho_p", "bias", "within_1sd",
        "inside", "above", "below", "kappa_humans", "po_humans", "kappa_with_a", "po_with_a"],
      rows: table.map((t) => ({
        dimension: t.dimension, played_by: t.played_by, n: t.n,
        r: t.pearson.r, p: t.pearson.p, ci_low: t.pearson.ci[0], ci_high: t.pearson.ci[1],
        rho: t.spearman.r, rho_p: t.spearman.p, bias: t.bias, within_1sd: t.withinOneSd,
        inside: t.ranges.inside, above: t.ranges.above, below: t.ranges.below,
        kappa_humans: t.kappaHumans.kappa, po_humans: t.kappaHumans.pairwiseAgreement,
        kappa_with_a: t.kappaWithJudge.kappa, po_with_a: t.kappaWithJudge.pairwiseAgreement,
      })),
    };
  },
};

export const REPORTS: readonly Report[] = [sotopia, agreement];

export function getReport(name: string): Report {
  const r = REPORTS.find((x) => x.name === name);
  if (!r) throw new Error(`unknown report ${JSON.stringify(name)}; reports: ${REPORTS.map((x) => x.name).join(", ")}`);
  return r;
}
