// The benchmark baseline page's one view (src/bench-baseline.md): the overall
// mean per model as bars, or, in a build with no SOTOPIA scores, a sentence
// saying so, since an empty bar chart draws nothing and makes Vega warn
// "Infinite extent" once per empty scale.

import type {TopLevelSpec} from "vega-lite";
import {barChart} from "./bars.js";

export type BaselineView = {chart: TopLevelSpec} | {text: string};

export const NO_SOTOPIA_SCORES = "No SOTOPIA scores in this build: the baseline chart has nothing to draw. Import SOTOPIA episodes with scores and build again.";

/** The bars of each model's overall mean by `rater`, or the no-scores text when there are none. */
export function baselineView(overall: readonly {model: string; mean: number}[], rater: string | undefined): BaselineView {
  if (rater === undefined || overall.length === 0) return {text: NO_SOTOPIA_SCORES};
  return {chart: barChart(overall.map((a) => ({label: a.model, value: a.mean})), {title: `overall mean (${rater})`, order: overall.map((a) => a.model), width: 640})};
}
