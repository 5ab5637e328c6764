// What the SOTOPIA page opens on (issue 33, item 4): the rater, or the mean of
// human annotators, that scored the most agents, and the models it scored, so
// the first view shows the store's data rather than a judge that saw a tenth
// of it and columns of dashes. The sentence says why.

import {OVERALL, type SotopiaGroupRow} from "../lib/sotopia.js";
import {HUMAN_MEAN_KIND} from "./sotopia.js";

export interface CoverageChoice {
  /** The rater the page opens on; null when no SOTOPIA score is loaded. */
  rater: string | null;
  /** The models that rater scored, in the order of `allModels`. */
  models: string[];
  /** Agents scored (one agent in one episode) on the rater's best-covered dimension. */
  agents: number;
  /** The sentence above the first view: what was chosen and why. */
  sentence: string;
}

/** Per rater, the agents scored on its best-covered dimension: an agent counts once however many dimensions it was scored on. */
export function scoredAgents(rows: readonly SotopiaGroupRow[]): Map<string, {kind: string; agents: number}> {
  const perDimension = new Map<string, Map<string, number>>();
  const kinds = new Map<string, string>();
  for (const r of rows) {
    if (r.dimension === OVERALL) continue;
    kinds.set(r.rater, r.rater_kind);
    const dims = perDimension.get(r.rater) ?? new Map<string, number>();
    dims.set(r.dimension, (dims.get(r.dimension) ?? 0) + r.n);
    perDimension.set(r.rater, dims);
  }
  const out = new Map<string, {kind: string; agents: number}>();
  for (const [rater, dims] of perDimension) {
    let agents = 0;
    for (const n of dims.values()) agents = Math.max(agents, n);
    out.set(rater, {kind: kinds.get(rater)!, agents});
  }
  return out;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const who = (rater: string, kind: string) => (kind === HUMAN_MEAN_KIND ? "the mean of human annotators" : kind === "llm" ? `the LLM judge ${rater}` : kind === "human" ? `annotator ${rater}` : `${kind} rater ${rater}`);

/** The models of `allModels`, in their order, that `rater` scored: the ones the page ticks when that rater is chosen. */
export function modelsScoredBy(rows: readonly SotopiaGroupRow[], rater: string, allModels: readonly string[]): string[] {
  const scored = new Set(rows.filter((r) => r.rater === rater && r.n > 0).map((r) => r.model));
  return allModels.filter((m) => scored.has(m));
}

/**
 * The rater with the most scored agents (ties: LLM judges, then the
 * annotators' mean, then by name), the models it scored, and the sentence
 * that says so, naming the runner-up so a reader knows what else is there.
 */
export function coverageChoice(rows: readonly SotopiaGroupRow[], allModels: readonly string[]): CoverageChoice {
  const rank = (kind: string) => (kind === "llm" ? 0 : kind === HUMAN_MEAN_KIND ? 1 : 2);
  const ranked = [...scoredAgents(rows)].sort(([a, x], [b, y]) => y.agents - x.agents || rank(x.kind) - rank(y.kind) || a.localeCompare(b));
  const [first, second] = ranked;
  if (!first) return {rater: null, models: [], agents: 0, sentence: ""};
  const [rater, {kind, agents}] = first;
  const models = modelsScoredBy(rows, rater, allModels);
  const runnerUp = second ? `; next is ${who(second[0], second[1].kind)} with ${fmt(second[1].agents)}` : "";
  const left = allModels.length - models.length;
  const unticked = left > 0 ? ` The ${left} model${left === 1 ? "" : "s"} it did not score ${left === 1 ? "is" : "are"} left unticked.` : "";
  return {
    rater,
    models,
    agents,
    sentence: `Opened on ${who(rater, kind)}, the rater that scored the most agents (${fmt(agents)} scored agent${agents === 1 ? "" : "s"}${runnerUp}), ` +
      `with the ${models.length} model${models.length === 1 ? "" : "s"} it scored.${unticked} Another rater opens with the models it scored.`,
  };
}
