// `report agreement` and the agreement page on a store where no LLM rater
// scores what the human annotators scored (the real data: GPT-4 on the 20
// sotopia-rl episodes, people on the 154 Sotopia-π ones).

import {beforeEach, describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {AGREEMENT_ROWS_SQL, RATER_COVERAGE_SQL} from "../../loaders/queries/agreement.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {agreementTable, coverageText, kappaAmongAllAnnotators, pairInstances, type RaterCoverage, type RaterScore} from "../../src/lib/agreement.js";
import {defaultJudge, raterChoices, type AgreementData} from "../../src/client/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

// ep-1 is scored by the judge only; ep-2 and ep-3 by two annotators only, on GOAL.
// GOAL bins (k = 5 over [0, 10], width 2): 7 and 6 agree, 2 and 9 do not, 5 and 4 agree, 0 and 1 agree:
// P_o = 3/4, kappa = (0.75 − 0.2) / 0.8 = 0.6875.
const HUMAN_GOAL = "episode_id,agent,dimension,rater,value\n" +
  "ep-2,1,goal,h1,7\nep-2,1,goal,h2,6\nep-2,2,goal,h1,2\nep-2,2,goal,h2,9\n" +
  "ep-3,1,goal,h1,5\nep-3,1,goal,h2,4\nep-3,2,goal,h1,0\nep-3,2,goal,h2,1\n";

const NO_OVERLAP = "No LLM rater scores an episode that a human annotator scored, so no LLM judge can be compared with people here; " +
  "agreement among the human annotators is all there is to show. To produce a judge to compare, run `sociometer judge sotopia-eval --model MODEL` " +
  "(it scores every SOTOPIA episode in the store, the 2 human-rated episodes among them).";
const HOLDS = "SOTOPIA scores in the store: judge-x (llm) on 1 episode (0 of them also by a human annotator); " +
  "2 human annotators on 2 episodes (2 of them by two or more annotators, 0 also by an LLM rater).";

describe("agreement when no LLM rater overlaps the human annotators", () => {
  let store: Store & {dir: string};
  // tempStore closes its store after each test.
  beforeEach(async () => {
    store = await tempStore();
    const episodes = [dumpRecord("ep-1"), dumpRecord("ep-2", {raw_rewards: []}), dumpRecord("ep-3", {raw_rewards: []})];
    await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl(episodes))]);
    await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "h.csv", HUMAN_GOAL)]);
  });

  it("report agreement says what the store holds, which command would produce a judge, and shows the annotators' kappa", async () => {
    const report = await getReport("agreement").run(store, {});
    expect(report.title).toBe("Agreement among the human annotators, per dimension and by who played the rated agent");
    expect(report.notes.slice(0, 2)).toEqual([HOLDS, NO_OVERLAP]);
    expect(report.rows.filter((r) => r.dimension === "goal" || r.dimension === "all")).toEqual([
      {dimension: "goal", played_by: "all", items: 4, kappa_humans: 0.6875, po_humans: 0.75},
      {dimension: "goal", played_by: "model", items: 4, kappa_humans: 0.6875, po_humans: 0.75},
      {dimension: "all", played_by: "all", items: 4, kappa_humans: 0.6875, po_humans: 0.75},
      {dimension: "all", played_by: "model", items: 4, kappa_humans: 0.6875, po_humans: 0.75},
    ]);
    // Naming a rater still compares it, with the same account of the store at the end of the notes.
    const named = await getReport("agreement").run(store, {raters: ["h1"]});
    expect(named.notes.slice(-2)).toEqual([HOLDS, NO_OVERLAP]);
  });

  it("the page starts on a human annotator as A, says so through the same sentences, and still shows the annotators' kappa", async () => {
    const scores = await rows<RaterScore & {responses: number; model: string; multiply_rated_episodes: number}>(store.conn, AGREEMENT_ROWS_SQL);
    const raters = [...new Set(scores.map((s) => s.rater))].map((rater) => ({rater, rater_kind: "human", instances: scores.filter((s) => s.rater === rater).length}));
    const data: AgreementData = {raters, humans: 2};
    expect(defaultJudge(data)).toBeUndefined();
    const a = raterChoices(data).a[0]!;
    expect(a).toEqual({rater: "h1"});
    expect(coverageText(await rows<RaterCoverage>(store.conn, RATER_COVERAGE_SQL))).toEqual({lines: [HOLDS, NO_OVERLAP], llmMeetsHumans: false});

    // A = h1 against the mean of the others: leaving h1 out of "the annotators" left one annotator per item, so no kappa (0 items).
    const dimensions = SOTOPIA_DIMENSIONS.map((d) => d.key);
    const table = agreementTable(pairInstances(scores, a, "humans"), dimensions);
    const goal = (t: typeof table) => t.find((r) => r.dimension === "goal" && r.played_by === "all")!;
    expect(goal(table).kappaHumans.items).toBe(0);
    const fixed = goal(kappaAmongAllAnnotators(table, scores, dimensions));
    expect([fixed.kappaHumans.items, fixed.kappaHumans.pairwiseAgreement, fixed.kappaHumans.kappa]).toEqual([4, 0.75, 0.6875]);
  });
});
