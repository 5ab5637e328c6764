// A small multiply-rated SOTOPIA set for the agreement worker's scheduling tests.

import type {RaterScore} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";

/** 60 episodes, two agents, every dimension: annotator-1 … 3 by a fixed pattern, gpt-4 and llama on every instance; every fifth episode played by people. */
export function sixtyEpisodeScores(): RaterScore[] {
  const out: RaterScore[] = [];
  for (let e = 0; e < 60; e++) {
    for (const agent of [1, 2]) {
      const played_by = e % 5 === 0 ? "human" : "model";
      for (const [j, d] of SOTOPIA_DIMENSIONS.entries()) {
        const row = (rater: string, rater_kind: string, value: number): RaterScore =>
          ({episode_id: `ep-${String(e).padStart(3, "0")}`, agent, dimension: d.key, rater, rater_kind, value, lo: d.lo, hi: d.hi, played_by});
        const at = (k: number) => d.lo + ((e * 7 + agent * 3 + j * 5 + k * 11) % (d.hi - d.lo + 1));
        // Sorted by rater name, as the rows file orders an instance's scores.
        for (const [k, h] of ["annotator-1", "annotator-2", "annotator-3"].entries()) if ((e + k + j) % 4 !== 0) out.push(row(h, "human", at(k)));
        out.push(row("gpt-4", "llm", at(5)));
        out.push(row("llama", "llm", at(6)));
      }
    }
  }
  return out;
}
