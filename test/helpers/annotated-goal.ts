// A small SOTOPIA store where an LLM judge scored only some of the instances
// that two or more annotators scored: the annotators' kappa must be over all
// of those, whatever rater A is. Shared by the library, engine and CLI tests.

import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import type {RaterScore} from "../../src/lib/agreement.js";

/**
 * GOAL scores ([0, 10], k = 5 bins of width 2: bin = floor(score / 2), 10 in the top bin) by annotators h1–h3:
 *   ep-1 agent 1: 7, 6     bins 3, 3     P = 1
 *   ep-1 agent 2: 2, 9     bins 1, 4     P = 0
 *   ep-2 agent 1: 5, 4     bins 2, 2     P = 1
 *   ep-2 agent 2: 0, 1     bins 0, 0     P = 1
 *   ep-3 agent 1: 3, 8, 9  bins 1, 4, 4  P = 2 / 6 = 1/3
 *   ep-3 agent 2: 10       one annotator: no item
 * Among the annotators: 5 items, P_o = (1 + 0 + 1 + 1 + 1/3) / 5 = 2/3, κ = (2/3 − 1/5) / (4/5) = 7/12.
 */
export const ANNOTATOR_GOAL: readonly (readonly [episode: string, agent: number, rater: string, value: number])[] = [
  ["ep-1", 1, "h1", 7], ["ep-1", 1, "h2", 6],
  ["ep-1", 2, "h1", 2], ["ep-1", 2, "h2", 9],
  ["ep-2", 1, "h1", 5], ["ep-2", 1, "h2", 4],
  ["ep-2", 2, "h1", 0], ["ep-2", 2, "h2", 1],
  ["ep-3", 1, "h1", 3], ["ep-3", 1, "h2", 8], ["ep-3", 1, "h3", 9],
  ["ep-3", 2, "h1", 10],
];

/** The annotators' GOAL scores as a long ratings CSV (sociometer import sotopia-ratings). */
export const ANNOTATOR_GOAL_CSV = "episode_id,agent,dimension,rater,value\n" +
  ANNOTATOR_GOAL.map(([episode, agent, rater, value]) => `${episode},${agent},goal,${rater},${value}`).join("\n") + "\n";

/** Kappa among every annotator, worked above: the same for every rater A. */
export const AMONG_ANNOTATORS = {items: 5, pairwiseAgreement: 2 / 3, kappa: 7 / 12};

/**
 * Kappa with A as one more rater, over A's instances that another annotator scored:
 *   judge-x (GOAL 7 on both agents of ep-1, as dumpRecord scores): 7, 6, 7 → P = 1; 2, 9, 7 (bins 1, 4, 3) → P = 0: 2 items, P_o = 1/2, κ = 3/8;
 *   h3 (ep-3 agent 1 only): 3, 8, 9 → 1 item, P_o = 1/3, κ = 1/6;
 *   h1 (every instance; counted once): the annotators' 5 items, κ = 7/12;
 *   llm-2 (GOAL 4 on ep-3 agent 2, beside the one annotator's 10: bins 2 and 4): 1 item, P_o = 0, κ = −1/4.
 * Before the fix, an LLM as A got the annotators' kappa over its own instances: judge-x 2 items, κ = 3/8.
 */
export const WITH_A: Record<string, {items: number; pairwiseAgreement: number; kappa: number}> = {
  "judge-x": {items: 2, pairwiseAgreement: 1 / 2, kappa: 3 / 8},
  h3: {items: 1, pairwiseAgreement: 1 / 3, kappa: 1 / 6},
  h1: {items: 5, pairwiseAgreement: 2 / 3, kappa: 7 / 12},
  "llm-2": {items: 1, pairwiseAgreement: 0, kappa: -1 / 4},
};

const GOAL = SOTOPIA_DIMENSIONS.find((d) => d.key === "goal")!;

/**
 * The agreement rows of that store, as AGREEMENT_ROWS_SQL orders them (by
 * episode, agent, dimension, rater): the annotators, judge-x's GOAL 7 on
 * ep-1, and llm-2's GOAL 4 on ep-3 agent 2 alone (an LLM that scored one
 * annotated instance, with one annotator: before the fix, 0 items and no
 * annotators' kappa at all).
 */
export function annotatedGoalRows(): RaterScore[] {
  const row = (episode_id: string, agent: number, rater: string, rater_kind: string, value: number): RaterScore =>
    ({episode_id, agent, dimension: "goal", rater, rater_kind, value, lo: GOAL.lo, hi: GOAL.hi, played_by: "model"});
  const out = ANNOTATOR_GOAL.map(([episode, agent, rater, value]) => row(episode, agent, rater, "human", value));
  out.push(row("ep-1", 1, "judge-x", "llm", 7), row("ep-1", 2, "judge-x", "llm", 7), row("ep-3", 2, "llm-2", "llm", 4));
  const key = (r: RaterScore) => `${r.episode_id}\u0000${r.agent}\u0000${r.rater}`;
  return out.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
}
