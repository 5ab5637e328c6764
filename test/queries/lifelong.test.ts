// LIFELONG_INSTANCES_SQL and CHECKPOINT_PAIRS_SQL with a rater that judged each
// episode twice (runs a and b): each instance counts once, its runs averaged,
// and checkpoint labels are combined by rule, never averaged into 0.5.

import {describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {CHECKPOINT_FAILURES_SQL, CHECKPOINT_PAIRS_SQL, LIFELONG_INSTANCES_SQL, lifelongGroupsSql} from "../../loaders/queries/lifelong.js";
import {rows} from "../../loaders/store/db.js";
import {curvesFromGroups, failureRates, lifelongData, lifelongRowViews, validationLookup, type CheckpointFailures, type LifelongGroup} from "../../src/client/lifelong.js";
import {curves, type CheckpointPair, type CurveRow, type LifelongInstance} from "../../src/lib/lifelong.js";
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

// The second audit's example (/tmp/audit2/ex/lifelong_runs.jsonl), all at chain index 1:
// lx-0 judged in three runs, each BEL 8 failing checkpoint 1; lx-1 one run, BEL 8, passing
// every checkpoint; lx-2 one run, BEL 2, with no checklist.
const auditEpisode = (id: string, runs: {bel: number; checkpoints?: number[]}[]) => ({
  episode_id: id, chain_id: id, chain_index: 1, memory_mode: "full", harder: false, scenario: "x",
  agents: [{model: "m", character: "A", goal: "g"}, {model: "m", character: "B", goal: "g"}],
  messages: [{agent: 1, content: "hi"}],
  ratings: runs.map((r, k) => ({agent: 1, rater: "gpt-4", rater_kind: "llm", run_id: "abc"[k], scores: {believability: r.bel, goal: 5}, checkpoints: r.checkpoints})),
});

async function auditStore() {
  const store = await tempStore();
  await importFiles(store, "lifelong", [writeFile(store.dir, "lifelong_runs.jsonl", jsonl([
    auditEpisode("lx-0", [{bel: 8, checkpoints: FAIL_FIRST}, {bel: 8, checkpoints: FAIL_FIRST}, {bel: 8, checkpoints: FAIL_FIRST}]),
    auditEpisode("lx-1", [{bel: 8, checkpoints: PASS}]),
    auditEpisode("lx-2", [{bel: 2}]),
  ]))]);
  return store;
}

describe("checkpoint failure rates", () => {
  it("count each agent-episode once, its runs' share of failures averaged first", async () => {
    const store = await auditStore();
    const failures = await rows<CheckpointFailures>(store.conn, CHECKPOINT_FAILURES_SQL);
    const first = failures.filter((f) => f.dimension === "checkpoint:paper:no_repeated_sentences");
    // lx-0 failed in 3 of 3 runs (share 1), lx-1 in 0 of 1 (share 0): 2 agent-episodes, 4 runs, Σ share 1.
    expect(first.map((f) => [f.chain_index, f.n, f.runs, f.failed])).toEqual([[1, 2, 4, 1]]);
    // Per agent-episode (1 + 0) / 2 = 0.5; counting runs gave 3/4 = 0.75.
    const rates = failureRates(failures, {rater: "gpt-4", model: null, window: 5});
    expect(rates.filter((r) => r.dimension === first[0]!.dimension).map((r) => [r.n, r.runs, r.rate])).toEqual([[2, 4, 0.5]]);
    expect(rates.filter((r) => r.dimension !== first[0]!.dimension).map((r) => r.rate)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const report = await getReport("checkpoint-failures").run(store, {rater: "gpt-4"});
    expect(report.rows.filter((r) => r.checkpoint === "no_repeated_sentences").map((r) => [r.from, r.to, r.n, r.runs, r.rate])).toEqual([[1, 1, 2, 4, 0.5]]);
  });
});

describe("raw against penalised BEL", () => {
  it("sets beside penalised BEL the BEL of the same instances, with both n", async () => {
    const store = await auditStore();
    const instances = await rows<LifelongInstance>(store.conn, LIFELONG_INSTANCES_SQL);
    // lx-0: penalised max(8 − 5, 0) = 3 per run; lx-1: 8; lx-2 has no checklist, so neither.
    expect(instances.map((i) => [i.episode_id, i.bel, i.penalised_bel, i.bel_checklisted])).toEqual([["lx-0", 8, 3, 8], ["lx-1", 8, 8, 8], ["lx-2", 2, null, null]]);
    // All instances: BEL (8 + 8 + 2) / 3 = 6, n 3. The checklisted two: BEL 8 and penalised (3 + 8) / 2 = 5.5, n 2: a gap of 2.5, not 0.5.
    const expected = [[6, 3, 8, 2, 5.5, 2]];
    const shape = (c: CurveRow) => [c.bel.mean, c.bel.n, c.bel_checklisted.mean, c.bel_checklisted.n, c.penalised.mean, c.penalised.n];
    expect(curves(instances, {rater: "gpt-4"}).map(shape)).toEqual(expected);
    await store.conn.run(`CREATE TEMP TABLE li AS ${LIFELONG_INSTANCES_SQL}`);
    const groups = await rows<LifelongGroup>(store.conn, lifelongGroupsSql("li"));
    expect(curvesFromGroups(groups, {rater: "gpt-4"}).map(shape)).toEqual(expected);
    const report = await getReport("lifelong").run(store, {rater: "gpt-4"});
    expect(report.rows.map((r) => [r.bel, r.n, r.bel_checklisted, r.penalised_bel, r.penalised_n])).toEqual([[6, 3, 8, 5.5, 2]]);
  });
});
