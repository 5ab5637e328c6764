import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {penalisedBel} from "../../src/lib/lifelong.js";
import {describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {jsonl} from "../helpers/episodes.js";
import {count, expectImportFailure, tempStore, writeFile} from "../helpers/store.js";

const record = (index: number, overrides: Record<string, unknown> = {}) => ({
  episode_id: `chain-a-${index}`, chain_id: "ana-ben", chain_index: index, memory_mode: "full", harder: index > 3,
  scenario: "Neighbours sort out a shared hedge",
  agents: [{model: "model-x", character: "Ana"}, {model: "model-x", character: "Ben"}],
  messages: [{agent: 1, content: "Hello Ben."}, {agent: 2, content: "Hi Ana."}],
  ratings: [
    {agent: 1, rater: "judge", scores: {believability: 8, goal: 6}, checkpoints: [1, 1, 1, 0, 1, 1, 1, 1]},
    {agent: 1, rater: "annotator", rater_kind: "human", checkpoints: [1, 1, 1, 1, 1, 1, 1, 1]},
  ],
  summary: "They agreed to trim the hedge together.",
  ...overrides,
});

const failure = (store: Store, files: string[]) => expectImportFailure(store, "lifelong", files);

describe("lifelong format", () => {
  it("stores chain position, memory mode, scores and the eight checkpoint labels per rater", async () => {
    const store = await tempStore();
    await importFiles(store, "lifelong", [writeFile(store.dir, "c.jsonl", jsonl([record(1), record(2)]))]);
    expect(await rows(store.conn, "SELECT chain_id, chain_index, settings->>'memory_mode' AS memory, settings->>'summary' AS summary FROM episodes ORDER BY chain_index")).toEqual([
      {chain_id: "ana-ben", chain_index: 1, memory: "full", summary: "They agreed to trim the hedge together."},
      {chain_id: "ana-ben", chain_index: 2, memory: "full", summary: "They agreed to trim the hedge together."},
    ]);
    expect(await rows(store.conn, `SELECT rater, count(*)::INT AS n, sum(value)::INT AS passes FROM ratings
      WHERE episode_id = 'chain-a-1' AND dimension LIKE 'checkpoint:paper:%' GROUP BY rater ORDER BY rater`)).toEqual([
      {rater: "annotator", n: 8, passes: 8}, {rater: "judge", n: 8, passes: 7},
    ]);
    expect(await rows(store.conn, "SELECT value FROM ratings WHERE dimension = 'checkpoint:paper:leaves_after_goal' AND rater = 'judge' AND episode_id = 'chain-a-1'")).toEqual([{value: 0}]);
  });

  it("keeps an agent's background (the profile it was given); an agent without one has none", async () => {
    const store = await tempStore();
    const agents = [{model: "model-x", character: "Ana", background: "Name: Ana Ruiz\nOccupation: Gardener"}, {model: "model-x", character: "Ben"}];
    await importFiles(store, "lifelong", [writeFile(store.dir, "c.jsonl", jsonl([record(1, {agents})]))]);
    expect(await rows(store.conn, "SELECT agent, character, background FROM participants ORDER BY agent")).toEqual([
      {agent: 1, character: "Ana", background: "Name: Ana Ruiz\nOccupation: Gardener"}, {agent: 2, character: "Ben", background: null}]);
  });

  it("rejects a chain index that repeats within a chain, in one file, across files, or against the store", async () => {
    const store = await tempStore();
    const e1 = await failure(store, [writeFile(store.dir, "a.jsonl", jsonl([record(1), record(1, {episode_id: "other"})]))]);
    expect([e1.line, e1.field]).toEqual([2, "chain_index"]);
    expect(e1.problem).toContain("already has an episode at index 1 (line 1)");
    await importFiles(store, "lifelong", [writeFile(store.dir, "b.jsonl", jsonl([record(1)]))]);
    const e2 = await failure(store, [writeFile(store.dir, "c.jsonl", jsonl([record(1, {episode_id: "again"})]))]);
    expect(e2.problem).toContain("chain ana-ben has more than one episode at index 1");
    // The same position in another memory mode is another chain.
    await importFiles(store, "lifelong", [writeFile(store.dir, "d.jsonl", jsonl([record(1, {episode_id: "summary-1", memory_mode: "summary"})]))]);
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(2);
  });

  it("reads only the chains an import writes to: a clash already in the store (made behind the importer's back) does not block another chain", async () => {
    const store = await tempStore();
    await importFiles(store, "lifelong", [writeFile(store.dir, "a.jsonl", jsonl([record(1), record(2)]))]);
    await store.conn.run("UPDATE episodes SET chain_index = 1 WHERE episode_id = 'chain-a-2'");
    const summary = await importFiles(store, "lifelong", [writeFile(store.dir, "b.jsonl", jsonl([record(1, {episode_id: "cy-1", chain_id: "cy-dee"})]))]);
    expect(summary.episodes).toBe(1);
    const e = await failure(store, [writeFile(store.dir, "c.jsonl", jsonl([record(1, {episode_id: "cy-again", chain_id: "cy-dee"})]))]);
    expect([e.file, e.line, e.field]).toEqual([join(store.dir, "c.jsonl"), 1, "chain_index"]);
    expect(e.problem).toBe(`chain cy-dee has more than one episode at index 1: cy-1 at ${join(store.dir, "b.jsonl")} (imported earlier), cy-again at ${join(store.dir, "c.jsonl")}:1`);
  });

  it("imports a half point as it is", async () => {
    const store = await tempStore();
    await importFiles(store, "lifelong", [writeFile(store.dir, "h.jsonl", jsonl([record(1, {ratings: [{agent: 1, rater: "j", scores: {believability: 9.5}}]})]))]);
    expect(await rows(store.conn, "SELECT dimension, value FROM ratings")).toEqual([{dimension: "believability", value: 9.5}]);
  });

  it.each([
    [{ratings: [{agent: 1, rater: "j", checkpoints: [1, 1, 1, 1, 1, 1, 1]}]}, "ratings[0].checkpoints", "expected 8 checkpoint labels (paper checklist), got 7"],
    [{ratings: [{agent: 1, rater: "j", checkpoints: [1, 1, 1, 1, 2, 1, 1, 1]}]}, "ratings[0].checkpoints[4]", "a checkpoint label is 1 (passes) or 0 (fails), got 2"],
    [{ratings: [{agent: 1, rater: "j", checkpoints: [1, 1, 1, 1, true, 1, 1, 1]}]}, "ratings[0].checkpoints[4]", "got true"],
    [{ratings: [{agent: 1, rater: "j", scores: {believability: 11}}]}, "ratings[0].scores.believability", "11 is outside BEL's range [0, 10]"],
    [{ratings: [{agent: 1, rater: "j", scores: {believability: -1}}]}, "ratings[0].scores.believability", "-1 is outside BEL's range [0, 10]"],
    // Half points are allowed (9.5 imports, below); 9.3 is refused, not rounded.
    [{ratings: [{agent: 1, rater: "j", scores: {believability: 9.3}}]}, "ratings[0].scores.believability", "9.3 is not a whole or half point (BEL takes 0, 0.5, 1, …, 10)"],
    [{ratings: [{agent: 1, rater: "j", scores: {goal: 0.25}}]}, "ratings[0].scores.goal", "0.25 is not a whole or half point (GOAL takes 0, 0.5, 1, …, 10)"],
    [{memory_mode: "infinite"}, "memory_mode", "expected one of full, summary, none"],
    [{chain_index: 0}, "chain_index", "expected a whole number from 1"],
    [{agents: [{model: "m", background: 7}]}, "agents[0].background", "expected a string"],
  ])("rejects %j", async (overrides, field, problem) => {
    const store = await tempStore();
    const e = await failure(store, [writeFile(store.dir, "x.jsonl", jsonl([record(1, overrides)]))]);
    expect(e.field).toBe(field);
    expect(e.problem).toContain(problem);
  });
});

const SONZAI = fixture("sonz-ai__sonzai-python/benchmarks/lifelong_sotopia/results/lifelong_sotopia_baseline-none_20260505-175555.jsonl");

describeWithFixtures("sonzai-lifelong format on the real results file", () => {
  it("imports 30 episodes of one chain, 5 of them memory-required, under the log's own checkpoint names", async () => {
    const store = await tempStore();
    const summary = await importFiles(store, "sonzai-lifelong", [SONZAI]);
    expect(summary).toMatchObject({episodes: 30, ratings: 30 * (2 + 8 + 1), rejected: 0});
    expect(await rows(store.conn, `SELECT count(DISTINCT chain_id)::INT AS chains, min(chain_index) AS first, max(chain_index) AS last,
      count(*) FILTER (WHERE (settings->>'harder')::BOOLEAN)::INT AS harder, any_value(settings->>'memory_mode') AS memory FROM episodes`)).toEqual([
      {chains: 1, first: 1, last: 30, harder: 5, memory: "none"},
    ]);
    expect(await rows(store.conn, "SELECT DISTINCT dimension FROM ratings WHERE dimension LIKE 'checkpoint:%' AND value = 0 ORDER BY 1")).toEqual([
      {dimension: "checkpoint:sonzai-python:no_verbatim_repetition"}, {dimension: "checkpoint:sonzai-python:stays_in_agent_voice"},
    ]);
    // Means over the file, by a plain average of the log's numbers: BEL 9.1, GOAL 9.633….
    expect(await rows(store.conn, "SELECT dimension, avg(value) AS mean FROM ratings WHERE dimension IN ('believability', 'goal') GROUP BY 1 ORDER BY 1")).toEqual([
      {dimension: "believability", mean: 9.1}, {dimension: "goal", mean: 289 / 30},
    ]);
  });

  it("shows where the log's bel_extended follows Eq. 1 from its believability and failures, and where it cannot", async () => {
    const store = await tempStore();
    await importFiles(store, "sonzai-lifelong", [SONZAI]);
    const episodes = await rows<{bel: number; failed: number; logged: number}>(store.conn, `
      SELECT max(value) FILTER (WHERE dimension = 'believability') AS bel,
             count(*) FILTER (WHERE dimension LIKE 'checkpoint:%' AND value = 0)::INT AS failed,
             max(value) FILTER (WHERE dimension = 'logged_bel_extended') AS logged
      FROM ratings GROUP BY episode_id`);
    // Episode 21 (index 20) fails two checkpoints: BEL 8 → max(8 − 10, 0) = 0, as logged.
    const failing = episodes.filter((e) => e.failed > 0);
    expect(failing).toEqual([{bel: 8, failed: 2, logged: 0}]);
    expect(penalisedBel(failing[0]!.bel, failing[0]!.failed)).toBe(failing[0]!.logged);
    // Without failures Eq. 1 is the identity, yet the logged value equals believability in only 3 of 29
    // episodes (24 higher, 2 lower). The reimplementation takes BEL for its penalty from a second judge
    // call that the log does not record, so the workbench computes penalised BEL from the recorded BEL
    // and lists these disagreements instead of trusting either number silently.
    const clean = episodes.filter((e) => e.failed === 0);
    expect(clean).toHaveLength(29);
    expect([clean.filter((e) => e.logged === e.bel).length, clean.filter((e) => e.logged > e.bel).length, clean.filter((e) => e.logged < e.bel).length]).toEqual([3, 24, 2]);
  });
});
