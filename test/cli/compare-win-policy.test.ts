// `sociometer compare hsii --win-policy mean|strict|first`: a hand-worked store
// where the three policies give different stage-3 wins (n3) for both models,
// compared case by case; the header names the policy, and a policy given for
// another benchmark, or one that does not exist, is refused.

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {compareFromArgs} from "../../loaders/cli/compare.js";
import {importFiles} from "../../loaders/import/session.js";
import type {CompareOptions} from "../../src/lib/compare.js";
import {cli} from "../helpers/cli.js";
import {jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

type V = "win" | "tie" | "loss";
const kase = (case_id: string, model: string, forward: V, swapped: V) => ({
  case_id, model, gold_target: ["Ann"], response: JSON.stringify({target: "Ann", utterance: "hi"}),
  judgments: [{stage: 3, rater: "j", position: "forward", verdict: forward}, {stage: 3, rater: "j", position: "swapped", verdict: swapped}],
});

// Stage-3 win per case under mean (points averaged over the orders), strict (both orders win), first (forward only):
//        A                         B
// c1  win, win   1    1  1     win,  tie   0.75  0  1
// c2  win, loss  0.5  0  1     win,  win   1     1  1
// c3  tie, tie   0.5  0  0.5   win,  loss  0.5   0  1
// c4  loss, loss 0    0  0     loss, win   0.5   0  0
// n3 of A: mean 2, strict 1, first 2.5; of B: mean 2.75, strict 1, first 3 (of n2 = 4 each).
// B − A per case: mean −0.25, 0.5, 0, 0.5 (mean 0.1875); strict −1, 1, 0, 0 (0); first 0, 0, 0.5, 0 (0.125).
const CASES = [
  kase("c1", "A", "win", "win"), kase("c2", "A", "win", "loss"), kase("c3", "A", "tie", "tie"), kase("c4", "A", "loss", "loss"),
  kase("c1", "B", "win", "tie"), kase("c2", "B", "win", "win"), kase("c3", "B", "win", "loss"), kase("c4", "B", "loss", "win"),
];
const options: CompareOptions = {adjust: "holm", resamples: 50, seed: 1};

async function handWorkedStore() {
  const store = await tempStore();
  await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl(CASES))]);
  return store;
}

describe("compare hsii --win-policy", () => {
  it("scores stage-3 wins under each policy as worked out by hand, the default being mean", async () => {
    const store = await handWorkedStore();
    const stage3 = async (policy?: "mean" | "strict" | "first") => {
      const c = await compareFromArgs(store, "hsii", ["model=A"], ["model=B"], options, policy);
      const m = c.metrics.find((x) => x.metric.startsWith("stage3_win"))!;
      return [m.metric, m.kind, m.nPaired, m.meanA * 4, m.meanB * 4, m.difference];
    };
    expect(await stage3()).toEqual(["stage3_win (mean)", "continuous", 4, 2, 2.75, 0.1875]);
    expect(await stage3("mean")).toEqual(["stage3_win (mean)", "continuous", 4, 2, 2.75, 0.1875]);
    expect(await stage3("strict")).toEqual(["stage3_win (strict)", "binary", 4, 1, 1, 0]);
    expect(await stage3("first")).toEqual(["stage3_win (first)", "continuous", 4, 2.5, 3, 0.125]);
    await expect(compareFromArgs(store, "sotopia", [], [], options, "strict")).rejects.toThrow("--win-policy applies to hsii only, not sotopia");
  });

  it("prints the policy in the header of the CLI's output, and refuses a policy it does not know", async () => {
    const store = await handWorkedStore();
    const db = join(store.dir, "test.duckdb");
    store.close();
    const args = ["compare", "hsii", "--a", "model=A", "--b", "model=B", "--resamples", "50", "--db", db];
    const strict = await cli([...args, "--win-policy", "strict"]);
    expect(strict.code).toBe(0);
    expect(strict.stdout).toContain("Compare hsii: B − A per metric (win policy strict)");
    expect(strict.stdout).toContain("HSII stage-3/4 wins: win policy strict (a win only when both orders say win) (--win-policy)");
    const byDefault = await cli([...args, "--format", "json"]);
    const json = JSON.parse(byDefault.stdout) as {win_policy: string; metrics: {metric: string; mean_a: number; mean_b: number}[]};
    expect(json.win_policy).toBe("mean");
    expect(json.metrics.find((m) => m.metric === "stage3_win (mean)")).toMatchObject({mean_a: 0.5, mean_b: 0.6875});
    const first = JSON.parse((await cli([...args, "--format", "json", "--win-policy", "first"])).stdout) as typeof json;
    expect(first.win_policy).toBe("first");
    expect(first.metrics.find((m) => m.metric === "stage3_win (first)")).toMatchObject({mean_a: 0.625, mean_b: 0.75});
    const wrong = await cli([...args, "--win-policy", "both"]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("--win-policy must be mean or strict or first, not both");
    const help = await cli(["compare", "--help"]);
    expect(help.stdout).toContain("--win-policy mean|strict|first: hsii only");
  }, 60_000);
});
