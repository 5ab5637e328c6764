// `report disagreements`: hand-computed on a store of four instances, and on
// the samples against an independent computation in SQL.

import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importFiles} from "../../loaders/import/session.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {sharedSamplesStore} from "../helpers/shared-stores.js";
import {tempDir, writeFile} from "../helpers/store.js";
import {join} from "node:path";

// ep-1 agent 1 GOAL: judge 9 against h1 3, h2 5 (mean 4): gap 5, range 2.
// ep-1 agent 2 GOAL: judge 4 against h1 4 alone: gap 0, no range.
// ep-2 agent 1 GOAL: judge 2 against h1 (8 and 6 in two runs: 7) and h2 9 (mean 8): gap 6, range 2.
// ep-2 agent 1 BEL: judge 8 against h2 8 alone: gap 0.
const RATINGS = "episode_id,agent,dimension,rater,value,rationale,rater_kind,run_id\n" +
  "ep-1,1,goal,judge,9,Got it,llm,\n" +
  "ep-1,1,goal,h1,3,Far off,human,\n" +
  "ep-1,1,goal,h2,5,\"Partly,\n  not all\",human,\n" +
  "ep-1,2,goal,judge,4,,llm,\n" +
  "ep-1,2,goal,h1,4,Same,human,\n" +
  "ep-2,1,goal,judge,2,Nothing,llm,\n" +
  "ep-2,1,goal,h1,8,Yes,human,r1\n" +
  "ep-2,1,goal,h1,6,Mostly,human,r2\n" +
  "ep-2,1,goal,h2,9,Clearly,human,\n" +
  "ep-2,1,believability,judge,8,natural,llm,\n" +
  "ep-2,1,believability,h2,8,fine,human,\n";

describe("report disagreements on four hand-made instances", () => {
  let store: Store;
  let path: string;
  beforeAll(async () => {
    const dir = tempDir();
    path = join(dir, "store.duckdb");
    store = await openStore(path);
    await importFiles(store, "sotopia", [writeFile(dir, "e.jsonl", jsonl([dumpRecord("ep-1", {raw_rewards: []}), dumpRecord("ep-2", {raw_rewards: []})]))]);
    await importFiles(store, "sotopia-ratings", [writeFile(dir, "r.csv", RATINGS)]);
  });
  afterAll(() => store.close());

  const run = (options: Parameters<ReturnType<typeof getReport>["run"]>[1]) => getReport("disagreements").run(store, options);

  it("ranks the judge against the annotators' mean by |A − B|, ties by episode, with both rationales and the spread", async () => {
    const t = await run({rater: "judge"});
    expect(t.columns).toEqual(["rank", "episode_id", "agent", "dimension", "a", "b", "gap", "range", "annotators", "a_rationale", "b_rationale"]);
    expect(t.rows).toEqual([
      {rank: 1, episode_id: "ep-2", agent: 1, dimension: "goal", a: 2, b: 8, gap: 6, range: 2, annotators: 2, a_rationale: "Nothing", b_rationale: "h1 (7): Mostly / Yes | h2 (9): Clearly"},
      {rank: 2, episode_id: "ep-1", agent: 1, dimension: "goal", a: 9, b: 4, gap: 5, range: 2, annotators: 2, a_rationale: "Got it", b_rationale: "h1 (3): Far off | h2 (5): Partly, not all"},
      {rank: 3, episode_id: "ep-1", agent: 2, dimension: "goal", a: 4, b: 4, gap: 0, range: null, annotators: 1, a_rationale: "(no rationale)", b_rationale: "h1 (4): Same"},
      {rank: 4, episode_id: "ep-2", agent: 1, dimension: "believability", a: 8, b: 8, gap: 0, range: null, annotators: 1, a_rationale: "natural", b_rationale: "h2 (8): fine"},
    ]);
  });

  it("--min-gap, --dimension (key or abbreviation) and --limit narrow the list", async () => {
    expect((await run({rater: "judge", disagreements: {minGap: "5.5"}})).rows.map((r) => r.episode_id)).toEqual(["ep-2"]);
    expect((await run({rater: "judge", disagreements: {dimension: "BEL"}})).rows.map((r) => [r.dimension, r.gap])).toEqual([["believability", 0]]);
    expect((await run({rater: "judge", disagreements: {limit: "2"}})).rows.map((r) => r.gap)).toEqual([6, 5]);
  });

  it("a named annotator against another, and against the other annotators' mean, leaves A out of the spread", async () => {
    const named = await run({rater: "h1", against: "h2"});
    expect(named.rows.map((r) => [r.episode_id, r.agent, r.a, r.b, r.gap, r.range, r.annotators, r.a_rationale, r.b_rationale])).toEqual([
      ["ep-1", 1, 3, 5, 2, null, 1, "Far off", "Partly, not all"],
      ["ep-2", 1, 7, 9, 2, null, 1, "Mostly / Yes", "Clearly"],
    ]);
    const pooled = await run({rater: "h1", against: "humans"});
    expect(pooled.rows.map((r) => [r.episode_id, r.a, r.b, r.b_rationale])).toEqual([["ep-1", 3, 5, "h2 (5): Partly, not all"], ["ep-2", 7, 9, "h2 (9): Clearly"]]);
  });

  it("report agreement says why its model rows repeat its all rows when no human played (issue 33, item 7)", async () => {
    const NOTE = "played_by: no human played a rated agent in these episodes, so each model row is its all row again";
    const t = await getReport("agreement").run(store, {raters: ["judge"]});
    expect(t.notes).toContain(NOTE);
    const goal = t.rows.filter((r) => r.dimension === "goal");
    expect(goal.map((r) => r.played_by)).toEqual(["all", "model"]);
    expect({...goal[1], played_by: "all"}).toEqual(goal[0]);
    expect((await getReport("agreement").run(store, {})).notes).toContain(NOTE);
  });

  it("--rater humans alone lists the widest annotator ranges, instances with two or more annotators only", async () => {
    const t = await run({rater: "humans"});
    expect(t.columns).toEqual(["rank", "episode_id", "agent", "dimension", "range", "annotators", "low", "high", "mean", "rationales"]);
    expect(t.rows).toEqual([
      {rank: 1, episode_id: "ep-1", agent: 1, dimension: "goal", range: 2, annotators: 2, low: 3, high: 5, mean: 4, rationales: "h1 (3): Far off | h2 (5): Partly, not all"},
      {rank: 2, episode_id: "ep-2", agent: 1, dimension: "goal", range: 2, annotators: 2, low: 7, high: 9, mean: 8, rationales: "h1 (7): Mostly / Yes | h2 (9): Clearly"},
    ]);
    // --against humans with --rater humans is the same list.
    expect((await run({rater: "humans", against: "humans"})).rows).toEqual(t.rows);
  });
});

describe("report disagreements on the samples", () => {
  let db: string;
  // The first test file of a run to ask fills the shared store (seconds to a minute on a busy machine).
  beforeAll(async () => {
    db = await sharedSamplesStore();
  }, 300_000);

  it("unknown raters and dimensions exit 2, naming what the store has with a did-you-mean", async () => {
    const rater = await cli(["report", "disagreements", "--db", db, "--rater", "gpt4"]);
    expect(rater.code).toBe(2);
    expect(rater.stderr).toContain('no rater "gpt4"');
    expect(rater.stderr).toContain('did you mean "gpt-4"?');
    expect(rater.stderr).toContain("raters there: humans, annotator-01, annotator-02");
    const against = await cli(["report", "disagreements", "--db", db, "--rater", "gpt-4", "--against", "humams"]);
    expect(against.code).toBe(2);
    expect(against.stderr).toContain('did you mean "humans"?');
    const dimension = await cli(["report", "disagreements", "--db", db, "--dimension", "gaol"]);
    expect(dimension.code).toBe(2);
    expect(dimension.stderr).toContain('no dimension "gaol"');
    expect(dimension.stderr).toContain('did you mean "goal"?');
    expect(dimension.stderr).toContain("believability, relationship");
    expect((await cli(["report", "disagreements", "--db", db, "--limit", "0"])).code).toBe(2);
    expect((await cli(["report", "disagreements", "--db", db, "--min-gap", "-1"])).code).toBe(2);
  });

  it("report agreement has no such note where humans played some rated agents", async () => {
    const out = await cli(["report", "agreement", "--db", db, "--format", "json"]);
    expect(out.code).toBe(0);
    const t = JSON.parse(out.stdout) as {notes: string[]; rows: {played_by: string}[]};
    expect(t.rows.some((r) => r.played_by === "human")).toBe(true);
    expect(t.notes.filter((n) => n.startsWith("played_by:"))).toEqual([]);
  });

  it("the judge's top 20 against the humans equal an independent ranking in SQL", async () => {
    const out = await cli(["report", "disagreements", "--db", db, "--rater", "gpt-4", "--against", "humans", "--dimension", "goal", "--format", "json"]);
    expect(out.code).toBe(0);
    const got = JSON.parse(out.stdout).rows as {episode_id: string; agent: number; a: number; b: number; gap: number; range: number | null; annotators: number}[];
    const store = await openStore(db, {readOnly: true});
    try {
      // Every (episode, agent) on GOAL: gpt-4's mean over its runs, the mean of each annotator's own mean.
      const want = await rows<{episode_id: string; agent: number; a: number; b: number; gap: number; range: number | null; annotators: number}>(store.conn, `
        WITH per AS (
          SELECT episode_id, agent, rater, rater_kind, avg(value) AS v FROM ratings
          WHERE dimension = 'goal' GROUP BY ALL
        ), h AS (
          SELECT episode_id, agent, avg(v) AS b, max(v) - min(v) AS spread, count(*)::INTEGER AS annotators FROM per WHERE rater_kind = 'human' GROUP BY ALL
        )
        SELECT j.episode_id, j.agent, j.v AS a, h.b, abs(j.v - h.b) AS gap, CASE WHEN h.annotators >= 2 THEN h.spread END AS range, h.annotators
        FROM per j JOIN h USING (episode_id, agent) WHERE j.rater = 'gpt-4'
        ORDER BY gap DESC, episode_id, agent LIMIT 20`);
      expect(want.length).toBe(20);
      expect(got.map(({episode_id, agent, a, b, gap, range, annotators}) => ({episode_id, agent, a, b, gap, range, annotators}))).toEqual(want);
    } finally {
      store.close();
    }
  });
});
