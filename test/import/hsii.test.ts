import {cliOrThrow} from "../helpers/cli.js";
import {describe, expect, it} from "vitest";
import {join} from "node:path";
import {ImportError} from "../../loaders/import/errors.js";
import {importFiles} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import {jsonl} from "../helpers/episodes.js";
import {snapshot, tempStore, writeFile} from "../helpers/store.js";

const judged = (s3: [string, string], s4: [string, string]) => [
  {stage: 3, rater: "gpt-4", position: "forward", verdict: s3[0]}, {stage: 3, rater: "gpt-4", position: "swapped", verdict: s3[1]},
  {stage: 4, rater: "gpt-4", position: "forward", verdict: s4[0]}, {stage: 4, rater: "gpt-4", position: "swapped", verdict: s4[1]},
];
const base = (i: number, response: string, extra: Record<string, unknown> = {}) => ({
  case_id: `case-${i}`, model: "m", cluster: i < 5 ? "work" : "family", gold_target: ["Dr. Ada Park", "Ada"], gold_utterance: "Ada, the shift changed.",
  history: [{speaker: "Ben", content: "Who tells Ada?"}, {speaker: "Ada", content: "Tell me what?"}],
  response, judgments: judged(["win", "win"], ["win", "win"]), ...extra,
});
// The same ten cases as the library test, now as raw responses: 2 fail to parse, 2 name the wrong target, 6 are right.
const CASES = [
  base(0, "I would just talk to someone."), base(1, '{"target": "Ada"}'),
  base(2, "Target: Ben\nUtterance: Ben, can you tell her?"), base(3, '{"target": "Carl", "utterance": "Carl?"}'),
  base(4, '{"target": "Ada", "utterance": "Ada, the shift changed."}'), base(5, "@Dr. Ada Park: Your shift moved."),
  base(6, "Target: ada\nUtterance: Quick news."),
  base(7, '```json\n{"target": "Ada", "utterance": "News."}\n```', {judgments: judged(["win", "loss"], ["win", "win"])}),
  base(8, '{"target": "Ms. Ada", "utterance": "Hi."}', {judgments: judged(["win", "loss"], ["tie", "tie"])}),
  base(9, '{"target": "Ada", "utterance": "Hello."}', {judgments: judged(["loss", "loss"], ["tie", "tie"])}),
];

const report = async (db: string, ...args: string[]) =>
  JSON.parse((await cliOrThrow(["report", ...args, "--format", "json", "--db", db])).stdout).rows;

describe("hsii format and reports", () => {
  it("parses raw responses into stages 1 and 2, and reports the counts, rates and score of each policy", async () => {
    const store = await tempStore();
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl(CASES))]);
    expect(await rows(store.conn, "SELECT count(*)::INT AS n, count(*) FILTER (parsed)::INT AS n1, count(*) FILTER (target_correct)::INT AS n2 FROM hsii_cases")).toEqual([{n: 10, n1: 8, n2: 6}]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const [mean] = await report(db, "hsii");
    expect(mean).toMatchObject({model: "m", n: 10, n1: 8, n2: 6, n3: 4, n4: 5, r1: 0.8, r2: 0.75, abs_target: 0.6});
    expect(mean.hsii).toBeCloseTo(0.8 * (1 + 0.75 * (1 + (4 / 6 + 5 / 6))), 12);
    // Position bias: of the six stage-3 comparisons, two have orders that disagree.
    expect(mean.disagree_3).toBeCloseTo(2 / 6, 12);
    expect([mean.r3_fwd, mean.r3_swp]).toEqual([5 / 6, 3 / 6]);
    const [strict] = await report(db, "hsii", "--win-policy", "strict", "--formula", "table1");
    expect([strict.n3, strict.n4]).toEqual([3, 4]);
    expect(strict.hsii).toBeCloseTo(0.8 * (1 + 0.75 * (3 / 6 + 4 / 6)), 12);
    const [weighted] = await report(db, "hsii", "--alpha", "0.5", "--gamma", "2");
    expect(weighted.hsii).toBeCloseTo(0.8 * (1 + 0.5 * 0.75 * (1 + (4 / 6 + 2 * (5 / 6)))), 12);
    const clusters = await report(db, "hsii", "--by-cluster");
    expect(clusters.map((c: {cluster: string; n: number; n2: number}) => [c.cluster, c.n, c.n2])).toEqual([["family", 5, 5], ["work", 5, 1]]);
  }, 60_000);

  it("uses the log's stage-1 and stage-2 facts when it states them, and counts where the parser disagrees", async () => {
    const store = await tempStore();
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([
      base(0, "free text the parser cannot read", {parsed: true, selected_target: "Ada"}),
      base(1, '{"target": "Ada", "utterance": "Hi"}', {parsed: true}),
    ]))]);
    expect(await rows(store.conn, "SELECT case_id, parsed, parser_parsed, target_correct, parse_route FROM hsii_cases ORDER BY 1")).toEqual([
      {case_id: "case-0", parsed: true, parser_parsed: false, target_correct: true, parse_route: "log"},
      {case_id: "case-1", parsed: true, parser_parsed: true, target_correct: true, parse_route: "log"},
    ]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    expect((await report(db, "hsii"))[0].parser_disagrees).toBe(1);
  }, 60_000);

  it("reports COT complexity per model", async () => {
    const store = await tempStore();
    const cotRuns = [{variant: "a", rounds: [true]}, {variant: "b", rounds: [false, false, true]}, {variant: "c", rounds: [false]}];
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([base(0, "x", {cot: true, cot_runs: cotRuns})]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const [row] = await report(db, "cot", "--cap", "10", "--threshold", "0.6");
    // k = 0, 2, 10 (unsolved at the cap): complexity 4; solved within 2 rounds: 2/3 ≥ 0.6 → 2.
    expect(row).toEqual({model: "m", runs: 3, success_without_cot: 1 / 3, success_with_cot: 2 / 3, rounds_to_threshold: 2, complexity: 4});
  }, 60_000);

  it.each([
    [{judgments: [{stage: 5, rater: "j", position: "forward", verdict: "win"}]}, "judgments[0].stage", "expected 3"],
    [{judgments: [{stage: 3, rater: "j", position: "sideways", verdict: "win"}]}, "judgments[0].position", "expected forward or swapped"],
    [{judgments: [{stage: 3, rater: "j", position: "forward", verdict: "draw"}]}, "judgments[0].verdict", "expected win, tie or loss"],
    [{judgments: [{stage: 3, rater: "j", position: "forward", verdict: "win"}, {stage: 3, rater: "j", position: "forward", verdict: "loss"}]}, "judgments[1]", "already judged"],
    [{gold_target: []}, "gold_target", "needs at least one accepted name"],
    [{cot_runs: [{variant: "a", rounds: ["yes"]}]}, "cot_runs[0].rounds[0]", "expected true or false"],
  ])("rejects %j", async (extra, field, problem) => {
    const store = await tempStore();
    const before = await snapshot(store);
    const e = await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([base(0, "x", extra)]))]).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(ImportError);
    expect((e as ImportError).field).toBe(field);
    expect((e as ImportError).problem).toContain(problem);
    expect(await snapshot(store)).toEqual(before);
  });
});
