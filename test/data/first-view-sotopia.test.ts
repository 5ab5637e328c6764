// The SOTOPIA packs (sotopia-first-view.bin, sotopia-by-task.bin) are the same
// bytes on every build of the same store, whatever DuckDB's thread count (issue
// 18: three builds at 100k gave three digests, from parallel DOUBLE sums of the
// humans' means and the overall scores), and their numbers are the library's.

import {createHash} from "node:crypto";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {decodePack, type Row} from "../../src/client/tables.js";
import {packThreads} from "../../src/data/first-view-pack.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {overallScore} from "../../src/lib/sotopia.js";
import {mean} from "../../src/lib/stats.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempDir} from "../helpers/store.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";

const PACKS = ["sotopia-first-view", "sotopia-by-task"] as const;

const buildPack = (pack: string, store: string, threads: number): Promise<Buffer> =>
  runLoaderInProcess(join("src", "data", `${pack}.bin.ts`), {store, env: {...process.env, SOCIOMETER_PACK_THREADS: String(threads)}});

const digest = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * A store of `episodes` two-seat SOTOPIA episodes written by SQL (no import: it
 * only has to be large enough for DuckDB to split the ratings over threads,
 * 120k rows a row group): an LLM judge on every seat and dimension with a
 * second run on every seventh episode (means of two), and three annotators on
 * every tenth (means of three), all integer scores in each dimension's range.
 */
async function syntheticStore(path: string, episodes: number): Promise<void> {
  const store = await openStore(path);
  try {
    const id = "'e' || lpad(i::VARCHAR, 6, '0')";
    await store.conn.run(`INSERT INTO sources (source_id, path, format, sha256, bytes, imported_at, rows)
      VALUES ('synthetic', '/synthetic.jsonl', 'sotopia', repeat('0', 64), 0, TIMESTAMP '2026-01-01', ${episodes})`);
    await store.conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id, scenario_id, codename, synthetic)
      SELECT ${id}, 'sotopia', 'synthetic', 'scenario-' || (i % 40), 'codename_' || (i % 40), true FROM range(${episodes}) t(i)`);
    await store.conn.run(`INSERT INTO participants (episode_id, agent, agent_ref, model, character)
      SELECT ${id}, a, 'profile-' || ((i * 3 + a * 5) % 13), ['model-a', 'model-b', 'model-c'][1 + (i + a) % 3], 'Character ' || ((i * 3 + a * 5) % 13)
      FROM range(${episodes}) t(i), range(2) s(a)`);
    const score = (salt: string) => `d.lo + ((i * 31 + a * 17 + d.ord * 7 + ${salt}) % (d.hi - d.lo + 1)::BIGINT)`;
    await store.conn.run(`INSERT INTO ratings (episode_id, agent, dimension, rater, rater_kind, value, run_id, source_id)
      SELECT ${id}, a, d.dimension, 'judge', 'llm', ${score("0")}, '', 'synthetic'
      FROM range(${episodes}) t(i), range(2) s(a), dimensions d WHERE d.benchmark = 'sotopia'
      UNION ALL
      SELECT ${id}, a, d.dimension, 'judge', 'llm', ${score("5")}, 'rerun', 'synthetic'
      FROM range(${episodes}) t(i), range(2) s(a), dimensions d WHERE d.benchmark = 'sotopia' AND i % 7 = 0
      UNION ALL
      SELECT ${id}, a, d.dimension, 'annotator-' || h, 'human', ${score("h * 3")}, '', 'synthetic'
      FROM range(${episodes}) t(i), range(2) s(a), range(3) r(h), dimensions d WHERE d.benchmark = 'sotopia' AND i % 10 = 0`);
  } finally {
    store.close();
  }
}

describe("the SOTOPIA packs' bytes", () => {
  it("are the same on 1 and on 4 DuckDB threads over 30,000 episodes (506,000 scores, five row groups)", async () => {
    const path = join(tempDir(), "synthetic.duckdb");
    await syntheticStore(path, 30_000);
    const check = await openStore(path, {readOnly: true});
    try {
      // 30,000 × 2 seats × 7 dimensions, a rerun on 4,286 episodes, three annotators on 3,000.
      expect(await rows(check.conn, "SELECT count(*)::INTEGER AS n FROM ratings")).toEqual([{n: 420_000 + 4_286 * 14 + 3_000 * 42}]);
    } finally {
      check.close();
    }
    for (const pack of PACKS) {
      const one = await buildPack(pack, path, 1);
      const four = await buildPack(pack, path, 4);
      expect(decodePack(new Uint8Array(one), pack)).toEqual(decodePack(new Uint8Array(four), pack));
      expect(digest(four), pack).toBe(digest(one));
    }
  }, 240_000);

  it("refuses a thread count that is not a whole number, naming the setting", () => {
    expect(packThreads({})).toBeNull();
    expect(packThreads({SOCIOMETER_PACK_THREADS: "4"})).toBe(4);
    expect(() => packThreads({SOCIOMETER_PACK_THREADS: "4; DROP TABLE ratings"})).toThrow(
      'SOCIOMETER_PACK_THREADS: expected a whole number of threads from 1 to 9999, got "4; DROP TABLE ratings"');
    expect(() => packThreads({SOCIOMETER_PACK_THREADS: "0"})).toThrow("SOCIOMETER_PACK_THREADS");
  });
});

type Moments = {n: number; sum: number; sum_sq: number};

/**
 * The library's path from the store's raw scores: each rater's runs on an
 * instance averaged (stats.mean), the humans' mean over annotators, overall by
 * overallScore where all seven dimensions are there, then n, sum and sum of
 * squares per (rater, model, partner, dimension) added in JavaScript.
 */
function libraryGroups(raw: readonly {episode_id: string; agent: number; model: string; partner: string; dimension: string; rater: string; rater_kind: string; value: number}[]): Map<string, Moments> {
  const runs = new Map<string, {head: (typeof raw)[number]; values: number[]}>();
  for (const r of raw) {
    const key = `${r.episode_id}\u0000${r.agent}\u0000${r.rater}\u0000${r.dimension}`;
    let entry = runs.get(key);
    if (!entry) runs.set(key, (entry = {head: r, values: []}));
    entry.values.push(r.value);
  }
  // (episode, seat, rater) → the rater's kind, model, partner and score per dimension.
  const instances = new Map<string, {rater: string; rater_kind: string; model: string; partner: string; scores: Record<string, number>}>();
  const humans = new Map<string, {model: string; partner: string; values: Record<string, number[]>}>();
  for (const {head, values} of runs.values()) {
    const value = mean(values);
    const key = `${head.episode_id}\u0000${head.agent}`;
    const mine = instances.get(`${key}\u0000${head.rater}`) ?? {rater: head.rater, rater_kind: head.rater_kind, model: head.model, partner: head.partner, scores: {}};
    mine.scores[head.dimension] = value;
    instances.set(`${key}\u0000${head.rater}`, mine);
    if (head.rater_kind !== "human") continue;
    const h = humans.get(key) ?? {model: head.model, partner: head.partner, values: {}};
    (h.values[head.dimension] ??= []).push(value);
    humans.set(key, h);
  }
  for (const [key, h] of humans) {
    const scores: Record<string, number> = {};
    for (const [dimension, values] of Object.entries(h.values)) scores[dimension] = mean(values);
    instances.set(`${key}\u0000humans`, {rater: "humans", rater_kind: "human_mean", model: h.model, partner: h.partner, scores});
  }
  const groups = new Map<string, Moments>();
  const add = (i: {rater: string; rater_kind: string; model: string; partner: string}, dimension: string, value: number) => {
    const key = [i.rater, i.rater_kind, i.model, i.partner, dimension].join("\u0000");
    const g = groups.get(key) ?? {n: 0, sum: 0, sum_sq: 0};
    g.n += 1;
    g.sum += value;
    g.sum_sq += value * value;
    groups.set(key, g);
  };
  for (const i of instances.values()) {
    for (const [dimension, value] of Object.entries(i.scores)) add(i, dimension, value);
    if (SOTOPIA_DIMENSIONS.every((d) => d.key in i.scores)) add(i, "overall", overallScore(i.scores));
  }
  return groups;
}

describe("the SOTOPIA first view's numbers on the samples", () => {
  it("are the library's over the raw scores: every group's n exactly, its sum and sum of squares to 12 digits, integer sums exactly", async () => {
    const path = join(tempDir(), "samples.duckdb");
    const store = await openSamplesCopy(path);
    let raw;
    try {
      raw = await rows<{episode_id: string; agent: number; model: string; partner: string; dimension: string; rater: string; rater_kind: string; value: number}>(store.conn, `
        SELECT r.episode_id, r.agent, p.model, q.model AS partner, r.dimension, r.rater, r.rater_kind, r.value
        FROM ratings r
        JOIN participants p USING (episode_id, agent)
        JOIN participants q ON q.episode_id = r.episode_id AND q.agent <> r.agent
        JOIN episodes e ON e.episode_id = r.episode_id
        WHERE e.benchmark = 'sotopia' AND r.dimension IN (SELECT dimension FROM dimensions WHERE benchmark = 'sotopia')`);
      // Every sample episode has two seats, so the partner is the other seat's model.
      expect(await rows(store.conn, "SELECT count(*)::INTEGER AS n FROM (SELECT episode_id FROM participants JOIN episodes USING (episode_id) WHERE benchmark = 'sotopia' GROUP BY episode_id HAVING count(*) <> 2)"))
        .toEqual([{n: 0}]);
    } finally {
      store.close();
    }
    const expected = libraryGroups(raw);
    const {sotopia_groups: groups} = decodePack(new Uint8Array(await buildPack("sotopia-first-view", path, 2)), "sotopia-first-view");
    expect(groups).toHaveLength(expected.size);
    let integerSums = 0;
    for (const g of groups as Row[]) {
      const key = [g.rater, g.rater_kind, g.model, g.partner, g.dimension].join("\u0000");
      const want = expected.get(key);
      expect(want, key).toBeDefined();
      expect(g.n, key).toBe(want!.n);
      expect(g.sum as number, key).toBeCloseTo(want!.sum, 12);
      expect(g.sum_sq as number, key).toBeCloseTo(want!.sum_sq, 12);
      if (Number.isInteger(want!.sum) && Number.isInteger(want!.sum_sq)) {
        integerSums++;
        expect([g.sum, g.sum_sq], key).toEqual([want!.sum, want!.sum_sq]);
      }
    }
    expect(integerSums).toBeGreaterThan(0);
  }, 240_000);
});
