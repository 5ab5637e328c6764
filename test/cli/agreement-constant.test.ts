// `report agreement` where rater A's score is the same non-integer on every
// instance (its five runs 7, 7, 7, 6, 6 average to 6.6 each time): r is n/a,
// not ≈ 1e-16 with p = 1 (the audit's judgex.csv).

import {describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

const HUMAN_GOAL = "episode_id,agent,dimension,rater,value\n" +
  "ep-2,1,goal,h1,7\nep-2,1,goal,h2,6\nep-2,2,goal,h1,2\nep-2,2,goal,h2,9\n" +
  "ep-3,1,goal,h1,5\nep-3,1,goal,h2,4\nep-3,2,goal,h1,0\nep-3,2,goal,h2,1\n";

const JUDGE_GOAL = "episode_id,agent,dimension,rater,rater_kind,value,run_id\n" +
  ["ep-2,1", "ep-2,2", "ep-3,1"].flatMap((instance) =>
    [7, 7, 7, 6, 6].map((value, run) => `${instance},goal,judge-x,llm,${value},r${run}`)).join("\n") + "\n";

describe("agreement with a constant non-integer rater", () => {
  it("gives r, p and rho n/a, and says what the within-one-sd share's sd is over", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("ep-2", {raw_rewards: []}), dumpRecord("ep-3", {raw_rewards: []})]))]);
    await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "h.csv", HUMAN_GOAL), writeFile(store.dir, "j.csv", JUDGE_GOAL)]);
    const report = await getReport("agreement").run(store, {raters: ["judge-x"]});
    const goal = report.rows.find((r) => r.dimension === "goal" && r.played_by === "all")!;
    // Human means 6.5, 5.5, 4.5 against 6.6 three times: bias = 6.6 − 5.5 = 1.1. Three copies of 6.6 sum to
    // a double whose third is not 6.6 again, so Σdx² was about 1e-30 and r came out ≈ −2e-16 (four would divide exactly).
    expect(goal.n).toBe(3);
    expect(goal.bias).toBeCloseTo(1.1, 12);
    expect([goal.r, goal.p, goal.rho]).toEqual([NaN, NaN, NaN]);
    expect(report.notes.join("\n")).toContain("of B's scores over the row's instances of the dimension: in a model or human row over that split only");
  });
});
