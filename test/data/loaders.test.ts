// The data loaders of src/data, run as Framework runs them (tsx, Parquet on
// stdout) against a store filled through the CLI: what they ship, what they
// cap, and that no absolute path leaves the store.

import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {DuckDBInstance, type DuckDBConnection} from "@duckdb/node-api";
import {afterAll, beforeAll, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {VIEWER_LIMIT} from "../../src/data/store.js";
import {humanRatingsCsv, runCli} from "../browser/helpers.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {describeWithFixtures, FIXTURES, fixture, REPO} from "../helpers/fixtures.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";

const LOADERS = [
  "overview", "sotopia-stats", "episodes", "participants", "messages", "ratings", "agreement-rows", "rater-coverage", "words-per-turn",
  "lifelong-instances", "checkpoint-pairs", "checkpoint-failures", "hsii-cases", "hsii-cot",
] as const;
/** The sample LIFELONG-SOTOPIA chains (810 episodes, two agents, gpt-4 and a human on some) and HSII runs (480). */
const LIFELONG_SAMPLE = join(REPO, "data", "samples", "lifelong", "chains.jsonl");
const HSII_SAMPLE = join(REPO, "data", "samples", "hsii", "runs.jsonl");
/** STSS task definitions and conversation runs, InformativeBench schedules: definitions and inputs next to evaluated episodes. */
const STSS_TASKS = join(REPO, "data", "samples", "stss", "tasks.json");
const STSS_CONVERSATIONS = join(REPO, "data", "samples", "stss", "conversations.jsonl");
const IB_SCHEDULES = join(REPO, "data", "samples", "informativebench", "schedules.jsonl");
const SOTOPIA_FIXTURE = fixture("sotopia-lab__sotopia-rl", "example_episodes.jsonl");
/** Episodes of the fixture that two annotators also score: the only multiply-rated ones. */
const ANNOTATED = 2;
const FILLER = VIEWER_LIMIT + 1; // with the fixture's 20, the store holds more than the viewer ships
/** Counted from the sample files themselves: task definitions, schedule lines, conversation lines. */
const STSS_TASK_COUNT = (JSON.parse(readFileSync(STSS_TASKS, "utf8")) as unknown[]).length;
const IB_SCHEDULE_LINES = readFileSync(IB_SCHEDULES, "utf8").split("\n").filter(Boolean).length;
const STSS_CONVERSATION_RUNS = readFileSync(STSS_CONVERSATIONS, "utf8").split("\n").filter(Boolean).length;

/** Runs one loader with SOCIOMETER_DB set (in this process), its stdout into `out`. */
async function runLoader(name: string, store: string, out: string): Promise<void> {
  writeFileSync(out, await runLoaderInProcess(`src/data/${name}.parquet.ts`, {store}));
}

describeWithFixtures("data loaders", () => {
  let dir: string;
  let db: DuckDBInstance;
  let conn: DuckDBConnection;
  let storePath: string;
  const parquet = (name: string) => `'${join(dir, `${name}.parquet`)}'`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sociometer-loaders-"));
    const store = join(dir, "store.duckdb");
    const filler = join(dir, "filler.jsonl");
    const humans = join(dir, "human_ratings.csv");
    writeFileSync(filler, jsonl(Array.from({length: FILLER}, (_, i) => dumpRecord(`ep-${String(i).padStart(5, "0")}`))));
    // Both seats of the first ANNOTATED fixture episodes, every dimension, near a fixed score of 1.
    const annotated = readFileSync(SOTOPIA_FIXTURE, "utf8").split("\n").filter(Boolean).slice(0, ANNOTATED).map((line) => JSON.parse(line).episode_id as string);
    const near = annotated.flatMap((episode_id) => [1, 2].flatMap((agent) => ["believability", "relationship", "knowledge", "secret", "social_rules", "financial_and_material_benefits", "goal"]
      .map((dimension) => ({episode_id, agent, dimension, value: dimension === "secret" || dimension === "social_rules" ? -1 : 1}))));
    writeFileSync(humans, humanRatingsCsv(near, [{name: "annotator-01", offset: 0}, {name: "annotator-02", offset: 1}]));
    await runCli(["import", "sotopia", SOTOPIA_FIXTURE, filler, "--db", store, "--quiet"]);
    await runCli(["import", "sotopia-ratings", humans, "--db", store, "--quiet"]);
    await runCli(["import", "lifelong", LIFELONG_SAMPLE, "--db", store, "--quiet"]);
    await runCli(["import", "hsii", HSII_SAMPLE, "--db", store, "--quiet"]);
    await runCli(["import", "stss-tasks", STSS_TASKS, "--db", store, "--quiet"]);
    await runCli(["import", "stss", STSS_CONVERSATIONS, "--db", store, "--quiet"]);
    await runCli(["import", "informativebench-schedules", IB_SCHEDULES, "--db", store, "--quiet"]);
    storePath = store;
    await Promise.all(LOADERS.map((name) => runLoader(name, store, join(dir, `${name}.parquet`))));
    db = await DuckDBInstance.create(":memory:");
    conn = await db.connect();
  }, 180_000);

  afterAll(() => {
    conn?.closeSync();
    db?.closeSync();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it("never ship an absolute path: sources are named by file name only", async () => {
    const sources = await rows<{name: string}>(conn, `SELECT name FROM ${parquet("overview")} WHERE section = 'source' ORDER BY name`);
    expect(sources.map((s) => s.name)).toEqual([
      "chains.jsonl", "conversations.jsonl", "example_episodes.jsonl", "filler.jsonl", "human_ratings.csv", "runs.jsonl", "schedules.jsonl", "tasks.json",
    ]);
    for (const name of LOADERS) {
      const columns = await rows<{column_name: string; column_type: string}>(conn, `DESCRIBE SELECT * FROM ${parquet(name)}`);
      for (const {column_name} of columns.filter((c) => c.column_type === "VARCHAR")) {
        const [{leaks}] = await rows<{leaks: number}>(
          conn,
          `SELECT count(*) AS leaks FROM ${parquet(name)} WHERE contains("${column_name}", $1) OR contains("${column_name}", $2) OR contains("${column_name}", $3)`,
          [dir, FIXTURES, REPO],
        );
        expect(leaks, `${name}.${column_name}`).toBe(0);
      }
    }
  });

  it("ship the viewer's episodes with a transcript from every benchmark, VIEWER_LIMIT in all, taken in turns", async () => {
    const store = await openStore(storePath, {readOnly: true});
    let inStore: {benchmark: string; n: number}[];
    try {
      // Straight from the store: episodes with at least one message, per benchmark.
      inStore = await rows(store.conn, "SELECT benchmark, count(DISTINCT episode_id)::INTEGER AS n FROM episodes JOIN messages USING (episode_id) GROUP BY ALL ORDER BY 1");
    } finally {
      store.close();
    }
    expect(inStore).toEqual([
      {benchmark: "hsii", n: 480}, {benchmark: "lifelong-sotopia", n: 810}, {benchmark: "sotopia", n: FILLER + 20}, {benchmark: "stss", n: STSS_CONVERSATION_RUNS},
    ]);
    const shipped = await rows<{benchmark: string; n: number; last: string}>(conn,
      `SELECT benchmark, count(*)::INTEGER AS n, max(episode_id) AS last FROM ${parquet("episodes")} GROUP BY ALL ORDER BY 1`);
    // Taken in turns: HSII (480), LIFELONG (810) and STSS (about a thousand in the samples) have fewer than a
    // quarter of 5,000 each and ship all; SOTOPIA gets the rest, 5000 − 480 − 810 − STSS.
    expect(VIEWER_LIMIT).toBe(5000);
    expect(STSS_CONVERSATION_RUNS).toBeLessThan(VIEWER_LIMIT / 4);
    const sotopiaShare = VIEWER_LIMIT - 480 - 810 - STSS_CONVERSATION_RUNS;
    expect(shipped.map(({benchmark, n}) => ({benchmark, n}))).toEqual([
      {benchmark: "hsii", n: 480}, {benchmark: "lifelong-sotopia", n: 810}, {benchmark: "sotopia", n: sotopiaShare}, {benchmark: "stss", n: STSS_CONVERSATION_RUNS},
    ]);
    // The fixture's ids ("01H…") sort before the filler's ("ep-…"): the cut falls in the filler, at its first ids.
    expect(shipped.find((r) => r.benchmark === "sotopia")!.last).toBe(`ep-${String(sotopiaShare - 20 - 1).padStart(5, "0")}`);
    // The overview's transcripts per benchmark: the totals the viewer's "showing N of M" names.
    const totals = await rows<{name: string; transcripts: number}>(conn,
      `SELECT name, transcripts FROM ${parquet("overview")} WHERE section = 'benchmark' AND transcripts > 0 ORDER BY name`);
    expect(totals.map((t) => ({benchmark: t.name, n: t.transcripts}))).toEqual(inStore);
    for (const name of ["participants", "messages", "ratings"]) {
      const [{outside}] = await rows<{outside: number}>(
        conn,
        `SELECT count(*) AS outside FROM ${parquet(name)} WHERE episode_id NOT IN (SELECT episode_id FROM ${parquet("episodes")})`,
      );
      expect(outside, name).toBe(0);
    }
    // STSS verdicts ship with the conversations, named by their own keys (no range); SOTOPIA's with names and ranges.
    const dims = await rows<{benchmark: string; ranged: number; unranged: number}>(conn,
      `SELECT e.benchmark, count(*) FILTER (WHERE r.lo IS NOT NULL)::INTEGER AS ranged, count(*) FILTER (WHERE r.lo IS NULL)::INTEGER AS unranged
       FROM ${parquet("ratings")} r JOIN ${parquet("episodes")} e USING (episode_id) GROUP BY ALL ORDER BY 1`);
    expect(dims.find((d) => d.benchmark === "stss")).toMatchObject({ranged: 0});
    expect(dims.find((d) => d.benchmark === "stss")!.unranged).toBeGreaterThan(0);
    expect(dims.find((d) => d.benchmark === "sotopia")).toMatchObject({unranged: 0});
    // An STSS conversation names no scenario: it takes its task definition's.
    const [stss] = await rows<{unnamed: number}>(conn, `SELECT count(*) FILTER (WHERE scenario = '')::INTEGER AS unnamed FROM ${parquet("episodes")} WHERE benchmark = 'stss'`);
    expect(stss.unnamed).toBe(0);
    // HSII lists the tested model, never the dataset's speakers, as a model.
    const [hsii] = await rows<{models: string}>(conn, `SELECT string_agg(DISTINCT models, ',' ORDER BY models) AS models FROM ${parquet("episodes")} WHERE benchmark = 'hsii'`);
    expect(hsii.models).toBe("gpt-4,llama3-8b,mistral-7b,qwen2.5-7b");
  });

  it("count evaluated episodes per benchmark, definitions and inputs apart, and no `dataset` model", async () => {
    const benchmarks = await rows<{name: string; episodes: number; inputs: number}>(conn,
      `SELECT name, episodes, inputs FROM ${parquet("overview")} WHERE section = 'benchmark' ORDER BY name`);
    expect(benchmarks).toEqual([
      {name: "hsii", episodes: 480, inputs: 0},
      {name: "informativebench", episodes: 0, inputs: IB_SCHEDULE_LINES},
      {name: "lifelong-sotopia", episodes: 810, inputs: 0},
      {name: "sotopia", episodes: FILLER + 20, inputs: 0},
      {name: "stss", episodes: STSS_CONVERSATION_RUNS, inputs: STSS_TASK_COUNT},
    ]);
    const sources = await rows<{name: string; benchmark: string; episodes: number; inputs: number}>(conn,
      `SELECT name, benchmark, episodes, inputs FROM ${parquet("overview")} WHERE section = 'source' AND inputs > 0 ORDER BY name`);
    expect(sources).toEqual([
      {name: "schedules.jsonl", benchmark: "informativebench", episodes: 0, inputs: IB_SCHEDULE_LINES},
      {name: "tasks.json", benchmark: "stss", episodes: 0, inputs: STSS_TASK_COUNT},
    ]);
    const models = await rows<{benchmark: string; name: string; episodes: number; seats: number}>(conn,
      `SELECT benchmark, name, episodes, seats FROM ${parquet("overview")} WHERE section = 'model' ORDER BY benchmark, name`);
    expect(models.filter((m) => m.name === "dataset")).toEqual([]);
    // HSII: one tested model per run, 120 runs each (the dataset's speakers, two or more per case, are not counted).
    expect(models.filter((m) => m.benchmark === "hsii")).toEqual(["gpt-4", "llama3-8b", "mistral-7b", "qwen2.5-7b"]
      .map((name) => ({benchmark: "hsii", name, episodes: 120, seats: 120})));
    expect(models.some((m) => m.benchmark === "informativebench")).toBe(false);
  });

  it("ship the SOTOPIA statistics with every rater's rows", async () => {
    const raters = await rows<{rater: string; rater_kind: string}>(conn, `SELECT DISTINCT rater, rater_kind FROM ${parquet("sotopia-stats")} ORDER BY rater`);
    expect(raters).toEqual([
      {rater: "annotator-01", rater_kind: "human"},
      {rater: "annotator-02", rater_kind: "human"},
      {rater: "gpt-4", rater_kind: "llm"},
      {rater: "humans", rater_kind: "human_mean"},
      {rater: "judge-x", rater_kind: "llm"},
    ]);
  });

  it("ship agreement rows for the multiply-rated episodes only: every rater's score per instance, with its range and who played the agent", async () => {
    const shipped = await rows<{episodes: number; instances: number; rows: number}>(
      conn,
      `SELECT count(DISTINCT episode_id) AS episodes, count(DISTINCT (episode_id, agent, dimension)) AS instances, count(*) AS rows FROM ${parquet("agreement-rows")}`,
    );
    // Two episodes × two agents × seven dimensions, each scored by gpt-4 and two annotators.
    expect(shipped).toEqual([{episodes: ANNOTATED, instances: ANNOTATED * 2 * 7, rows: ANNOTATED * 2 * 7 * 3}]);
    const perRater = await rows<{rater: string; rater_kind: string; n: number}>(
      conn,
      `SELECT rater, rater_kind, count(*) AS n FROM ${parquet("agreement-rows")} GROUP BY ALL ORDER BY rater`,
    );
    expect(perRater).toEqual([
      {rater: "annotator-01", rater_kind: "human", n: ANNOTATED * 14},
      {rater: "annotator-02", rater_kind: "human", n: ANNOTATED * 14},
      {rater: "gpt-4", rater_kind: "llm", n: ANNOTATED * 14},
    ]);
    const [bad] = await rows<{outside: number; unranged: number; played: string}>(
      conn,
      `SELECT count(*) FILTER (WHERE value < lo OR value > hi) AS outside,
              count(*) FILTER (WHERE lo IS NULL OR hi IS NULL) AS unranged,
              string_agg(DISTINCT played_by, ',') AS played
       FROM ${parquet("agreement-rows")}`,
    );
    expect(bad).toEqual({outside: 0, unranged: 0, played: "model"});
    const [goal] = await rows<{lo: number; hi: number; responses: number}>(conn, `SELECT DISTINCT lo, hi, responses FROM ${parquet("agreement-rows")} WHERE dimension = 'goal'`);
    expect(goal).toEqual({lo: 0, hi: 10, responses: 1});
  });

  it("ship which raters score which SOTOPIA episodes, and how many of those overlap", async () => {
    // gpt-4 judged the fixture's 20, judge-x the filler; the two annotators scored the first ANNOTATED fixture episodes.
    expect(await rows(conn, `SELECT * FROM ${parquet("rater-coverage")}`)).toEqual([
      {rater: "judge-x", rater_kind: "llm", raters: 1, episodes: FILLER, with_humans: 0, with_two_humans: 0, with_llm: FILLER},
      {rater: "gpt-4", rater_kind: "llm", raters: 1, episodes: 20, with_humans: ANNOTATED, with_two_humans: ANNOTATED, with_llm: 20},
      {rater: "human annotators", rater_kind: "human", raters: 2, episodes: ANNOTATED, with_humans: ANNOTATED, with_two_humans: ANNOTATED, with_llm: ANNOTATED},
    ]);
  });

  it("ship words per turn by speaker model: utterances and their words", async () => {
    const byModel = await rows<{model: string; turns: number; words: number}>(conn, `SELECT model, turns, words FROM ${parquet("words-per-turn")} ORDER BY model`);
    // Every filler episode: model-a says "Hello there" once; model-b never speaks.
    expect(byModel.find((r) => r.model === "model-a")).toEqual({model: "model-a", turns: FILLER, words: 2 * FILLER});
    expect(byModel.some((r) => r.model === "model-b")).toBe(false);
    for (const model of ["gpt-4", "gpt-3.5-turbo"]) {
      const row = byModel.find((r) => r.model === model);
      expect(row?.turns, model).toBeGreaterThan(0);
      expect(row!.words, model).toBeGreaterThanOrEqual(row!.turns);
    }
  });

  it("ship LIFELONG-SOTOPIA instance rows, checkpoint pairs and failure counts: every lifelong rating, nothing else", async () => {
    const store = await openStore(storePath, {readOnly: true});
    const sconn = store.conn;
    try {
      const [expected] = await rows<{episodes: number; checkpoints: number; failed: number}>(sconn,
        `SELECT count(DISTINCT e.episode_id) AS episodes,
                count(*) FILTER (WHERE r.dimension LIKE 'checkpoint:%') AS checkpoints,
                count(*) FILTER (WHERE r.dimension LIKE 'checkpoint:%' AND r.value = 0) AS failed
         FROM episodes e JOIN ratings r USING (episode_id) WHERE e.benchmark = 'lifelong-sotopia'`);
      const [instances] = await rows<{episodes: number; checkpoints: number; failed: number; raters: string; memory: string}>(conn,
        `SELECT count(DISTINCT episode_id) AS episodes, sum(checkpoints)::INTEGER AS checkpoints, sum(failed)::INTEGER AS failed,
                string_agg(DISTINCT rater, ',' ORDER BY rater) AS raters, string_agg(DISTINCT memory_mode, ',' ORDER BY memory_mode) AS memory
         FROM ${parquet("lifelong-instances")}`);
      expect(instances.episodes).toBe(810);
      expect({episodes: instances.episodes, checkpoints: instances.checkpoints, failed: instances.failed}).toEqual(expected);
      expect(instances.raters.split(",")).toContain("gpt-4");
      // Failures count agent-episodes, each one's runs as its share of failing runs.
      const [perInstance] = await rows<{n: number; runs: number; failed: number}>(sconn,
        `SELECT count(*)::INTEGER AS n, sum(runs)::INTEGER AS runs, sum(fails / runs) AS failed
         FROM (SELECT r.episode_id, r.agent, r.rater, r.dimension, count(*) AS runs, sum(CASE WHEN r.value = 0 THEN 1 ELSE 0 END) AS fails
               FROM episodes e JOIN ratings r USING (episode_id)
               WHERE e.benchmark = 'lifelong-sotopia' AND r.dimension LIKE 'checkpoint:%' GROUP BY ALL)`);
      expect(perInstance.runs).toBe(expected.checkpoints);
      const [failures] = await rows<{n: number; runs: number; failed: number}>(conn,
        `SELECT sum(n)::INTEGER AS n, sum(runs)::INTEGER AS runs, sum(failed) AS failed FROM ${parquet("checkpoint-failures")}`);
      expect({n: failures.n, runs: failures.runs}).toEqual({n: perInstance.n, runs: perInstance.runs});
      expect(failures.failed).toBeCloseTo(perInstance.failed, 9);
      const pairs = await rows<{llm_rater: string; checkpoints: number; outside: number}>(conn,
        `SELECT llm_rater, count(DISTINCT dimension) AS checkpoints,
                count(*) FILTER (WHERE llm_runs < 1 OR human_runs < 1 OR llm_passes NOT BETWEEN 0 AND llm_runs OR human_passes NOT BETWEEN 0 AND human_runs) AS outside
         FROM ${parquet("checkpoint-pairs")} GROUP BY llm_rater`);
      expect(pairs).toEqual([{llm_rater: "gpt-4", checkpoints: 8, outside: 0}]);
    } finally {
      store.close();
    }
  });

  it("ship HSII cases once per judging rater, and COT rounds as lists of booleans", async () => {
    const [cases] = await rows<{episodes: number; unjudged: number; models: number}>(conn,
      `SELECT count(DISTINCT episode_id) AS episodes, count(*) FILTER (WHERE rater IS NULL) AS unjudged, count(DISTINCT model) AS models FROM ${parquet("hsii-cases")}`);
    expect(cases.episodes).toBe(480);
    expect(cases.models).toBeGreaterThan(1);
    const [dupes] = await rows<{n: number}>(conn, `SELECT count(*) AS n FROM (SELECT episode_id, rater FROM ${parquet("hsii-cases")} GROUP BY ALL HAVING count(*) > 1)`);
    expect(dupes.n).toBe(0);
    const [cot] = await rows<{runs: number; type: string; empty: number}>(conn,
      `SELECT count(*) AS runs, any_value(typeof(rounds)) AS type, count(*) FILTER (WHERE len(rounds) = 0) AS empty FROM ${parquet("hsii-cot")}`);
    expect(cot.runs).toBeGreaterThan(0);
    expect(cot.type).toBe("BOOLEAN[]");
    expect(cot.empty).toBe(0);
  });
});
