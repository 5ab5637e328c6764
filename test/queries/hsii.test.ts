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
