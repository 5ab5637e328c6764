// The page's engine gives the annotators' kappa as the library does, to the
// last bit, for every rater A: over every instance two or more annotators
// scored (test/helpers/annotated-goal.ts), not over A's instances.

import {describe, expect, it} from "vitest";
import {columnsFromScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine} from "../../src/client/agreement-engine.js";
import {agreementTable, HUMANS, kappaAmongAllAnnotators, pairInstances, type RaterChoice} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {AMONG_ANNOTATORS, annotatedGoalRows, WITH_A} from "../helpers/annotated-goal.js";

const KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);

/** Where two values differ: numbers in any bit (Object.is, NaN equal to NaN), anything else when not equal. */
function differences(x: unknown, y: unknown, at = "", out: string[] = []): string[] {
  if (typeof y === "number") {
    if (!(typeof x === "number" && (Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))))) out.push(`${at}: ${String(x)} ≠ ${y}`);
  } else if (y !== null && typeof y === "object") {
    if (x === null || typeof x !== "object" || Object.keys(x).length !== Object.keys(y).length) out.push(`${at}: ${JSON.stringify(x)} ≠ ${JSON.stringify(y)}`);
    else for (const key of Object.keys(y)) differences((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], `${at}.${key}`, out);
  } else if (x !== y) out.push(`${at}: ${String(x)} ≠ ${String(y)}`);
  return out;
}

describe("AgreementEngine: kappa among the annotators", () => {
  const rows = annotatedGoalRows();
  const choices: RaterChoice[] = [HUMANS, {rater: "judge-x"}, {rater: "llm-2"}, {rater: "h1"}, {rater: "h2"}, {rater: "h3"}];

  it("equals the library's table for every A and B, and its annotators' kappa is over all 5 annotated items whatever A is", () => {
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    let compared = 0;
    for (const a of choices) {
      for (const b of choices) {
        if (JSON.stringify(a) === JSON.stringify(b)) continue;
        for (const bins of [2, 5]) {
          const where = `A = ${JSON.stringify(a)}, B = ${JSON.stringify(b)}, k = ${bins}`;
          const library = kappaAmongAllAnnotators(agreementTable(pairInstances(rows, a, b), KEYS, {bins}), rows, a, KEYS, {bins});
          const table = engine.view({a, b, bins, basis: "dimension"}).table;
          expect(differences(table, library, where).slice(0, 5)).toEqual([]);
          if (bins !== 5) continue;
          const goal = table.find((r) => r.dimension === "goal" && r.played_by === "all")!;
          expect([goal.kappaHumans.items, goal.kappaHumans.pairwiseAgreement, goal.kappaHumans.kappa], where)
            .toEqual([AMONG_ANNOTATORS.items, expect.closeTo(AMONG_ANNOTATORS.pairwiseAgreement, 14), expect.closeTo(AMONG_ANNOTATORS.kappa, 14)]);
          compared++;
        }
      }
    }
    expect(compared).toBe(30);
  });

  it("keeps the kappa with A over A's own instances: 2 items for judge-x, 1 for llm-2", () => {
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    for (const rater of ["judge-x", "llm-2"]) {
      const goal = engine.view({a: {rater}, b: HUMANS, bins: 5, basis: "dimension"}).table.find((r) => r.dimension === "goal" && r.played_by === "all")!;
      expect(goal.kappaWithJudge.items, rater).toBe(WITH_A[rater]!.items);
      expect(goal.kappaWithJudge.kappa, rater).toBeCloseTo(WITH_A[rater]!.kappa, 14);
    }
  });
});
