// Agreement on the real SOTOPIA human annotations, checked against an independent
// computation: a separate Python script (csv module; distinct rows; an annotator's
// repeated responses averaged; 5 equal-width bins; items with ≥ 2 annotators) gave
// the values below, once.

import {expect, it} from "vitest";
import {AGREEMENT_ROWS_SQL, agreementRowsSql} from "../../loaders/queries/agreement.js";
import {rows} from "../../loaders/store/db.js";
import {agreementTable, HUMANS, pairInstances, type RaterScore} from "../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {describeWithFixtures} from "../helpers/fixtures.js";
import {tempSotopiaPiStore} from "../helpers/store.js";


const PYTHON_KAPPA: Record<string, [items: number, po: number, kappa: number]> = {
  believability: [294, 0.4421768707482993, 0.3027210884353741],
  relationship: [294, 0.3832199546485261, 0.2290249433106576],
  knowledge: [294, 0.5351473922902493, 0.4189342403628116],
  secret: [294, 0.9829931972789115, 0.9787414965986393],
  social_rules: [294, 0.8299319727891157, 0.7874149659863946],
  financial_and_material_benefits: [294, 0.6156462585034014, 0.5195578231292517],
  goal: [294, 0.5317460317460316, 0.4146825396825395],
  all: [2058, 0.617265954000648, 0.52158244250081],
};

describeWithFixtures("agreement among the real human annotators", () => {
  it("reproduces Randolph's kappa and the perceived ranges of an independent computation", async () => {
    const store = await tempSotopiaPiStore();
    const scores = await rows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
    const instances = pairInstances(scores, HUMANS, HUMANS);
    const table = agreementTable(instances, SOTOPIA_DIMENSIONS.map((d) => d.key));

    for (const [dimension, [items, po, kappa]] of Object.entries(PYTHON_KAPPA)) {
      const row = table.find((r) => r.dimension === dimension && r.played_by === "all")!;
      expect(row.kappaHumans.items, dimension).toBe(items);
      expect(row.kappaHumans.pairwiseAgreement, dimension).toBeCloseTo(po, 12);
      expect(row.kappaHumans.kappa, dimension).toBeCloseTo(kappa, 12);
    }
    // Perceived ranges of GOAL: 294 instances with ≥ 2 annotators in 48 distinct ranges; [0, 0] is the largest group (64).
    const goal = table.find((r) => r.dimension === "goal" && r.played_by === "all")!.ranges;
    expect([goal.n, goal.groups.length]).toEqual([294, 48]);
    expect(goal.groups.slice(0, 4).map((g) => [g.min, g.max, g.n])).toEqual([[0, 0, 64], [0, 1, 15], [0, 2, 20], [0, 3, 19]]);
  });
});

describeWithFixtures("agreementRowsSql with a limit", () => {
  it("ships the first N multiply-rated episodes by id and says how many there are in all", async () => {
    const store = await tempSotopiaPiStore();
    const limited = await rows<{episode_id: string; multiply_rated_episodes: number}>(store.conn, agreementRowsSql(10));
    const all = await rows<{episode_id: string}>(store.conn, agreementRowsSql(null));
    const ids = [...new Set(all.map((r) => r.episode_id))].sort();
    expect([...new Set(limited.map((r) => r.episode_id))].sort()).toEqual(ids.slice(0, 10));
    // 147 of the 154 annotated episodes have two or more distinct annotators.
    expect(limited[0]!.multiply_rated_episodes).toBe(147);
    expect(ids).toHaveLength(147);
  });
});
