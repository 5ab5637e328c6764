// Perceived ranges (SOTOPIA Appendix G.3) as a Vega-Lite chart: one line per
// group of instances whose human annotators' scores span the same [min, max],
// with the mean score of rater A on them drawn as a dot, on the dimension's range.

import type {TopLevelSpec} from "vega-lite";
import type {PerceivedRangeGroup} from "../lib/agreement.js";

export interface PerceivedRangesOptions {
  title: string;
  lo: number;
  hi: number;
  width: number;
  /** Who the dot is: rater A's name. */
  judge: string;
}

export function perceivedRangesChart(groups: readonly PerceivedRangeGroup[], options: PerceivedRangesOptions): TopLevelSpec {
  const {title, lo, hi, width, judge} = options;
  // The lines keep the groups' order through a field, and rater A's name is in the title param and the data, not in
  // the spec's text: a change of rater then updates a drawn chart in place (agreement-chart.ts).
  const values = groups.map((g, order) => ({...g, order, judge, label: `[${g.min}, ${g.max}]`, where: g.meanJudge > g.max ? "above" : g.meanJudge < g.min ? "below" : "inside"}));
  const x = {scale: {domain: [lo, hi], nice: false}};
  const y = {field: "label", type: "nominal", sort: {field: "order", op: "min"}, title: "human range [min, max]"} as const;
  return {
    params: [{name: "heading", value: title}],
    title: {text: {expr: "heading"}, subtitle: "number at the right: instances sharing the range", anchor: "start", fontSize: 12},
    data: {name: "groups", values},
    width: Math.max(240, Math.min(width, 900) - 160),
    height: {step: 16},
    // Laid out again on every update in place: new labels may need less room than the old ones.
    autosize: {type: "pad", resize: true},
    config: {view: {stroke: null}},
    encoding: {y},
    layer: [
      {
        mark: {type: "rule", strokeWidth: 5, color: "#9ecae1", strokeCap: "round"},
        encoding: {x: {field: "min", type: "quantitative", ...x, title: "score"}, x2: {field: "max"}},
      },
      {
        mark: {type: "point", filled: true, size: 60, tooltip: true},
        encoding: {
          x: {field: "meanJudge", type: "quantitative", ...x},
          color: {
            field: "where", type: "nominal", title: "mean of rater A",
            scale: {domain: ["inside", "above", "below"], range: ["#2b6cb0", "#d62728", "#ff7f0e"]},
            legend: {orient: "bottom", direction: "horizontal", labelExpr: "datum.label + ' the range'"},
          },
          tooltip: [
            {field: "label", type: "nominal", title: "human range"},
            {field: "n", type: "quantitative", title: "instances"},
            {field: "judge", type: "nominal", title: "rater A"},
            {field: "meanJudge", type: "quantitative", format: ".2f", title: "mean of rater A"},
          ],
        },
      },
      {
        mark: {type: "text", align: "left", dx: 6, fontSize: 10, color: "#666"},
        encoding: {x: {value: Math.max(240, Math.min(width, 900) - 160)}, text: {field: "n", type: "quantitative", format: "d"}},
      },
    ],
  } as TopLevelSpec;
}
