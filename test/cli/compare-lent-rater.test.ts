// `sociometer compare hsii --a model=A --b model=B` with no rater named: both
// sides take the rater that judged them, not the default pair's. A new user
// found the default pair's judge lent to two models it never judged, and the
// stage-3 and stage-4 rows gone without a word.

import {describe, expect, it} from "vitest";
import {compareFromArgs} from "../../loaders/cli/compare.js";
import {importFiles} from "../../loaders/import/session.js";
import type {CompareOptions} from "../../src/lib/compare.js";
import {jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

type V = "win" | "tie" | "loss";
const kase = (caseId: string, model: string, rater: string, forward: V, swapped: V) => ({
  case_id: caseId, model, gold_target: ["Ann"], response: JSON.stringify({target: "Ann", utterance: "hi"}),
  judgments: [{stage: 3, rater, position: "forward", verdict: forward}, {stage: 3, rater, position: "swapped", verdict: swapped}],
});

// A and B (2 cases each) are judged by "j"; C and D (3 cases each, so the default pair) by "k".
// Stage-3 wins under mean, by hand: A c1 win/win 1, c2 tie/loss 0.25; B c1 win/tie 0.75, c2 win/win 1: means 0.625 and 0.875.
const CASES = [
  kase("c1", "A", "j", "win", "win"), kase("c2", "A", "j", "tie", "loss"),
  kase("c1", "B", "j", "win", "tie"), kase("c2", "B", "j", "win", "win"),
  ...["c1", "c2", "c3"].flatMap((c) => [kase(c, "C", "k", "win", "win"), kase(c, "D", "k", "loss", "loss")]),
];
const options: CompareOptions = {adjust: "holm", resamples: 50, seed: 1};

describe("compare with both sides named and no rater", () => {
  it("lends both sides the rater that judged both, says which, and keeps the stage-3 rows", async () => {
    const store = await tempStore();
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl(CASES))]);
    const c = await compareFromArgs(store, "hsii", ["model=A"], ["model=B"], options);
    const stage3 = c.metrics.find((m) => m.metric.startsWith("stage3_win"));
    expect(stage3 && [stage3.nPaired, stage3.meanA, stage3.meanB]).toEqual([2, 0.625, 0.875]);
    expect(c.notes[0]).toBe("rater: j, the rater with the most rows on both sides (A 2, B 2); name another with rater=…");
    expect(c.statement).toContain("rater=j");

    // The default pair keeps its own rater.
    const defaults = await compareFromArgs(store, "hsii", [], [], options);
    expect(defaults.statement).toContain("rater=k");
    store.close();
  }, 60_000);
});
