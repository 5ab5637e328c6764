// SOTOPIA's significance marks (Tables 2 and 3): Student's t-tests between
// model aggregates or pair cells. Apart from sotopia.ts so that a page drawing
// means needs no distribution functions (@stdlib, some 160 modules in the
// browser) before its first chart.

import {studentTTest, type TTest} from "./inference.js";
import type {ModelAggregate, PairCell} from "./sotopia.js";

export interface BestModel {
  dimension: string;
  /** The model with the highest mean; empty when two or more share it (a tie crowns no one), or none was scored. */
  best: string;
  /** The models sharing the highest mean when it is a tie, in rank order; else empty. */
  tied: string[];
  second: string | null;
  test: TTest | null;
  /** Student's t-test of best against second best gives p < 0.05 (SOTOPIA Tables 2, 3). */
  significant: boolean;
}

/** The model name of a human-played agent (SOTOPIA's human episodes; store-contents.ts). */
export const HUMAN_PLAYER = "human";

/**
 * Who may be ranked "best": `models` (default: METRICS.md § SOTOPIA-EVAL, the
 * best model against the second best, as Table 2 lists models only; human
 * players keep their row but are not ranked) or `all` (human players ranked too).
 */
export type BestAmong = "models" | "all";

export const BEST_AMONG_NOTE: Record<BestAmong, string> = {
  models: "models only (human-played agents are shown but not ranked, as SOTOPIA Table 2 lists models)",
  all: "every player, human-played agents included",
};

/**
 * The best model on each dimension and whether it beats the second best
 * significantly. Higher is better on every SOTOPIA-EVAL dimension (SEC and SOC
 * are penalties in [-10, 0]).
 */
export function bestModels(aggregates: readonly ModelAggregate[], options: {alpha?: number; among?: BestAmong} = {}): BestModel[] {
  const alpha = options.alpha ?? 0.05;
  const among = options.among ?? "models";
  const byDimension = new Map<string, ModelAggregate[]>();
  for (const a of aggregates) {
    const list = byDimension.get(a.dimension);
    if (list) list.push(a);
    else byDimension.set(a.dimension, [a]);
  }
  return [...byDimension.entries()].map(([dimension, list]) => {
    const ranked = list.filter((a) => a.n > 0 && (among === "all" || a.model !== HUMAN_PLAYER)).sort((a, b) => b.mean - a.mean);
    const [best, second] = ranked;
    // Equal means: no lead to test, and marking the first by sort order would crown one of them arbitrarily.
    if (best && second && best.mean === second.mean) {
      return {dimension, best: "", tied: ranked.filter((a) => a.mean === best.mean).map((a) => a.model), second: null, test: null, significant: false};
    }
    const test = best && second ? studentTTest(best.moments, second.moments) : null;
    return {dimension, best: best?.model ?? "", tied: [], second: second?.model ?? null, test, significant: Boolean(test && test.p < alpha)};
  });
}

/** A pair cell against a reference cell by Student's t-test (SOTOPIA Table 3's marks). */
export function compareWithReference(cells: readonly PairCell[], reference: {model: string; partner: string}, alpha = 0.05) {
  const ref = cells.find((c) => c.model === reference.model && c.partner === reference.partner);
  return cells.map((c) => {
    const test = ref && c !== ref ? studentTTest(c.moments, ref.moments) : null;
    return {...c, isReference: c === ref, test, significant: Boolean(test && test.p < alpha)};
  });
}

/** A pair cell tested against the reference cell (compareWithReference). */
export type ComparedCell = ReturnType<typeof compareWithReference>[number];
