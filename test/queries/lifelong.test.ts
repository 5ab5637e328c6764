// LIFELONG_INSTANCES_SQL and CHECKPOINT_PAIRS_SQL with a rater that judged each
// episode twice (runs a and b): each instance counts once, its runs averaged,
// and checkpoint labels are combined by rule, never averaged into 0.5.

import {describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {CHECKPOINT_PAIRS_SQL, LIFELONG_INSTANCES_SQL} from "../../loaders/queries/lifelong.js";
import {rows} from "../../loaders/store/db.js";
import {lifelongData, lifelongRowViews, validationLookup} from "../../src/client/lifelong.js";
import {curves, type CheckpointPair, type LifelongInstance} from "../../src/lib/lifelong.js";
import {jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

const PASS = [1, 1, 1, 1, 1, 1, 1, 1];
const FAIL_FIRST = [0, 1, 1, 1, 1, 1, 1, 1];

// The audit's example (/tmp/audit/ex/runs.jsonl): BEL 8 and GOAL 5 in both runs; the first checkpoint's labels by run.
const episode = (index: number, runA: number[], runB: number[], human: number[], belB = 8) => ({
  episode_id: `ex-${index}`, chain_id: "c", chain_index: index + 1, memory_mode: "full", harder: false, scenario: "x",
  agents: [{model: "m", character: "A", goal: "g"}, {model: "m", character: "B", goal: "g"}],
  messages: [{agent: 1, content: "hi"}],
  ratings: [
    {agent: 1, rater: "gpt-4", rater_kind: "llm", run_id: "a", scores: {believability: 8, goal: 5}, checkpoints: runA},
    {agent: 1, rater: "gpt-4", rater_kind: "llm", run_id: "b", scores: {believability: belB, goal: 5}, checkpoints: runB},
    {agent: 1, rater: "ann", rater_kind: "human", checkpoints: human},
  ],
});

async function twoRunStore() {
  const store = await tempStore();
  await importFiles(store, "lifelong", [writeFile(store.dir, "runs.jsonl", jsonl([
    episode(0, FAIL_FIRST, PASS, FAIL_FIRST),
    episode(1, FAIL_FIRST, FAIL_FIRST, FAIL_FIRST),
    episode(2, PASS, PASS, PASS, 6),
    episode(3, FAIL_FIRST, PASS, PASS),
  ]))]);
  return store;
}

describe("a rater's several runs of one instance", () => {
  it("count the instance once, BEL and GOAL averaged and penalised BEL the mean of each run's Eq. 1", async () => {
    const store = await twoRunStore();
    const instances = await rows<LifelongInstance>(store.conn, LIFELONG_INSTANCES_SQL);
    const judge = instances.filter((i) => i.rater === "gpt-4");
    // ex-0: runs penalised max(8 − 5, 0) = 3 and 8 → 5.5; ex-1: 3 and 3; ex-2: BEL 8 and 6 → 7, penalised 8 and 6 → 7; ex-3 as ex-0.
    expect(judge.map((i) => [i.episode_id, i.runs, i.bel, i.goal, i.failed, i.penalised_bel])).toEqual([
      ["ex-0", 2, 8, 5, 0.5, 5.5], ["ex-1", 2, 8, 5, 1, 3], ["ex-2", 2, 7, 5, 0, 7], ["ex-3", 2, 8, 5, 0.5, 5.5],
    ]);
    // n was 2 per index (one per run): now 1, with the 2 runs shown beside it.
    const report = await getReport("lifelong").run(store, {rater: "gpt-4"});
    expect(report.rows.map((r) => [r.index, r.n, r.runs, r.bel, r.penalised_bel, r.penalised_n])).toEqual([
      [1, 1, 2, 8, 5.5, 1], [2, 1, 2, 8, 3, 1], [3, 1, 2, 7, 7, 1], [4, 1, 2, 8, 5.5, 1],
    ]);
    expect(report.notes.join("\n")).toContain("each counted once");
    expect(curves(instances, {rater: "gpt-4"}).map((c) => c.bel.n)).toEqual([1, 1, 1, 1]);
  });

  it("make one checkpoint label per side by the runs rule, a tie a split left out of TP, FP, TN, FN", async () => {
    const store = await twoRunStore();
    const pairs = await rows<CheckpointPair>(store.conn, CHECKPOINT_PAIRS_SQL);
    const first = pairs.filter((p) => p.dimension === "checkpoint:paper:no_repeated_sentences");
    expect(first.map((p) => [p.episode_id, p.llm_runs, p.llm_passes, p.human_runs, p.human_passes])).toEqual([
      ["ex-0", 2, 1, 1, 0], ["ex-1", 2, 0, 1, 0], ["ex-2", 2, 2, 1, 1], ["ex-3", 2, 1, 1, 1],
    ]);
    // Checkpoint 1, positive "fail": ex-0 and ex-3 split (one run each way); ex-1 fail/fail TP; ex-2 pass/pass TN.
    // Averaged, ex-0 (0.5 vs 0) was a FN and ex-3 (0.5 vs 1) a TN: recall 1/2 instead of 1.
    const report = await getReport("belext").run(store, {rater: "gpt-4"});
    expect(report.rows.find((r) => r.checkpoint === "no_repeated_sentences")).toMatchObject({n: 4, tp: 1, fp: 0, tn: 1, fn: 0, split: 2, precision: 1, recall: 1});
    expect(report.notes.join("\n")).toContain("--label-runs majority");
    expect(report.notes.join("\n")).toContain("Table 1 counts passes as positive");
    // The page's rows come from the same function, for each choice.
    const views = lifelongRowViews(lifelongData({lifelong_instances: [], checkpoint_pairs: pairs, checkpoint_failures: []} as never));
    expect(validationLookup(views, "gpt-4", "pass", "unanimous").find((r) => r.checkpoint === "no_repeated_sentences")).toMatchObject({tp: 1, fp: 0, tn: 1, fn: 0, split: 2});
  });
});
