// The engine tallies each pairing into classes of equal terms and adds count ×
// term exactly; the library adds the same terms one by one, exactly. These
// cases are where that could part: a sum whose order used to matter, and −0
// among the scores (equal to 0 for ranks and ranges, not for sums).

import {describe, expect, it} from "vitest";
import {columnsFromScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine} from "../../src/client/agreement-engine.js";
import {agreementTable, HUMANS, kappaAmongAllAnnotators, pairInstances, type RaterChoice, type RaterScore, type SpreadBasis} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";

const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);

const score = (episode: number, dimension: string, rater: string, rater_kind: string, value: number, played_by = "model"): RaterScore => {
  const {lo, hi} = SOTOPIA_DIMENSIONS.find((d) => d.key === dimension)!;
  return {episode_id: `e${episode}`, agent: 1, dimension, rater, rater_kind, value, lo, hi, played_by};
};

const libraryTable = (rows: readonly RaterScore[], a: RaterChoice, b: RaterChoice, bins: number, basis: SpreadBasis) =>
  kappaAmongAllAnnotators(agreementTable(pairInstances(rows, a, b), KEYS, {bins, basis}), rows, KEYS, {bins, basis});

describe("AgreementEngine with exact sums", () => {
  it("gives the exact bias where adding in instance order drifted (−1.2, not −1.2000000000000004)", () => {
    // GOAL: a judge against three annotators; A − B adds up exactly to −6 − 2^−51, which rounds to −6 (test/lib/agreement-sums.test.ts).
    const judge = [1, 2, 1, 10, 6];
    const humans = [[10, 9, 3], [3, 3, 5], [6, 6, 2], [7, 9, 1], [6, 2, 6]];
    const rows = judge.flatMap((j, e) => [score(e, "goal", "a1", "human", humans[e]![0]!), score(e, "goal", "a2", "human", humans[e]![1]!),
      score(e, "goal", "a3", "human", humans[e]![2]!), score(e, "goal", "judge", "llm", j)]);
    const view = new AgreementEngine(columnsFromScores(rows), KEYS).view({a: {rater: "judge"}, b: HUMANS, bins: 5, basis: "dimension"});
    const goal = view.table.find((r) => r.dimension === "goal" && r.played_by === "all")!;
    expect(goal.bias).toBe(-1.2);
    expect(view.table).toEqual(libraryTable(rows, {rater: "judge"}, HUMANS, 5, "dimension"));
  });

  it("keeps −0 apart from 0 in sums and together with it in ranks and ranges, as the library does", () => {
    // SECRET runs −10 … 0: the judge and the annotators give −0 on some instances and 0 on others.
    const zero = (e: number) => (e % 3 === 0 ? -0 : 0);
    const rows: RaterScore[] = [];
    for (let e = 0; e < 12; e++) {
      const played = e % 4 === 0 ? "human" : "model";
      rows.push(score(e, "secret", "a1", "human", e % 2 ? zero(e) : -(e % 5), played));
      if (e % 3 !== 1) rows.push(score(e, "secret", "a2", "human", zero(e + 1), played));
      rows.push(score(e, "secret", "judge", "llm", e < 6 ? zero(e) : -(e % 4), played));
      rows.push(score(e, "secret", "other", "llm", -0, played));
    }
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    const choices: [RaterChoice, RaterChoice][] = [[{rater: "judge"}, HUMANS], [HUMANS, {rater: "judge"}], [{rater: "a1"}, HUMANS], [{rater: "judge"}, {rater: "other"}], [{rater: "other"}, HUMANS]];
    for (const [a, b] of choices) {
      for (const basis of ["dimension", "annotators"] as const) {
        expect(engine.view({a, b, bins: 5, basis}).table, `${JSON.stringify(a)} ${JSON.stringify(b)} ${basis}`).toEqual(libraryTable(rows, a, b, 5, basis));
      }
    }
    // "other" scores −0 everywhere and the annotators' mean is never −0: its bias against them is −0 only where every difference is.
    const secret = engine.view({a: {rater: "other"}, b: {rater: "judge"}, bins: 5, basis: "dimension"}).table.find((r) => r.dimension === "secret" && r.played_by === "all")!;
    expect(secret).toEqual(libraryTable(rows, {rater: "other"}, {rater: "judge"}, 5, "dimension").find((r) => r.dimension === "secret" && r.played_by === "all"));
  });

  it("gives r and rho n/a for a rater whose run averages are one non-integer value (5/3), as the library does", () => {
    // Three runs of 2, 2, 1 average to 5/3 on each of 11 instances. The library's plain sums left a residue
    // there (r ≈ 1e-16, p = 1: the metrics audit); the engine decides constancy from its tallies, as the
    // library now does from min and max, so it cannot hang on whether its sums happen to cancel.
    const rows: RaterScore[] = [];
    for (let e = 0; e < 11; e++) {
      for (const v of [2, 2, 1]) rows.push(score(e, "goal", "judge", "llm", v));
      rows.push(score(e, "goal", "a1", "human", e % 10), score(e, "goal", "a2", "human", 9 - (e % 4)));
    }
    const view = new AgreementEngine(columnsFromScores(rows), KEYS).view({a: {rater: "judge"}, b: HUMANS, bins: 5, basis: "dimension"});
    const goal = view.table.find((r) => r.dimension === "goal" && r.played_by === "all")!;
    expect(goal.n).toBe(11);
    expect(goal.pearson?.r).toBeNaN();
    expect(goal.spearman?.r).toBeNaN();
    expect(view.table).toEqual(libraryTable(rows, {rater: "judge"}, HUMANS, 5, "dimension"));
  });
});
