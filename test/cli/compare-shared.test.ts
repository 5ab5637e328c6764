// A comparison of two raters on HSII, where stage 1 and 2 outcomes have no
// rater: those rows satisfy both sides alike, so they are left out rather
// than paired with themselves (p = 1) inside the Holm family. The CLI (pairing
// in DuckDB) and the page's path (rows filtered by SQL, paired in JS) agree.

import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {compareFromArgs, readCompareRows} from "../../loaders/cli/compare.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {compareRuns, type CompareOptions} from "../../src/lib/compare.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";

let dir: string;
let store: Store;
const holm: CompareOptions = {adjust: "holm", resamples: 100, seed: 1};
const A = {model: "gpt-4", cot: "with", rater: "gpt-4"};
const B = {model: "gpt-4", cot: "with", rater: "gpt-4-rerun"};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sociometer-compare-shared-"));
  store = await openSamplesCopy(join(dir, "samples.duckdb"));
  // A second judge: gpt-4's verdicts, except a strict stage-3 win on six with-COT gpt-4 cases among the n2 (the cases with
  // win rows) that gpt-4 did not call a win.
  await store.conn.run(`INSERT INTO hsii_judgments SELECT * REPLACE ('gpt-4-rerun' AS rater) FROM hsii_judgments WHERE rater = 'gpt-4'`);
  await store.conn.run(`UPDATE hsii_judgments SET verdict = 'win' WHERE rater = 'gpt-4-rerun' AND stage = 3 AND episode_id IN (
    SELECT c.episode_id FROM hsii_cases c JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
    WHERE c.cot AND c.parsed AND c.target_correct AND p.model = 'gpt-4' AND c.episode_id IN (
      SELECT episode_id FROM hsii_judgments WHERE rater = 'gpt-4' AND stage = 3 GROUP BY episode_id HAVING NOT bool_and(verdict = 'win'))
    ORDER BY c.episode_id LIMIT 6)`);
}, 120_000);

afterAll(() => {
  store?.close();
  rmSync(dir, {recursive: true, force: true});
});

describe("compare two raters where some metrics have no rater", () => {
  it("leaves stage 1 and 2 out of the family and says so; the CLI and the page's path agree", async () => {
    const c = await compareFromArgs(store, "hsii", Object.entries(A).map(([k, v]) => `${k}=${v}`), Object.entries(B).map(([k, v]) => `${k}=${v}`), holm);
    expect(c.pairing).toBe("instance");
    // Pairs: the with-COT gpt-4 cases among the n2 that gpt-4 judged at that stage (the default `mean` policy needs one order).
    const judged = async (stage: number) => (await rows<{n: bigint}>(store.conn, `SELECT count(DISTINCT c.episode_id) AS n FROM hsii_cases c
      JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1 JOIN hsii_judgments j ON j.episode_id = c.episode_id
      WHERE c.cot AND c.parsed AND c.target_correct AND p.model = 'gpt-4' AND j.rater = 'gpt-4' AND j.stage = ${stage}`))[0].n;
    const [n3, n4] = [Number(await judged(3)), Number(await judged(4))];
    expect(n3).toBeGreaterThan(6);
    expect(c.metrics.map((m) => [m.metric, m.nPaired, m.unpairedA, m.unpairedB])).toEqual([["stage3_win (mean)", n3, 0, 0], ["stage4_win (mean)", n4, 0, 0]]);
    const [stage3, stage4] = c.metrics;
    // Six cases better for B, none worse; nothing differs on stage 4.
    expect(stage3.meanB).toBeGreaterThan(stage3.meanA);
    expect(stage3.p).toBeLessThan(0.05);
    expect(stage4.difference).toBe(0);
    // Holm over two tests, not four with the self-paired stages: the smaller p doubled.
    expect(stage3.pAdjusted).toBeCloseTo(Math.min(1, 2 * stage3.p), 15);
    expect(c.notes).toContain("left out: stage1_parsed, stage2_target_correct, whose values name no rater, so both sides share them (each would pair with itself)");
    const page = compareRuns("hsii", await readCompareRows(store, "hsii", {a: A, b: B}), A, B, holm);
    expect(page.metrics).toEqual(c.metrics);
    expect(page.notes).toEqual(c.notes);
  });
});

describe("compare with both sides naming their rater", () => {
  it("needs no default sides, and still says when the store has no scores of the benchmark", async () => {
    const a = ["model=gpt-4", "cot=with", "rater=gpt-4"];
    const b = ["model=gpt-4", "cot=with", "rater=gpt-4-rerun"];
    const named = await compareFromArgs(store, "hsii", a, b, holm);
    // The same as with one side leaving its rater to the defaults (gpt-4, the rater with the most scores).
    const defaulted = await compareFromArgs(store, "hsii", ["model=gpt-4", "cot=with"], b, holm);
    expect(named.metrics).toEqual(defaulted.metrics);
    expect(named.notes).toEqual(defaulted.notes);
    const empty = await openStore(join(dir, "empty.duckdb"));
    try {
      await expect(compareFromArgs(empty, "hsii", a, b, holm)).rejects.toThrow("compare: the store has no hsii scores to compare");
    } finally {
      empty.close();
    }
  });
});
