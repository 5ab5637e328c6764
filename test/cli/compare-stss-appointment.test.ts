// `sociometer compare stss` under the appointment rule of docs/formats.md
// (STSS §3.2): an appointment conversation that is not between the task's
// performer and a target person counts in no number unless
// `--appointment-partners all`, as in `report stss`. The samples' `-c2`
// appointment conversations are with someone else; one conversation is moved
// off target for one model only, so that today's pairing would set gpt-4's
// talk with a stranger against gpt-35-turbo's with the target.

import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {rows, type Store} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";

let dir: string;
let path: string;
let store: Store | undefined;
const MOVED = "sample_0301_personal_appointment_10-c1";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sociometer-compare-stss-"));
  path = join(dir, "samples.duckdb");
  store = await openSamplesCopy(path);
  await store.conn.run(`UPDATE stss_conversations SET partner = 'Jonah Reyes'
    WHERE conversation_id = '${MOVED}' AND architecture = 'GA' AND episode_id IN (SELECT episode_id FROM participants WHERE agent = 1 AND model = 'gpt-4')`);
  store.close();
  store = undefined;
}, 120_000);

afterAll(() => {
  store?.close();
  rmSync(dir, {recursive: true, force: true});
});

type Metric = {metric: string; n_paired: number; n_unpaired_a: number; n_unpaired_b: number; mean_a: number; mean_b: number};

async function compareJson(...extra: string[]): Promise<{metrics: Metric[]; notes: string[]; unpaired: {metric: string; side: string; item: string}[]}> {
  const r = await cli(["compare", "stss", "--a", "model=gpt-4", "setting=GA", "rater=gpt-35-turbo", "--b", "model=gpt-35-turbo", "setting=GA", "rater=gpt-35-turbo",
    "--format", "json", "--db", path, ...extra]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

/**
 * The conversation-level success of each model's GA conversation runs judged
 * by gpt-35-turbo, written apart from the compare SQL: the rule read off
 * docs/formats.md (an appointment task, and a partner outside its targets or
 * a performer other than its own), keyed by task and conversation id.
 */
async function successes(model: string, keepOffTarget: boolean): Promise<Map<string, number>> {
  const s = await (await import("../../loaders/store/db.js")).openStore(path, {readOnly: true});
  try {
    const got = await rows<{k: string; ok: number}>(s.conn, `
      SELECT c.task_id || ' | ' || c.conversation_id AS k, CASE WHEN min(r.value) = 1 THEN 1 ELSE 0 END::INTEGER AS ok
      FROM stss_conversations c
      JOIN stss_tasks t USING (task_id)
      JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
      JOIN ratings r ON r.episode_id = c.episode_id AND r.dimension LIKE 'conversation:%' AND r.rater = 'gpt-35-turbo'
      WHERE p.model = ? AND c.architecture = 'GA'
        AND (${keepOffTarget} OR NOT (t.category = 'appointment' AND (
          (len(coalesce(t.targets, [])) > 0 AND NOT list_contains(t.targets, c.partner)) OR (c.performer IS NOT NULL AND c.performer <> t.performer))))
      GROUP BY 1`, [model]);
    return new Map(got.map((g) => [g.k, g.ok]));
  } finally {
    s.close();
  }
}

async function expected(keepOffTarget: boolean) {
  const a = await successes("gpt-4", keepOffTarget);
  const b = await successes("gpt-35-turbo", keepOffTarget);
  const both = [...a.keys()].filter((k) => b.has(k));
  const mean = (m: Map<string, number>) => both.reduce((s, k) => s + m.get(k)!, 0) / both.length;
  return {paired: both.length, unpairedA: a.size - both.length, unpairedB: b.size - both.length, meanA: mean(a), meanB: mean(b)};
}

describe("compare stss: the appointment rule", () => {
  it("leaves out appointment conversations with someone other than the target by default, and pairs no stranger's with the target's", async () => {
    const c = await compareJson();
    const success = c.metrics.find((m) => m.metric === "conversation success")!;
    const want = await expected(false);
    // 136 conversation runs a side before the rule; the samples' off-target -c2 conversations leave, and gpt-4's moved -c1.
    expect(want.paired).toBeLessThan(136);
    expect(want).toMatchObject({unpairedA: 0, unpairedB: 1});
    expect([success.n_paired, success.n_unpaired_a, success.n_unpaired_b]).toEqual([want.paired, want.unpairedA, want.unpairedB]);
    expect(success.mean_a).toBeCloseTo(want.meanA, 12);
    expect(success.mean_b).toBeCloseTo(want.meanB, 12);
    // gpt-35-turbo's conversation with the target is unpaired, not set against gpt-4's with a stranger.
    expect(c.unpaired.filter((u) => u.metric === "conversation success")).toEqual([{metric: "conversation success", side: "B", item: expect.stringContaining(MOVED), episode: expect.any(String)}]);
    expect(c.notes.join("\n")).toMatch(/appointment partners \(--appointment-partners\): target/);
  });

  it("--appointment-partners all keeps every conversation, as report stss does", async () => {
    const c = await compareJson("--appointment-partners", "all");
    const success = c.metrics.find((m) => m.metric === "conversation success")!;
    const want = await expected(true);
    expect(want.paired).toBe(136);
    expect([success.n_paired, success.n_unpaired_a, success.n_unpaired_b]).toEqual([136, 0, 0]);
    expect(success.mean_a).toBeCloseTo(want.meanA, 12);
  });

  it("refuses another value, and the option on another benchmark", async () => {
    const bad = await cli(["compare", "stss", "--appointment-partners", "some", "--db", path]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--appointment-partners must be target or all, not some/);
    const other = await cli(["compare", "hsii", "--appointment-partners", "all", "--db", path]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--appointment-partners applies to stss only/);
    const help = await cli(["compare", "--help"]);
    expect(help.stdout).toContain("--appointment-partners target|all: stss only, as report stss");
  });
});
