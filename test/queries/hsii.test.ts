// HSII_COT_SQL keys COT rounds by episode: runs of one case stay separate (i, j) of Definition 2.

import {describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {HSII_COT_SQL} from "../../loaders/queries/hsii.js";
import {rows} from "../../loaders/store/db.js";
import {cotByModel, type CotRow} from "../../src/client/hsii.js";
import {jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

const record = (episode_id: string, cot: boolean, rounds: boolean[]) => ({
  episode_id, case_id: "case-1", model: "m", cluster: "work", cot, gold_target: ["Ada"], parsed: true, selected_target: "Ada",
  cot_runs: [{variant: "reflect", rounds}],
});

describe("COT complexity per episode", () => {
  it("counts two episodes of one case, solved at rounds 3 and 1, as two runs of mean complexity 2", async () => {
    const store = await tempStore();
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([
      record("run-a", true, [false, false, false, true]),
      record("run-b", true, [false, true]),
    ]))]);
    const runs = await rows<CotRow>(store.conn, HSII_COT_SQL);
    expect(runs.map((r) => [r.episode_id, r.rounds.length])).toEqual([["run-a", 4], ["run-b", 2]]);
    const report = await getReport("cot").run(store, {});
    // k = 3 and k = 1: (3 + 1) / 2 = 2; neither solved at round 0; both within the cap.
    expect(report.rows).toEqual([{model: "m", runs: 2, success_without_cot: 0, success_with_cot: 1, rounds_to_threshold: 3, complexity: 2}]);
    // The page computes from the same rows.
    expect(cotByModel(runs, {cap: 128, threshold: 0.7, maxK: 3}).summaries[0]).toMatchObject({model: "m", runs: 2, complexity: 2});
  });

  it("keeps a case's record without COT apart from its record with COT", async () => {
    const store = await tempStore();
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([
      record("plain", false, [true]),
      record("with-cot", true, [false, false, true]),
    ]))]);
    const runs = await rows<CotRow>(store.conn, HSII_COT_SQL);
    expect(runs.map((r) => [r.episode_id, r.cot, r.rounds])).toEqual([["plain", false, [true]], ["with-cot", true, [false, false, true]]]);
    const report = await getReport("cot").run(store, {});
    // k = 0 and k = 2: complexity 1; one of two solved without COT.
    expect(report.rows).toEqual([{model: "m", runs: 2, success_without_cot: 0.5, success_with_cot: 1, rounds_to_threshold: 2, complexity: 1}]);
  });
});

describe("report hsii with comparisons judged in part", () => {
  // Four cases, all parsed with the right target (n2 = 4): stage 3 judged (win, win), (win, loss), forward only (win), not at all;
  // no stage-4 verdict anywhere.
  const judged = (verdicts: [string, string][]) => verdicts.map(([position, verdict]) => ({stage: 3, rater: "gpt-4", position, verdict}));
  const partial = (case_id: string, judgments: object[]) => ({
    case_id, model: "m", cluster: "work", cot: false, gold_target: ["Ada"], parsed: true, selected_target: "Ada", judgments,
  });

  it("takes r3 over the cases judged as the policy needs, counts the rest, and leaves r4 and the score n/a without stage-4 verdicts", async () => {
    const store = await tempStore();
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([
      partial("c1", judged([["forward", "win"], ["swapped", "win"]])),
      partial("c2", judged([["forward", "win"], ["swapped", "loss"]])),
      partial("c3", judged([["forward", "win"]])),
      partial("c4", []),
    ]))]);
    const report = getReport("hsii");
    // mean: c1 1, c2 0.5 over 2 judged → r3 0.75 (before: 1.5 / 4 = 0.375, or 2.5 / 4 with c3 as a one-order win).
    const mean = await report.run(store, {});
    expect(mean.rows).toEqual([expect.objectContaining({n2: 4, n3: 1.5, unjudged_3: 2, unjudged_4: 4, r3: 0.75, r4: NaN, hsii: NaN})]);
    expect(mean.notes.join("\n")).toContain("r3 = n3 / (n2 − unjudged_3)");
    // first: c1, c2, c3 forward wins over 3 judged → r3 1.
    const first = await report.run(store, {winPolicy: "first"});
    expect(first.rows).toEqual([expect.objectContaining({n3: 3, unjudged_3: 1, r3: 1})]);
  });
});
