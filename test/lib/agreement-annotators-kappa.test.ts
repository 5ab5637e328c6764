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

  it("leaves a store without annotators as agreementTable gives it", () => {
    const llms = rows.filter((r) => r.rater_kind === "llm");
    const table = agreementTable(pairInstances(llms, {rater: "judge-x"}, {rater: "llm-2"}), KEYS);
    expect(kappaAmongAllAnnotators(table, llms, KEYS)).toEqual(table);
  });
});
