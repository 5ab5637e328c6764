// Two runs of one LLM judge over the same SOTOPIA sample episodes, with a
// prompt change that moves one dimension and leaves the others alone: the
// pair `sociometer compare` and the Compare page show as their worked example
// (one dimension changes significantly, the others do not).

import {SOTOPIA_DIMENSIONS, type Dimension} from "../../src/lib/dimensions.js";
import {Random} from "./random.js";
import type {HumanRating, SotopiaDumpRecord} from "./sotopia.js";

export const RERUN_JUDGE = "gpt-4o";
export const RERUN_RUNS = ["prompt-v1", "prompt-v2"] as const;
/** The dimension the second prompt moves, and by how much (before rounding). */
export const RERUN_SHIFTED = "goal";
export const RERUN_SHIFT = 0.8;
export const RERUN_EPISODES = 60;

export interface RerunRating {
  episode_id: string;
  agent: 1 | 2;
  dimension: string;
  rater: string;
  rater_kind: "llm";
  run_id: string;
  value: number;
}

/** A rounded normal draw inside the dimension's range, redrawn (never clipped) when outside; the centre is held in range as drawScore in sotopia.ts does. */
function draw(rng: Random, d: Dimension, center: number, sd: number): number {
  const c = Math.min(d.hi, Math.max(d.lo, center));
  for (let attempt = 0; attempt < 1000; attempt++) {
    const v = Math.round(rng.normal(c, sd));
    if (v >= d.lo && v <= d.hi) return v === 0 ? 0 : v;
  }
  throw new Error(`could not draw a ${d.key} score in [${d.lo}, ${d.hi}] around ${center}`);
}

/**
 * Both runs score the first RERUN_EPISODES model-only episodes no annotator
 * rated (so the evaluator-agreement defaults stay as they were), around the
 * sample judge's own scores. Each (seat, run) has a leniency shared by its
 * seven scores plus a smaller per-score noise, as a rerun of a judge does;
 * the second prompt adds RERUN_SHIFT to `goal` only.
 */
export function judgeReruns(seed: string | number, episodes: readonly SotopiaDumpRecord[], human: readonly HumanRating[]): RerunRating[] {
  const rng = new Random(`reruns:${seed}`);
  const annotated = new Set(human.map((r) => r.episode_id));
  const chosen = episodes.filter((e) => !e.experiment_model_name_pairs.slice(1).includes("human") && !annotated.has(e.episode_id)).slice(0, RERUN_EPISODES);
  const out: RerunRating[] = [];
  for (const e of chosen) {
    for (const agent of [1, 2] as const) {
      const judged = e.rewards[agent - 1];
      for (const run of RERUN_RUNS) {
        const leniency = rng.normal(0, 1);
        for (const d of SOTOPIA_DIMENSIONS) {
          const shift = run === RERUN_RUNS[1] && d.key === RERUN_SHIFTED ? RERUN_SHIFT : 0;
          const base = judged[d.key as keyof typeof judged];
          out.push({episode_id: e.episode_id, agent, dimension: d.key, rater: RERUN_JUDGE, rater_kind: "llm", run_id: run,
            value: draw(rng, d, base + leniency + shift, 0.7)});
        }
      }
    }
  }
  return out;
}

/** The reruns as long CSV (format sotopia-ratings, with rater_kind and run_id). */
export function judgeRerunsCsv(rows: readonly RerunRating[]): string {
  return "episode_id,agent,dimension,rater,rater_kind,run_id,value\n" +
    rows.map((r) => `${r.episode_id},${r.agent},${r.dimension},${r.rater},${r.rater_kind},${r.run_id},${r.value}\n`).join("");
}
