// Reports the CLI prints: each runs the store's SQL, then the metric library.

import {SOTOPIA_STATS_SQL} from "../queries/sotopia.js";
import {rows, type Store} from "../store/db.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {defaultRater, modelAggregates, type SotopiaStatRow} from "../../src/lib/sotopia.js";
import type {ResultTable} from "./output.js";

export interface ReportOptions {
  rater?: string;
  models?: string[];
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

export const REPORTS: readonly Report[] = [sotopia];

export function getReport(name: string): Report {
  const r = REPORTS.find((x) => x.name === name);
  if (!r) throw new Error(`unknown report ${JSON.stringify(name)}; reports: ${REPORTS.map((x) => x.name).join(", ")}`);
  return r;
}
