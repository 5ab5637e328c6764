// The page's engine gives the annotators' kappa as the library does, to the
// last bit, for every rater A: over every instance two or more annotators
// scored (test/helpers/annotated-goal.ts), not over A's instances.

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {AGREEMENT_ROWS_SQL} from "../../loaders/queries/agreement.js";
import {rows as queryRows} from "../../loaders/store/db.js";
import {columnsFromScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine} from "../../src/client/agreement-engine.js";
import {agreementTable, HUMANS, kappaAmongAllAnnotators, pairInstances, type RaterChoice, type RaterScore} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {AMONG_ANNOTATORS, annotatedGoalRows, WITH_A} from "../helpers/annotated-goal.js";
import {describeWithFixtures} from "../helpers/fixtures.js";
import {tempSotopiaPiStore, writeFile} from "../helpers/store.js";

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
          const library = kappaAmongAllAnnotators(agreementTable(pairInstances(rows, a, b), KEYS, {bins}), rows, KEYS, {bins});
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

  it("equals the library where A has no pairs in a split the annotators scored (human-played agents judge-x never judged)", () => {
    const mixed = rows.map((r) => (r.episode_id === "ep-3" ? {...r, played_by: "human"} : r));
    const engine = new AgreementEngine(columnsFromScores(mixed), KEYS);
    for (const a of choices) {
      const where = `A = ${JSON.stringify(a)}`;
      const library = kappaAmongAllAnnotators(agreementTable(pairInstances(mixed, a, HUMANS), KEYS, {bins: 5}), mixed, KEYS, {bins: 5});
      expect(differences(engine.view({a, b: HUMANS, bins: 5, basis: "dimension"}).table, library, where).slice(0, 5)).toEqual([]);
    }
    const judged = engine.view({a: {rater: "judge-x"}, b: HUMANS, bins: 5, basis: "dimension"}).table;
    expect(judged.filter((r) => r.dimension === "goal").map((r) => [r.played_by, r.n, r.kappaHumans.items])).toEqual([["all", 2, 5], ["model", 2, 4], ["human", 0, 1]]);
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

describeWithFixtures("AgreementEngine: kappa among the real SOTOPIA-π annotators", () => {
  it("is BEL κ 0.3027 over 294 instances (test/queries/agreement.test.ts's independent value) for every A, an LLM that scored 5 of them included", async () => {
    const store = await tempSotopiaPiStore();
    // An LLM judge on agent 1's BEL of five annotated episodes only, as a judge run on part of the store leaves it.
    const annotated = [...new Set((await queryRows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL)).map((r) => r.episode_id))].slice(0, 5);
    const judge = "episode_id,agent,dimension,rater,rater_kind,run_id,value\n" + annotated.map((e) => `${e},1,believability,judge-part,llm,run-1,5`).join("\n") + "\n";
    await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "judge.csv", judge)]);
    const rows = await queryRows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
    const engine = new AgreementEngine(columnsFromScores(rows), KEYS);
    const raters = [...new Set(rows.map((r) => r.rater))];
    expect(raters.length).toBe(21);
    for (const a of [...raters.map((rater): RaterChoice => ({rater})), HUMANS]) {
      const b: RaterChoice = a === HUMANS ? {rater: "judge-part"} : HUMANS;
      const where = `A = ${JSON.stringify(a)}`;
      const library = kappaAmongAllAnnotators(agreementTable(pairInstances(rows, a, b), KEYS), rows, KEYS);
      const table = engine.view({a, b, bins: 5, basis: "dimension"}).table;
      expect(differences(table, library, where).slice(0, 5)).toEqual([]);
      const bel = table.find((r) => r.dimension === "believability" && r.played_by === "all")!.kappaHumans;
      expect([bel.items, bel.kappa], where).toEqual([294, expect.closeTo(0.3027210884353741, 12)]);
    }
  });
});
