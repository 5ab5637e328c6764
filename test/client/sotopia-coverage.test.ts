// What the SOTOPIA page opens on: the rater that scored the most agents (an
// agent counted once across dimensions), the models it scored, and a sentence
// saying why; an LLM judge wins a tie with the annotators' mean.

import {describe, expect, it} from "vitest";
import {coverageChoice, modelsScoredBy, scoredAgents} from "../../src/client/sotopia-coverage.js";
import type {SotopiaGroupRow} from "../../src/lib/sotopia.js";

const row = (rater: string, rater_kind: string, model: string, dimension: string, n: number): SotopiaGroupRow =>
  ({rater, rater_kind, model, partner: "p", dimension, n, sum: n, sum_sq: n}) as SotopiaGroupRow;

describe("the SOTOPIA page's opening choice", () => {
  // gpt-4 scored 20 agents of model a on every dimension; the humans 150 agents of b and c on goal, fewer elsewhere.
  const rows = [
    ...["goal", "believability", "overall"].map((d) => row("gpt-4", "llm", "a", d, 20)),
    row("humans", "human_mean", "b", "goal", 100), row("humans", "human_mean", "c", "goal", 50),
    row("humans", "human_mean", "b", "believability", 90), row("humans", "human_mean", "b", "overall", 400),
    row("rater-01", "human", "b", "goal", 30),
  ];

  it("counts a rater's agents on its best-covered dimension, never overall and never summed over dimensions", () => {
    expect(scoredAgents(rows).get("humans")).toEqual({kind: "human_mean", agents: 150});
    expect(scoredAgents(rows).get("gpt-4")).toEqual({kind: "llm", agents: 20});
  });

  it("opens on the annotators' mean with the models it scored, naming the next rater", () => {
    const choice = coverageChoice(rows, ["a", "b", "c", "d"]);
    expect(choice.rater).toBe("humans");
    expect(choice.models).toEqual(["b", "c"]);
    expect(choice.sentence).toBe("Opened on the mean of human annotators, the rater that scored the most agents " +
      "(150 scored agents; next is annotator rater-01 with 30), with the 2 models it scored. The 2 models it did not score are left unticked. Another rater opens with the models it scored.");
  });

  it("ticks, for whichever rater is chosen, the models that rater scored, in the page's order", () => {
    expect(modelsScoredBy(rows, "gpt-4", ["a", "b", "c", "d"])).toEqual(["a"]);
    expect(modelsScoredBy(rows, "rater-01", ["d", "c", "b", "a"])).toEqual(["b"]);
    expect(modelsScoredBy([...rows, row("rater-02", "human", "c", "goal", 0)], "rater-02", ["a", "b", "c"])).toEqual([]);
  });

  it("prefers an LLM judge on a tie, and has nothing to open on with no rows", () => {
    const tie = [row("judge", "llm", "a", "goal", 150), ...rows];
    expect(coverageChoice(tie, ["a", "b", "c"]).rater).toBe("judge");
    expect(coverageChoice([], [])).toEqual({rater: null, models: [], agents: 0, sentence: ""});
  });
});
