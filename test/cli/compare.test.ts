// `sociometer compare` on the bundled samples: each benchmark's pairing, with
// counts and means checked against SQL written independently of the
// comparison's own, and the sample pair of judge runs where only `goal` moves.

import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {compareFromArgs, readCompareRows, sideWordsAsOptions} from "../../loaders/cli/compare.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {PAGE_OPTIONS, parseSummary} from "../../src/client/compare-summary.js";
import initParquet from "parquet-wasm/esm";
import {SOTOPIA_COMPARE_SQL} from "../../loaders/queries/compare.js";
import {compareCoded, type CodedRows} from "../../src/client/compare-coded.js";
import {openComparePack, type ComparePack} from "../../src/client/compare-pack.js";
import {COMPARE_BENCHMARKS, compareRuns, type CompareBenchmark, type CompareOptions, type Comparison, type Side} from "../../src/lib/compare.js";
import {cli} from "../helpers/cli.js";
import {fileFetch} from "../helpers/compare-fetch.js";
import {REPO} from "../helpers/fixtures.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";

let dir: string;
let store: Store;
const holm: CompareOptions = {adjust: "holm", resamples: 200, seed: 1};
/** HSII's win policies other than the default, each shipped in its own pack. */
const OTHER_POLICIES = ["strict", "first"] as const;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sociometer-compare-"));
  store = await openSamplesCopy(join(dir, "samples.duckdb"));
}, 120_000);

afterAll(() => {
  store?.close();
  rmSync(dir, {recursive: true, force: true});
});

const one = async <T>(sql: string): Promise<T> => (await rows<Record<string, T>>(store.conn, sql))[0]!.x;
const metric = (c: Comparison, name: string) => c.metrics.find((m) => m.metric === name)!;

describe("compare on the samples", () => {
  it("SOTOPIA judge reruns: paired by episode and seat, only goal changes significantly (Holm)", async () => {
    const c = await compareFromArgs(store, "sotopia", ["rater=gpt-4o", "run=prompt-v1"], ["rater=gpt-4o", "run=prompt-v2"], holm);
    expect(c.pairing).toBe("instance");
    // 60 episodes × 2 seats, every one scored in both runs.
    expect(c.metrics.map((m) => [m.metric, m.nPaired, m.unpairedA, m.unpairedB])).toEqual(
      ["believability", "relationship", "knowledge", "secret", "social_rules", "financial_and_material_benefits", "goal", "overall"].map((d) => [d, 120, 0, 0]));
    expect(c.metrics.filter((m) => m.pAdjusted < 0.05).map((m) => m.metric)).toEqual(["goal"]);
    const shift = await one<number>(`SELECT avg(b.value - a.value) AS x FROM ratings a JOIN ratings b USING (episode_id, agent, dimension)
      WHERE a.rater = 'gpt-4o' AND b.rater = 'gpt-4o' AND a.run_id = 'prompt-v1' AND b.run_id = 'prompt-v2' AND dimension = 'goal'`);
    expect(metric(c, "goal").difference).toBeCloseTo(shift, 12);
    expect(c.statement).toContain("paired by the same episode and seat");
  });

  it("SOTOPIA default: the rater that scored the most episodes, and the two models that pair most under it, paired by task, partner and seat; the rest counted as unpaired", async () => {
    const c = await compareFromArgs(store, "sotopia", [], [], holm);
    expect([c.a, c.b]).toEqual([{model: "gpt-4", rater: "gpt-4"}, {model: "llama-2-70b-chat", rater: "gpt-4"}]);
    const scored = await rows<{rater: string; n: number}>(store.conn, `SELECT rater, count(DISTINCT episode_id)::INTEGER AS n FROM ratings JOIN episodes USING (episode_id)
      WHERE benchmark = 'sotopia' GROUP BY rater ORDER BY n DESC, rater LIMIT 1`);
    expect(scored).toEqual([{rater: "gpt-4", n: 232}]);
    // Every two models compared under gpt-4, by the comparison itself: the default pair pairs the most items over the metrics.
    const models = ["gpt-3.5-turbo", "gpt-4", "human", "llama-2-70b-chat", "mistral-7b-instruct"];
    const paired = new Map<string, number>();
    for (let j = 1; j < models.length; j++) {
      for (let i = 0; i < j; i++) {
        const x = await compareFromArgs(store, "sotopia", [`model=${models[i]}`, "rater=gpt-4"], [`model=${models[j]}`, "rater=gpt-4"], {...holm, resamples: 1});
        paired.set(`${models[i]} ${models[j]}`, x.metrics.reduce((sum, m) => sum + m.nPaired, 0));
      }
    }
    const most = Math.max(...paired.values());
    expect([...paired].filter(([, n]) => n === most).map(([k]) => k)).toEqual(["gpt-4 llama-2-70b-chat"]);
    expect(most).toBe(328);
    // Every gpt-4 seat's (scenario, characters, partner, seat), counted once: paired or unpaired on A.
    const tasksA = await one<number>(`SELECT count(DISTINCT (coalesce(e.scenario_id, e.scenario), p.agent, q.model, (SELECT string_agg(coalesce(agent_ref, character), ' & ' ORDER BY coalesce(agent_ref, character)) FROM participants WHERE episode_id = e.episode_id))) AS x
      FROM episodes e JOIN participants p USING (episode_id) JOIN participants q ON q.episode_id = e.episode_id AND q.agent <> p.agent
      WHERE e.benchmark = 'sotopia' AND p.model = 'gpt-4'`);
    const goal = metric(c, "goal");
    expect(goal.nPaired + goal.unpairedA).toBe(tasksA);
    expect(c.unpaired.filter((u) => u.metric === "goal" && u.side === "A")).toHaveLength(goal.unpairedA);
    expect(goal.nPaired).toBeGreaterThan(0);
    expect(c.notes[0]).toBe("defaults: rated by gpt-4, the rater that scored the most sotopia episodes (232); under it, the two models that pair on the most items (gpt-4: 107, llama-2-70b-chat: 91 episodes): 328 items paired, summed over the metrics");
    // 41 of the 8 dimensions' items pair: the note's count is the table's.
    expect(c.metrics.map((m) => m.nPaired)).toEqual(Array(8).fill(41));
  });

  it("SOTOPIA default counts the episodes a rater scored, not its scores: a rater of one model's seats many times over is not it", async () => {
    // "solo" rates gpt-4's seats five times over (4,800 scores, more than gpt-4's 3,712 as a rater) on 107 episodes, fewer than gpt-4's 232: it pairs no two models.
    await store.conn.run("BEGIN TRANSACTION");
    try {
      await store.conn.run(`INSERT INTO ratings SELECT r.episode_id, r.agent, r.dimension, 'solo', 'human', r.value, NULL, 'solo-' || k, r.source_id
        FROM ratings r JOIN participants p USING (episode_id, agent) JOIN episodes e USING (episode_id), range(5) t(k)
        WHERE e.benchmark = 'sotopia' AND p.model = 'gpt-4' AND r.rater = 'gpt-4'`);
      const c = await compareFromArgs(store, "sotopia", [], [], holm);
      expect([c.a, c.b]).toEqual([{model: "gpt-4", rater: "gpt-4"}, {model: "llama-2-70b-chat", rater: "gpt-4"}]);
      expect(c.notes[0]).toMatch(/^defaults: rated by gpt-4, the rater that scored the most sotopia episodes \(232\); /);
      // The comparison a rule by scores would choose pairs nothing.
      const old = await compareFromArgs(store, "sotopia", ["model=gpt-4", "rater=solo"], ["model=gpt-3.5-turbo", "rater=solo"], holm);
      expect(old.metrics.map((m) => m.nPaired)).toEqual(Array(8).fill(0));
      expect(old.metrics[0].test).toBe("paired t: no pairs; Wilcoxon signed-rank: no pairs");
    } finally {
      await store.conn.run("ROLLBACK");
    }
  });

  it("LIFELONG memory modes: paired by chain position of the same pair, scenario and seat", async () => {
    const c = await compareFromArgs(store, "lifelong", ["model=gpt-4o", "memory=full"], ["model=gpt-4o", "memory=summary"], holm);
    const shared = await one<number>(`WITH s AS (
        SELECT e.episode_id, e.chain_index, coalesce(e.scenario_id, e.scenario) AS scenario, e.settings->>'memory_mode' AS memory,
               (SELECT string_agg(coalesce(agent_ref, character), ' & ' ORDER BY coalesce(agent_ref, character)) FROM participants WHERE episode_id = e.episode_id) AS pair
        FROM episodes e JOIN participants p ON p.episode_id = e.episode_id AND p.agent = 1
        WHERE e.benchmark = 'lifelong-sotopia' AND p.model = 'gpt-4o')
      SELECT 2 * count(*) AS x FROM s a JOIN s b USING (chain_index, scenario, pair) WHERE a.memory = 'full' AND b.memory = 'summary'`);
    for (const m of c.metrics) {
      expect(m.nPaired).toBe(shared);
      // 3 pairs × 45 positions × 2 seats on each side.
      expect(m.nPaired + m.unpairedA).toBe(270);
      expect(m.nPaired + m.unpairedB).toBe(270);
    }
  });

  it("HSII with and without COT: the same 60 cases, stage rates as paired proportions", async () => {
    const c = await compareFromArgs(store, "hsii", ["model=gpt-4", "cot=without"], ["model=gpt-4", "cot=with"], holm);
    // Win rows pair only the cases among the n2 (parsed, right target) on both sides, and judged on both.
    const n2 = Number(await one<bigint>(`WITH w AS (SELECT c.case_id, c.cot FROM hsii_cases c JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
      WHERE p.model = 'gpt-4' AND c.parsed AND c.target_correct AND c.episode_id IN (SELECT episode_id FROM hsii_judgments WHERE stage = 3))
      SELECT count(*) AS x FROM w a JOIN w b ON a.case_id = b.case_id AND a.cot AND NOT b.cot`));
    expect(n2).toBeGreaterThan(0);
    expect(c.metrics.map((m) => [m.metric, m.kind, m.nPaired])).toEqual([
      ["stage1_parsed", "binary", 60], ["stage2_target_correct", "binary", 60], ["stage3_win (mean)", "continuous", n2], ["stage4_win (mean)", "continuous", n2]]);
    const rate = (cot: boolean) => one<number>(`SELECT avg(c.target_correct::INTEGER) AS x FROM hsii_cases c JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1 WHERE p.model = 'gpt-4' AND c.cot = ${cot}`);
    const s2 = metric(c, "stage2_target_correct");
    expect(s2.meanA).toBeCloseTo(await rate(false), 12);
    expect(s2.meanB).toBeCloseTo(await rate(true), 12);
    expect(s2.test).toMatch(/^exact McNemar \(\d+ discordant pairs\); Newcombe hybrid score interval/);
  });

  it("STSS GA vs GA+TDP: every conversation scenario of gpt-4 paired, and each of its goal conditions, appointment talks with someone else left out", async () => {
    const c = await compareFromArgs(store, "stss", ["model=gpt-4", "setting=GA"], ["model=gpt-4", "setting=GA+TDP"], holm);
    // docs/formats.md: an appointment conversation whose partner is not a target (or whose performer is not the task's) counts nowhere.
    const onTarget = `NOT (t.category = 'appointment' AND ((len(coalesce(t.targets, [])) > 0 AND NOT list_contains(t.targets, c.partner))
      OR (c.performer IS NOT NULL AND c.performer <> t.performer)))`;
    const conversations = await one<number>(`SELECT count(*) AS x FROM stss_conversations c JOIN stss_tasks t USING (task_id) JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
      WHERE p.model = 'gpt-4' AND c.architecture = 'GA' AND ${onTarget}`);
    expect(conversations).toBe(133);
    const conditions = await one<number>(`SELECT count(*) AS x FROM ratings r JOIN stss_conversations c USING (episode_id) JOIN stss_tasks t USING (task_id)
      JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1
      WHERE p.model = 'gpt-4' AND c.architecture = 'GA' AND r.dimension LIKE 'conversation:%' AND ${onTarget}`);
    expect(metric(c, "conversation success").nPaired).toBe(conversations);
    expect(metric(c, "conversation goal conditions").nPaired).toBe(conditions);
    expect(c.unpaired).toEqual([]);
  });

  it("InformativeBench models: paired by question within a settings combination; the ablation runs are unpaired, counted and listed", async () => {
    const c = await compareFromArgs(store, "informativebench", ["model=gpt-3.5-turbo-16k"], ["model=gpt-4-0125-preview"], holm);
    expect(metric(c, "NP").nPaired).toBe(100);
    // gpt-3.5-turbo-16k's InfoNav-off runs of the 100 NP questions have no gpt-4 counterpart.
    expect(metric(c, "NP").unpairedA).toBe(100);
    expect(c.unpaired.filter((u) => u.metric === "NP" && u.side === "A").every((u) => u.item.endsWith("| setting no setting on"))).toBe(true);
    expect(metric(c, "NP").kind).toBe("binary");
    expect(metric(c, "ScheduleHard").kind).toBe("continuous");
  });

  it("gives the same bootstrap interval for the same seed, another for another seed, and draws scenarios with --cluster", async () => {
    const args = ["rater=gpt-4o", "run=prompt-v1"];
    const b = ["rater=gpt-4o", "run=prompt-v2"];
    const first = metric(await compareFromArgs(store, "sotopia", args, b, {...holm, seed: 5}), "goal");
    const again = metric(await compareFromArgs(store, "sotopia", args, b, {...holm, seed: 5}), "goal");
    const other = metric(await compareFromArgs(store, "sotopia", args, b, {...holm, seed: 6}), "goal");
    expect([again.bootLo, again.bootHi]).toEqual([first.bootLo, first.bootHi]);
    expect([other.bootLo, other.bootHi]).not.toEqual([first.bootLo, first.bootHi]);
    const clustered = await compareFromArgs(store, "sotopia", args, b, {...holm, cluster: true});
    expect(clustered.statement).toContain("bootstrap over scenarios (clustered)");
  });
});

describe("the compare command", () => {
  it("reads several KEY=VALUE words after --a and --b", () => {
    expect(sideWordsAsOptions(["sotopia", "--a", "model=x", "rater=y", "--b", "model=z", "--seed", "3"]))
      .toEqual(["sotopia", "--a", "model=x", "--a", "rater=y", "--b", "model=z", "--seed", "3"]);
    expect(() => sideWordsAsOptions(["--a", "gpt-4"])).toThrow('--a needs KEY=VALUE words, not "gpt-4"');
  });

  it("prints JSON with the statement, the metrics, the changed and the unpaired items", async () => {
    const db = join(dir, "samples.duckdb");
    store.close();
    try {
      const r = await cli(["compare", "sotopia", "--a", "rater=gpt-4o", "run=prompt-v1", "--b", "rater=gpt-4o", "run=prompt-v2", "--format", "json", "--resamples", "100", "--changed", "1", "--db", db]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as {statement: string; metrics: {metric: string; n_paired: number; p_adjusted: number}[]; changed: {viewer: string}[]; unpaired: unknown[]};
      expect(out.metrics.filter((m) => m.p_adjusted < 0.05).map((m) => m.metric)).toEqual(["goal"]);
      expect(out.changed[0].viewer).toMatch(/^episodes\?episode=[^&]+&vs=[^&]+$/);
      expect(out.unpaired).toEqual([]);
      const bad = await cli(["compare", "sotopia", "--a", "memory=full", "--b", "model=gpt-4", "--db", db]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('sociometer: side A: sotopia has no key "memory"; its keys are model, rater, run, source\n');
    } finally {
      store = await openStore(db);
    }
  }, 60_000);
});

/** Runs a data loader of src/data on the sample store (in this process), its stdout into `out`. */
async function runLoader(loader: string, out: string): Promise<void> {
  writeFileSync(out, await runLoaderInProcess(`src/data/${loader}`, {store: join(dir, "samples.duckdb")}));
}

/** A shipped pack as the page's worker opens it (parquet-wasm started from its file). */
async function openedPack(file: string, options: {ranges?: boolean} = {}): Promise<ComparePack> {
  await initParquet({module_or_path: readFileSync(join(REPO, "node_modules", "parquet-wasm", "esm", "parquet_wasm_bg.wasm"))});
  return openComparePack(file, fileFetch(file, options));
}

/** The rows of side A or B of a shipped pack, as the page's worker reads them. */
const sidesRows = async (file: string, a: Side, b: Side): Promise<CodedRows> => (await openedPack(file)).rowsFor(a, b, () => {});

describe("the Compare page's data: data/compare-rows-<benchmark>.bin and data/compare-summary.json", () => {
  let shippedFiles: Record<string, string> | null = null;

  it("ships each benchmark's rows in the CLI's order, the worker's side filter on them gives the CLI's comparison, and the summary's first view is the CLI's default", async () => {
    const sides = {a: {rater: "gpt-4o", run: "prompt-v1"}, b: {rater: "gpt-4o", run: "prompt-v2"}};
    const cliComparison = await compareFromArgs(store, "sotopia", ["rater=gpt-4o", "run=prompt-v1"], ["rater=gpt-4o", "run=prompt-v2"], holm);
    const pageOptions: CompareOptions = {...PAGE_OPTIONS};
    const cliDefault = await compareFromArgs(store, undefined, [], [], pageOptions);
    const counts: Record<string, number> = {};
    for (const b of COMPARE_BENCHMARKS) counts[b] = (await readCompareRows(store, b)).length;
    for (const policy of OTHER_POLICIES) counts[`hsii-${policy}`] = (await readCompareRows(store, "hsii", undefined, policy)).length;
    store.close();
    const files: Record<string, string> = {};
    try {
      for (const b of COMPARE_BENCHMARKS) {
        files[b] = join(dir, `compare-rows-${b}.bin`);
        await runLoader(`compare-rows-${b}.bin.ts`, files[b]);
      }
      for (const policy of OTHER_POLICIES) {
        files[`hsii-${policy}`] = join(dir, `compare-rows-hsii-${policy}.bin`);
        await runLoader(`compare-rows-hsii-${policy}.bin.ts`, files[`hsii-${policy}`]);
      }
      await runLoader("compare-summary.json.ts", join(dir, "compare-summary.json"));
    } finally {
      store = await openStore(join(dir, "samples.duckdb"));
    }
    // Every row is in one block; the blocks' dictionaries together hold each text of each column.
    const shipped: Record<string, number> = {};
    for (const b of Object.keys(files)) shipped[b] = (await openedPack(files[b])).header.rows;
    expect(shipped).toEqual(counts);
    expect(counts.sotopia).toBeGreaterThan(0);
    const distinctTasks = await one<number>(`SELECT count(DISTINCT task)::INTEGER AS x FROM (${SOTOPIA_COMPARE_SQL})`);
    const everything = await sidesRows(files.sotopia, {}, {});
    expect(everything.count).toBe(counts.sotopia);
    expect(everything.sizes[1]).toBe(distinctTasks);
    // The worker's path: the blocks of the two sides fetched, their codes decoded, the sides picked and paired on them.
    const page = compareCoded("sotopia", await sidesRows(files.sotopia, sides.a, sides.b), sides.a, sides.b, holm);
    expect(page.metrics).toEqual(cliComparison.metrics);
    expect(page.statement).toBe(cliComparison.statement);
    const summary = parseSummary(readFileSync(join(dir, "compare-summary.json"), "utf8"));
    expect(summary.choices.map((c) => c.benchmark)).toEqual(COMPARE_BENCHMARKS.filter((b) => counts[b] > 0));
    expect(summary.first!.request).toEqual({benchmark: cliDefault.benchmark, a: cliDefault.a, b: cliDefault.b, options: pageOptions});
    expect(summary.first!.comparison.metrics).toEqual(cliDefault.metrics);
    expect(summary.first!.comparison.statement).toBe(cliDefault.statement);
    shippedFiles = files;
  }, 180_000);

  // Sides whose matched keys have no values on them pair on codes; the others (a rater on LIFELONG, HSII and STSS rows) go through compareRuns on decoded rows.
  const SIDES: [CompareBenchmark, Side, Side][] = [
    ["sotopia", {rater: "gpt-4o", run: "prompt-v1"}, {rater: "gpt-4o", run: "prompt-v2"}],
    ["sotopia", {model: "gpt-4o"}, {model: "gpt-3.5-turbo"}],
    ["lifelong", {model: "gpt-4o", memory: "full"}, {model: "gpt-4o", memory: "summary"}],
    ["hsii", {model: "gpt-4", cot: "without"}, {model: "gpt-4", cot: "with"}],
    ["hsii", {model: "gpt-4", cot: "with", rater: "gpt-4"}, {model: "gpt-4", cot: "with", rater: "nobody"}],
    ["stss", {model: "gpt-4", setting: "GA"}, {model: "gpt-4", setting: "GA+TDP"}],
    ["informativebench", {model: "gpt-3.5-turbo-16k"}, {model: "gpt-4-0125-preview"}],
  ];

  it("gives, from each benchmark's coded file, the comparison compareRuns gives from the store's rows (every field, with unpaired items and changed items)", async () => {
    expect(shippedFiles).not.toBeNull();
    for (const [benchmark, a, b] of SIDES) {
      const fromStore = compareRuns(benchmark, await readCompareRows(store, benchmark, {a, b}), a, b, {...holm, changed: 3});
      const fromFile = compareCoded(benchmark, await sidesRows(shippedFiles![benchmark], a, b), a, b, {...holm, changed: 3});
      expect(fromFile, `${benchmark}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`).toEqual(fromStore);
      expect(fromStore.metrics.length, `${benchmark} compares something`).toBeGreaterThan(0);
    }
    // HSII's wins under the other policies, from their own packs.
    const [a, b] = [{model: "gpt-4", cot: "without"}, {model: "gpt-4", cot: "with"}];
    for (const policy of OTHER_POLICIES) {
      const fromStore = compareRuns("hsii", await readCompareRows(store, "hsii", {a, b}, policy), a, b, {...holm, changed: 3});
      const fromFile = compareCoded("hsii", await sidesRows(shippedFiles![`hsii-${policy}`], a, b), a, b, {...holm, changed: 3});
      expect(fromFile, policy).toEqual(fromStore);
      expect(fromStore.metrics.map((m) => m.metric)).toEqual(["stage1_parsed", "stage2_target_correct", `stage3_win (${policy})`, `stage4_win (${policy})`]);
    }
  }, 60_000);

  it("fetches only the blocks on the two sides, by range requests; takes a small pack whole from a server without them; refuses an old rows file", async () => {
    expect(shippedFiles).not.toBeNull();
    const file = shippedFiles!.sotopia;
    const pack = await openedPack(file);
    const size = readFileSync(file).length;
    const afterHeader = pack.fetched.bytes;
    expect(afterHeader).toBe(Math.min(65536, size));
    // Blocks are the combinations of side keys; the judge runs' sides take those of rater gpt-4o and run prompt-v1 or prompt-v2.
    const combinations = await one<number>(`SELECT count(*)::INTEGER AS x FROM (SELECT DISTINCT model, rater, run, source FROM (${SOTOPIA_COMPARE_SQL}))`);
    const onSides = await one<number>(`SELECT count(*)::INTEGER AS x FROM (SELECT DISTINCT model, rater, run, source FROM (${SOTOPIA_COMPARE_SQL})
      WHERE rater = 'gpt-4o' AND run IN ('prompt-v1', 'prompt-v2'))`);
    const sideRows = await one<number>(`SELECT count(*)::INTEGER AS x FROM (${SOTOPIA_COMPARE_SQL}) WHERE rater = 'gpt-4o' AND run IN ('prompt-v1', 'prompt-v2')`);
    expect(pack.header.blocks.length).toBe(combinations);
    const a = {rater: "gpt-4o", run: "prompt-v1"};
    const b = {rater: "gpt-4o", run: "prompt-v2"};
    const wanted = pack.header.blocks.filter((k) => k.keys.rater === "gpt-4o" && (k.keys.run === "prompt-v1" || k.keys.run === "prompt-v2"));
    expect(wanted.length).toBe(onSides);
    const rows = await pack.rowsFor(a, b, () => {});
    expect(rows.count).toBe(sideRows);
    expect(pack.fetched).toEqual({requests: 1 + onSides, bytes: afterHeader + wanted.reduce((sum, k) => sum + k.length, 0)});
    expect(pack.fetched.bytes).toBeLessThan(size);
    // The same sides again (other options) fetch nothing.
    await pack.rowsFor(a, b, () => {});
    expect(pack.fetched.requests).toBe(1 + onSides);
    const whole = await openComparePack(file, fileFetch(file, {ranges: false}));
    expect(compareCoded("sotopia", await whole.rowsFor(a, b, () => {}), a, b, holm)).toEqual(compareCoded("sotopia", rows, a, b, holm));
    expect(whole.fetched).toEqual({requests: 1, bytes: size});
    const old = join(dir, "old-compare-rows.parquet");
    await store.conn.run(`COPY (SELECT 1 AS metric) TO '${old}' (FORMAT parquet)`);
    await expect(openComparePack(old, fileFetch(old))).rejects.toThrow(`${old} is not a compare pack (starts with "PAR1"): rebuild the site`);
  }, 60_000);
});
