// The "human annotators" kappa is the paper's (SOTOPIA Appendix E.1): among
// every annotator, over every instance two or more of them scored, whatever
// rater A is; only the kappa with A as one more rater follows A's instances.

import {describe, expect, it} from "vitest";
import {agreementTable, HUMANS, kappaAmongAllAnnotators, pairInstances, type Kappa, type RaterChoice} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {AMONG_ANNOTATORS, annotatedGoalRows, WITH_A} from "../helpers/annotated-goal.js";

const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);

const expectKappa = (k: Kappa, expected: {items: number; pairwiseAgreement: number; kappa: number}, where: string) => {
  expect(k.items, where).toBe(expected.items);
  expect(k.pairwiseAgreement, where).toBeCloseTo(expected.pairwiseAgreement, 14);
  expect(k.kappa, where).toBeCloseTo(expected.kappa, 14);
};

describe("kappaAmongAllAnnotators", () => {
  const rows = annotatedGoalRows();
  const tableFor = (a: RaterChoice, b: RaterChoice = HUMANS) => kappaAmongAllAnnotators(agreementTable(pairInstances(rows, a, b), KEYS), rows, KEYS);
  const cell = (table: ReturnType<typeof tableFor>, dimension: string) => table.find((r) => r.dimension === dimension && r.played_by === "all")!;

  it("gives the annotators' kappa over all 5 annotated items when A is an LLM that scored 2 of them, and the kappa with A over those 2", () => {
    const table = tableFor({rater: "judge-x"});
    for (const dimension of ["goal", "all"]) {
      expect(cell(table, dimension).n, dimension).toBe(2);
      expectKappa(cell(table, dimension).kappaHumans, AMONG_ANNOTATORS, dimension);
      expectKappa(cell(table, dimension).kappaWithJudge, WITH_A["judge-x"]!, dimension);
    }
    // A dimension nobody annotated: no items, no kappa.
    expect(cell(table, "secret").kappaHumans.items).toBe(0);
    expect(cell(table, "secret").kappaHumans.kappa).toBeNaN();
  });

  it("gives the same annotators' kappa for every rater A and B: an LLM on one singly-annotated instance, an annotator, the humans", () => {
    const choices: [RaterChoice, RaterChoice][] = [
      [{rater: "llm-2"}, HUMANS], [{rater: "h1"}, HUMANS], [{rater: "h3"}, HUMANS], [{rater: "judge-x"}, {rater: "h2"}], [HUMANS, {rater: "judge-x"}],
    ];
    for (const [a, b] of choices) {
      const where = `A = ${JSON.stringify(a)}, B = ${JSON.stringify(b)}`;
      expectKappa(cell(tableFor(a, b), "goal").kappaHumans, AMONG_ANNOTATORS, where);
    }
    for (const rater of ["llm-2", "h1", "h3"]) expectKappa(cell(tableFor({rater}), "goal").kappaWithJudge, WITH_A[rater]!, rater);
  });

  it("shows the annotators' kappa on a split A has no pairs in: judge-x judged no human-played agent", () => {
    // ep-3's agents played by people: the annotators scored them, judge-x (ep-1 only) did not.
    const mixed = rows.map((r) => (r.episode_id === "ep-3" ? {...r, played_by: "human"} : r));
    const table = kappaAmongAllAnnotators(agreementTable(pairInstances(mixed, {rater: "judge-x"}, HUMANS), KEYS), mixed, KEYS);
    const human = table.filter((r) => r.dimension === "goal" && r.played_by === "human");
    expect(human.map((r) => r.n)).toEqual([0]);
    // ep-3 agent 1 is the one human-played item two or more annotators scored: 3, 8, 9 in bins 1, 4, 4, P = 1/3, κ = (1/3 − 1/5) / (4/5) = 1/6.
    expectKappa(human[0]!.kappaHumans, {items: 1, pairwiseAgreement: 1 / 3, kappa: 1 / 6}, "goal, human-played");
    expect(human[0]!.kappaWithJudge.items).toBe(0);
    expect(human[0]!.bias).toBeNaN();
    // In the table's order: the goal rows all, model, human; the pooled rows likewise, each with the annotators' kappa.
    expect(table.filter((r) => r.dimension === "goal" || r.dimension === "all").map((r) => `${r.dimension} ${r.played_by} ${r.n} ${r.kappaHumans.items}`))
      .toEqual(["goal all 2 5", "goal model 2 4", "goal human 0 1", "all all 2 5", "all model 2 4", "all human 0 1"]);
  });

  it("leaves a store without annotators as agreementTable gives it", () => {
    const llms = rows.filter((r) => r.rater_kind === "llm");
    const table = agreementTable(pairInstances(llms, {rater: "judge-x"}, {rater: "llm-2"}), KEYS);
    expect(kappaAmongAllAnnotators(table, llms, KEYS)).toEqual(table);
  });
});
