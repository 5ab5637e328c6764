// Compare's HSII win rows are the n3 / n4 of METRICS.md § HSII: only cases among
// the n2 that have the verdicts the win policy needs, scored as src/lib/hsii.ts
// winScore; the policy is named in the metric. Repro from a new user's
// min-hsii.jsonl: model B picked the wrong target, yet its wins were compared.

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {hsiiCompareSql, HSII_COMPARE_SQL} from "../../loaders/queries/compare.js";
import {rows} from "../../loaders/store/db.js";
import {jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

type V = "win" | "tie" | "loss";
const judged = (forward: V | null, swapped: V | null) => [
  ...(forward ? [{stage: 3, rater: "j", position: "forward", verdict: forward}] : []),
  ...(swapped ? [{stage: 3, rater: "j", position: "swapped", verdict: swapped}] : []),
];
const kase = (case_id: string, model: string, target: string, judgments: object[], response?: string) => ({
  case_id, model, gold_target: ["Ann"], judgments,
  response: response ?? JSON.stringify({target, utterance: "hi"}),
});

async function winRows(policy?: "mean" | "strict" | "first") {
  const store = await tempStore();
  await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([
    kase("c1", "A", "Ann", judged("win", "win")),
    kase("c2", "A", "Ann", judged("loss", "loss")),
    kase("c3", "A", "Ann", judged("win", "tie")),
    kase("c4", "A", "Ann", judged(null, "tie")),
    // Outside the n2: wrong target, and not parsed.
    kase("c1", "B", "Bob", judged("win", "win")),
    kase("c2", "B", "Bob", judged("win", "win")),
    kase("c3", "B", "Ann", judged("win", "win"), "not json"),
  ]))]);
  const sql = policy ? hsiiCompareSql(policy) : HSII_COMPARE_SQL;
  const out = await rows<{task: string; model: string; metric: string; kind: string; value: number}>(store.conn,
    `SELECT task, model, metric, kind, value FROM (${sql}) WHERE metric LIKE 'stage3%' ORDER BY model, task`);
  store.close();
  return out.map((r) => [r.model, r.task.split(" ")[0], r.metric, r.kind, r.value]);
}

describe("Compare's HSII win rows", () => {
  it("default mean: win 1, tie 0.5, loss 0 averaged over both orders; a case missing an order is not a pair (as winScore); only n2 cases", async () => {
    expect(await winRows()).toEqual([
      ["A", "c1", "stage3_win (mean)", "continuous", 1],
      ["A", "c2", "stage3_win (mean)", "continuous", 0],
      ["A", "c3", "stage3_win (mean)", "continuous", 0.75],
    ]);
  });

  it("strict: a win in both orders; a case missing an order is not a pair", async () => {
    expect(await winRows("strict")).toEqual([
      ["A", "c1", "stage3_win (strict)", "binary", 1],
      ["A", "c2", "stage3_win (strict)", "binary", 0],
      ["A", "c3", "stage3_win (strict)", "binary", 0],
    ]);
  });

  it("first: the forward order alone", async () => {
    expect(await winRows("first")).toEqual([
      ["A", "c1", "stage3_win (first)", "continuous", 1],
      ["A", "c2", "stage3_win (first)", "continuous", 0],
      ["A", "c3", "stage3_win (first)", "continuous", 1],
    ]);
  });
});
