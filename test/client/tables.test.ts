// The pages' first view is drawn from Parquet decoded straight into rows
// (src/client/tables.ts), not from DuckDB-wasm. These tests hold it to the SQL
// path it replaced: on the samples, every page's data built from the decoded
// tables equals what the page's former queries gave in DuckDB, and so do the
// numbers the shared metric library computes from them.

import {readFileSync, writeFileSync} from "node:fs";
import {createRequire} from "node:module";
import {join} from "node:path";
import {DuckDBInstance, type DuckDBConnection} from "@duckdb/node-api";
import initParquet from "parquet-wasm/esm";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {cotByModel, cotByModelFromRounds, hsiiData, hsiiLookup, longestRun, readHsiiFirstView} from "../../src/client/hsii.js";
import {IB_CHOICES, ibLookup, ibView, infoNavLookup, infoNavView, informativeBenchData, readIbFirstView, scoredByMatch} from "../../src/client/informativebench.js";
import {
  checkpointFailures, curvesFromGroups, harderStartsFromGroups, lifelongData, lifelongFirstView, lifelongRaters, loggedBelCheck, rangeTable, rangeTableFromGroups, readLifelongRowViews,
  validationLookup, validationRaters, validationRows,
} from "../../src/client/lifelong.js";
import {overviewData} from "../../src/client/overview.js";
import {sotopiaData, sotopiaTaskData, wordsPerTurnRows} from "../../src/client/sotopia.js";
import {languageLookup, languageOptionsText, mismatchWarning, readStssFirstView, stssData, stssRuns, table4Lookup} from "../../src/client/stss.js";
import {decodeParquetRows} from "../../src/client/parquet.js";
import {compareText, decodePack, distinctSorted, encodePack, orderBy, type Row} from "../../src/client/tables.js";
import {hsiiByModel} from "../../src/lib/hsii.js";
import {DEFAULT_IB_OPTIONS} from "../../src/lib/informativebench.js";
import {curves, harderStarts, type LifelongInstance} from "../../src/lib/lifelong.js";
import {tQuantile} from "../../src/lib/t-quantile.js";
import {defaultRater, modelAggregates, pairwiseMatrix, wordsPerTurn, OVERALL} from "../../src/lib/sotopia.js";
import {APPOINTMENT_PARTNERS, conditionFailures, LEVELS, table3, taskSummaries} from "../../src/lib/stss.js";
import {HELP_ORDER_RULES, INITIATOR_RULES, table4} from "../../src/lib/stss-action.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempDir} from "../helpers/store.js";
import {copySamplesStore} from "../helpers/shared-stores.js";

/** The data loaders behind the eight pages, and the table name each page gives its output. */
const LOADERS = {
  overview: "overview",
  sotopia_stats: "sotopia-stats",
  sotopia_tasks: "sotopia-tasks",
  words_per_turn: "words-per-turn",
  lifelong_instances: "lifelong-instances",
  checkpoint_pairs: "checkpoint-pairs",
  checkpoint_failures: "checkpoint-failures",
  hsii_cases: "hsii-cases",
  hsii_cot: "hsii-cot",
  stss_conversations: "stss-conversations",
  stss_runs: "stss-runs",
  stss_tasks: "stss-tasks",
  ib_results: "informativebench-results",
  ib_plans: "informativebench-plans",
  ib_consensus: "informativebench-consensus",
  ib_schedules: "informativebench-schedules",
} as const;
type TableName = keyof typeof LOADERS;

/**
 * Tables a pack holds that no Parquet loader writes: SOTOPIA's statistics summed
 * over tasks, LIFELONG-SOTOPIA's per chain index and its raters, the overview's
 * files grouped, and the overview without or with only its files.
 */
type SummaryName = "sotopia_groups" | "lifelong_groups" | "lifelong_raters" | "source_groups" | "sources" | "hsii_first" | "stss_first" | "ib_first" | "ib_scores" | "lifelong_views";

/** The packs pages read (src/data/<pack>.bin.ts) and the tables in each, in order. */
const PACKS: Record<string, readonly (TableName | SummaryName)[]> = {
  "overview-first-view": ["overview", "source_groups"],
  "overview-sources": ["sources"],
  "sotopia-first-view": ["sotopia_groups", "words_per_turn", "overview"],
  "sotopia-by-task": ["sotopia_stats", "sotopia_tasks"],
  "lifelong-first-view": ["lifelong_groups", "lifelong_raters", "overview"],
  "lifelong-rows": ["checkpoint_failures", "lifelong_views"],
  "hsii-first-view": ["hsii_first", "overview"],
  "stss-first-view": ["stss_first", "stss_tasks", "overview"],
  "stss-rows": ["stss_runs"],
  "informativebench-first-view": ["ib_first", "overview"],
  "informativebench-rows": ["ib_results", "ib_plans", "ib_consensus", "ib_schedules", "ib_scores"],
};

/** Runs one loader (`<name>.parquet.ts` unless the name has its own extension) as Framework does and returns its output. */
const runLoader = (name: string, storePath: string): Promise<Buffer> =>
  runLoaderInProcess(join("src", "data", name.includes(".") ? `${name}.ts` : `${name}.parquet.ts`), {store: storePath});

/** DuckDB's JS values as DuckDB-wasm handed them to the pages (castBigIntToDouble): numbers, never bigints. */
function plainSql(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plainSql);
  return value;
}

let decoded: Record<TableName, Row[]>;
/** Each page's first-view pack, as its loader wrote it. */
const packs = new Map<string, Buffer>();
let instance: DuckDBInstance;
let sql: DuckDBConnection;
/** The SQL path: a query over the same Parquet files in DuckDB, rows as plain objects. */
async function query<T = Row>(text: string): Promise<T[]> {
  const rows = (await sql.runAndReadAll(text)).getRowObjectsJS();
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plainSql(v)]))) as T[];
}

beforeAll(async () => {
  const dir = tempDir();
  const storePath = join(dir, "samples.duckdb");
  await copySamplesStore(storePath);
  const require = createRequire(import.meta.url);
  await initParquet({module_or_path: readFileSync(require.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"))});
  instance = await DuckDBInstance.create(":memory:");
  sql = await instance.connect();
  decoded = {} as Record<TableName, Row[]>;
  // Two at a time: each loader is a process of its own.
  const names = Object.keys(LOADERS) as TableName[];
  for (let i = 0; i < names.length; i += 2) {
    await Promise.all(names.slice(i, i + 2).map(async (name) => {
      const parquet = await runLoader(LOADERS[name], storePath);
      const file = join(dir, `${name}.parquet`);
      writeFileSync(file, parquet);
      decoded[name] = await decodeParquetRows(new Blob([new Uint8Array(parquet)]));
      await sql.run(`CREATE TABLE ${name} AS SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`);
    }));
  }
  const packNames = Object.keys(PACKS);
  for (let i = 0; i < packNames.length; i += 2) {
    await Promise.all(packNames.slice(i, i + 2).map(async (pack) => packs.set(pack, await runLoader(`${pack}.bin`, storePath))));
  }
}, 360_000);

afterAll(() => {
  sql?.closeSync();
  instance?.closeSync();
});

describe("decoded tables", () => {
  it("hold every row of each loader's Parquet, with the same values DuckDB reads", async () => {
    expect(Object.fromEntries(Object.entries(decoded).map(([name, rows]) => [name, rows.length]))).toEqual({
      overview: 49, sotopia_stats: 6760, sotopia_tasks: 42, words_per_turn: 5,
      lifelong_instances: 1757, checkpoint_pairs: 1096, checkpoint_failures: 3128,
      hsii_cases: 480, hsii_cot: 720,
      stss_conversations: 2176, stss_runs: 240, stss_tasks: 30,
      ib_results: 2336, ib_plans: 1891, ib_consensus: 628, ib_schedules: 1173,
    });
    // Lists of numbers and booleans come out as plain arrays, BIGINT as numbers, as from DuckDB-wasm.
    for (const name of ["hsii_cot", "stss_runs", "ib_schedules", "overview", "words_per_turn"] as const) {
      expect(decoded[name], name).toEqual(await query(`SELECT * FROM ${name}`));
    }
  });
});

/**
 * Rows with every fractional number rounded to 12 significant digits. The pack
 * and the Parquet loader run the same query in two DuckDB runs, and a
 * parallel sum of doubles may add its terms in another order in each, so a
 * sum can differ in its last bit (15.285714285714286 against …285); every
 * other value, and the rows' order, must match exactly.
 */
/** Every fractional number in `value`, however deep, rounded to 12 significant digits. */
const roundedDeep = (value: unknown): unknown =>
  typeof value === "number" && !Number.isInteger(value) ? Number(value.toPrecision(12))
    : Array.isArray(value) ? value.map(roundedDeep)
    : value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roundedDeep(v)]))
    : value;

const toTwelveDigits = (rows: readonly Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v])));

/**
 * The SOTOPIA statistics summed over tasks, in JavaScript from the Parquet
 * loader's per-task rows: what the first-view pack's sotopia_groups must hold,
 * ordered by rater, rater_kind, model, partner, dimension.
 */
function sumsOverTasks(rows: readonly Row[]): Row[] {
  const groups = new Map<string, {rater: unknown; rater_kind: unknown; model: unknown; partner: unknown; dimension: unknown; n: number; sum: number; sum_sq: number}>();
  for (const r of rows) {
    const key = JSON.stringify([r.rater, r.rater_kind, r.model, r.partner, r.dimension]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = {rater: r.rater, rater_kind: r.rater_kind, model: r.model, partner: r.partner, dimension: r.dimension, n: 0, sum: 0, sum_sq: 0}));
    g.n += Number(r.n);
    g.sum += Number(r.sum);
    g.sum_sq += Number(r.sum_sq);
  }
  return orderBy(Array.from(groups.values()), ["rater", "rater_kind", "model", "partner", "dimension"]);
}

/** The overview's files grouped by benchmark and format, counts added up, in JavaScript: what source_groups must hold. */
function sourceGroupsOf(overview: readonly Row[]): Row[] {
  const groups = new Map<string, Row>();
  const summed = ["records", "rejected", "episodes", "synthetic", "inputs", "inputs_synthetic", "scores"];
  for (const r of overview) {
    if (r.section !== "source") continue;
    const key = JSON.stringify([r.benchmark, r.kind]);
    let g = groups.get(key);
    if (!g) {
      g = {benchmark: r.benchmark, kind: r.kind, files: 0, ...Object.fromEntries(summed.map((c) => [c, 0])), first_imported: r.imported_at, last_imported: r.imported_at};
      groups.set(key, g);
    }
    g.files = Number(g.files) + 1;
    for (const c of summed) g[c] = Number(g[c]) + Number(r[c]);
    if (compareText(String(r.imported_at), String(g.first_imported)) < 0) g.first_imported = r.imported_at;
    if (compareText(String(r.imported_at), String(g.last_imported)) > 0) g.last_imported = r.imported_at;
  }
  return orderBy(Array.from(groups.values()), ["benchmark", "kind"]);
}

describe("first-view packs", () => {
  it("hold, for each page, the rows its Parquet loaders give (sums to 12 digits), decoded without parquet-wasm", async () => {
    for (const [pack, names] of Object.entries(PACKS)) {
      const tables = decodePack(new Uint8Array(packs.get(pack)!), pack);
      expect(Object.keys(tables), pack).toEqual(names);
      for (const name of names) {
        // The LIFELONG summaries and the default views are held to the library's own results below.
        if (name === "lifelong_groups" || name === "lifelong_raters" || name === "hsii_first" || name === "stss_first" || name === "ib_first" || name === "ib_scores" || name === "lifelong_views") continue;
        const expected = name === "sotopia_groups" ? sumsOverTasks(decoded.sotopia_stats)
          : name === "source_groups" ? sourceGroupsOf(decoded.overview)
          : name === "sources" ? decoded.overview.filter((r) => r.section === "source")
          : name === "overview" ? decoded.overview.filter((r) => r.section !== "source")
          : decoded[name];
        expect(toTwelveDigits(tables[name]!), `${pack}: ${name}`).toEqual(toTwelveDigits(expected));
      }
    }
  });

  it("SOTOPIA's first view holds its statistics summed over tasks: 6,760 per-task rows become 1,504, the same totals", () => {
    const {sotopia_groups: groups} = decodePack(new Uint8Array(packs.get("sotopia-first-view")!), "sotopia-first-view");
    expect(decoded.sotopia_stats).toHaveLength(6760);
    expect(groups).toHaveLength(1504);
    expect(groups!.some((g) => "task_id" in g)).toBe(false);
    const total = (rows: readonly Row[]) => rows.reduce((n, r) => n + Number(r.n), 0);
    expect(total(groups!)).toBe(total(decoded.sotopia_stats));
  });

  it("round-trip through encodePack, and a damaged pack is refused naming the file and what is wrong", () => {
    const one = new Uint8Array([1, 2, 3]);
    const packed = encodePack([{name: "a", ipc: one}]);
    expect(new TextDecoder().decode(packed.subarray(0, 4))).toBe("SMPK");
    // 8 bytes of prefix, the 24-byte list, the 3-byte stream padded to 8.
    expect(JSON.stringify([{name: "a", bytes: 3}])).toHaveLength(24);
    expect(packed.byteLength).toBe(8 + 24 + 8);
    expect(Array.from(packed.subarray(32))).toEqual([1, 2, 3, 0, 0, 0, 0, 0]);
    expect(() => decodePack(new Uint8Array([80, 65, 82, 49, 0, 0, 0, 0]), "data/x.bin")).toThrow("data/x.bin: not a first-view pack (no SMPK header); rebuild the site");
    expect(() => decodePack(packed.subarray(0, packed.byteLength - 1), "data/x.bin")).toThrow("data/x.bin: not a first-view pack (table a runs past the end of the file); rebuild the site");
    expect(() => decodePack(encodePack([]).subarray(0, 6), "y")).toThrow("y: not a first-view pack (6 bytes, shorter than its header); rebuild the site");
    const trailing = new Uint8Array(encodePack([]).byteLength + 8);
    trailing.set(encodePack([]));
    expect(() => decodePack(trailing, "z")).toThrow("z: not a first-view pack (8 bytes after its last table); rebuild the site");
  });
});

describe("each page's data from decoded tables equals the SQL path's", () => {
  it("overview: sections in the order of ORDER BY section, benchmark, episodes DESC, name", async () => {
    const viaSql = await query("SELECT * FROM overview ORDER BY section, benchmark, episodes DESC, name");
    const data = overviewData(decoded.overview);
    expect(data.benchmarks.length + data.models.length + data.raters.length + data.sources.length).toBe(viaSql.length);
    expect(data.benchmarks).toEqual(viaSql.filter((r) => r.section === "benchmark"));
    expect(data.models).toEqual(viaSql.filter((r) => r.section === "model"));
    expect(data.raters).toEqual(viaSql.filter((r) => r.section === "rater"));
    expect(data.sources).toEqual(viaSql.filter((r) => r.section === "source"));
    expect(data.benchmarks.map((b) => [b.name, b.episodes])).toEqual([
      ["hsii", 480], ["informativebench", 2336], ["lifelong-sotopia", 810], ["sotopia", 232], ["stss", 1328],
    ]);
  });

  it("SOTOPIA: rows, raters (LLM first, then the human mean, then most scores), models, tasks; the same means and matrix", async () => {
    const data = sotopiaData(decodePack(new Uint8Array(packs.get("sotopia-first-view")!)) as never);
    const byTask = sotopiaTaskData(decodePack(new Uint8Array(packs.get("sotopia-by-task")!)) as never);
    const rows = await query<{rater: string}>("SELECT * FROM sotopia_stats");
    const raters = await query<{rater: string; rater_kind: string; instances: number | null}>(`
      SELECT * FROM (
        SELECT rater, any_value(rater_kind) AS rater_kind, sum(n) FILTER (WHERE dimension <> 'overall') AS instances
        FROM sotopia_stats GROUP BY rater
      ) ORDER BY rater_kind = 'llm' DESC, rater_kind = 'human_mean' DESC, instances DESC, rater`);
    const models = (await query<{model: string}>("SELECT DISTINCT model FROM sotopia_stats ORDER BY model")).map((r) => r.model);
    const tasks = await query<{task_id: string}>("SELECT task_id, codename, characters FROM sotopia_tasks");
    expect(toTwelveDigits(byTask.rows as never)).toEqual(toTwelveDigits(rows));
    expect(data.raters).toEqual(raters.map((r) => ({...r, instances: Number(r.instances ?? 0)})));
    expect(data.models).toEqual(models);
    expect([...byTask.tasks.values()].map((t) => ({task_id: t.task_id, codename: t.codename, characters: t.characters}))).toEqual(tasks);
    // The first view: the default rater's means per model and dimension.
    const rater = defaultRater(data.rows)!;
    expect(rater).toBe("gpt-4");
    // Sums over tasks give the per-task rows' means and matrix (to 12 digits: the sums add in another order).
    const fromDecoded = modelAggregates(data.rows, {rater, models: data.models});
    expect(roundedDeep(fromDecoded)).toEqual(roundedDeep(modelAggregates(rows as never, {rater, models})));
    expect(fromDecoded.filter((a) => a.dimension === OVERALL)).toHaveLength(models.length);
    expect(roundedDeep(pairwiseMatrix(data.rows, {rater, dimension: OVERALL}))).toEqual(roundedDeep(pairwiseMatrix(rows as never, {rater, dimension: OVERALL})));
    const words = await query<{model: string; turns: number; words: number}>("SELECT model, turns, words FROM words_per_turn ORDER BY model");
    expect(wordsPerTurnRows(decoded.words_per_turn)).toEqual(words.map((r) => ({...r, perTurn: wordsPerTurn(r)})));
  });

  it("LIFELONG-SOTOPIA: instances, checkpoint pairs and failures in the SQL order; the same curves", async () => {
    const data = lifelongData(decoded);
    const instances = await query("SELECT * FROM lifelong_instances ORDER BY model, memory_mode, chain_id, chain_index, agent, rater");
    expect(data.instances).toEqual(instances);
    expect(data.pairs).toEqual(await query("SELECT * FROM checkpoint_pairs ORDER BY dimension, episode_id, agent"));
    expect(data.failures).toEqual(await query("SELECT * FROM checkpoint_failures ORDER BY dimension, rater, model, memory_mode, chain_index"));
    const rater = lifelongRaters(data.instances).initial!;
    expect(rater).toBe(lifelongRaters(instances as never).initial);
    const first = curves(data.instances, {rater});
    expect(first.length).toBeGreaterThan(0);
    expect(first).toEqual(curves(instances as never, {rater}));
  });

  it("LIFELONG-SOTOPIA's first view: 391 groups of statistics give every rater's curves and the raters of the instance rows", async () => {
    const first = lifelongFirstView(decodePack(new Uint8Array(packs.get("lifelong-first-view")!)) as never);
    const instances = (await query("SELECT * FROM lifelong_instances ORDER BY model, memory_mode, chain_id, chain_index, agent, rater")) as never as LifelongInstance[];
    expect(first.groups).toHaveLength(391);
    const {raters, initial} = lifelongRaters(instances);
    expect(first.raters).toEqual(raters);
    expect(first.raters).toEqual([{rater: "gpt-4", kind: "llm", n: 1620}, {rater: "annotator-lifelong", kind: "human", n: 137}]);
    expect(first.initial).toBe(initial);
    expect(first.maxIndex).toBe(45);
    // Scores are whole numbers, so the sums are exact; every band and sd choice, for every rater.
    for (const {rater} of raters) {
      for (const options of [{band: "sd", variance: "sample"}, {band: "sd", variance: "population"}, {band: "ci95", variance: "sample", tQuantile}] as const) {
        expect(roundedDeep(curvesFromGroups(first.groups, {rater, ...options})), `${rater} ${options.band} ${options.variance}`)
          .toEqual(roundedDeep(curves(instances, {rater, ...options})));
      }
      expect(harderStartsFromGroups(first.groups, rater)).toEqual(harderStarts(instances.filter((i) => i.rater === rater)));
    }
    expect(harderStartsFromGroups(first.groups, "gpt-4").get("gpt-4o\u0000full")).toBe(41);
  });

  it("LIFELONG-SOTOPIA's range table from the first view's groups: every rater, both sds and a set of index ranges give the rows rangeTable gives from the instances", async () => {
    const first = lifelongFirstView(decodePack(new Uint8Array(packs.get("lifelong-first-view")!)) as never);
    const instances = (await query("SELECT * FROM lifelong_instances ORDER BY model, memory_mode, chain_id, chain_index, agent, rater")) as never as LifelongInstance[];
    let compared = 0;
    for (const {rater} of first.raters) for (const variance of ["sample", "population"] as const) {
      for (const [from, to] of [[1, 45], [1, 1], [3, 7], [20, 45], [45, 45], [44, 60]]) {
        const expected = rangeTable(instances, {rater, from: from!, to: to!, variance});
        expect(roundedDeep(rangeTableFromGroups(first.groups, {rater, from: from!, to: to!, variance})), `${rater} ${variance} ${from}-${to}`).toEqual(roundedDeep(expected));
        compared++;
      }
    }
    expect(compared).toBe(24);
    const whole = rangeTableFromGroups(first.groups, {rater: "gpt-4", from: 1, to: 45, variance: "sample"});
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.reduce((n, r) => n + r.bel.n, 0)).toBe(instances.filter((i) => i.rater === "gpt-4" && i.bel !== null).length);
  });

  it("LIFELONG-SOTOPIA's rows pack: the failure counts, and per rater and LLM rater what the page read from the instances and pairs, as the library computes it from the SQL path's rows", async () => {
    const tables = decodePack(new Uint8Array(packs.get("lifelong-rows")!), "lifelong-rows");
    const views = readLifelongRowViews(tables as never);
    const instances = (await query("SELECT * FROM lifelong_instances ORDER BY model, memory_mode, chain_id, chain_index, agent, rater")) as never as LifelongInstance[];
    const pairs = (await query("SELECT * FROM checkpoint_pairs ORDER BY dimension, episode_id, agent")) as never as Parameters<typeof validationRows>[0];
    expect(checkpointFailures(tables as never)).toEqual(await query("SELECT * FROM checkpoint_failures ORDER BY dimension, rater, model, memory_mode, chain_index"));
    expect(Object.keys(views.raters)).toEqual(["gpt-4", "annotator-lifelong"]);
    for (const rater of Object.keys(views.raters)) {
      expect(views.raters[rater]!.sets, rater).toEqual([...new Set(instances.filter((i) => i.rater === rater && i.checkpoints > 0).map((i) => i.checkpoint_set))].sort());
      expect(views.raters[rater]!.logged, rater).toEqual(loggedBelCheck(instances, rater));
    }
    expect(views.validators).toEqual(validationRaters(pairs));
    expect(views.validators.length).toBeGreaterThan(0);
    for (const validator of views.validators) {
      for (const positive of ["fail", "pass"] as const) {
        for (const labelRuns of ["majority", "unanimous"] as const) {
          expect(validationLookup(views, validator, positive, labelRuns), `${validator} ${positive} ${labelRuns}`).toEqual(validationRows(pairs, validator, positive, labelRuns));
        }
      }
      expect(views.humans[validator]).toEqual([...new Set(pairs.filter((p) => p.llm_rater === validator).map((p) => p.human_rater))]);
    }
    expect(() => validationLookup(views, "nobody", "fail")).toThrow("data/lifelong-rows.bin: no Table 1 for nobody, positive class fail, runs majority; rebuild the site");
  });

  it("the overview's files come grouped: 10 sample files in 9 (benchmark, format) groups; the list of files is its own pack", () => {
    const {source_groups: groups, overview} = decodePack(new Uint8Array(packs.get("overview-first-view")!));
    expect(overview!.some((r) => r.section === "source")).toBe(false);
    expect(groups!.map((g) => [g.benchmark, g.kind, g.files])).toEqual([
      ["hsii", "hsii", 1], ["informativebench", "informativebench", 1], ["informativebench", "informativebench-schedules", 1],
      ["lifelong-sotopia", "lifelong", 1], ["sotopia", "sotopia", 1], ["sotopia", "sotopia-ratings", 2],
      ["stss", "stss", 1], ["stss", "stss-action", 1], ["stss", "stss-tasks", 1],
    ]);
    const {sources} = decodePack(new Uint8Array(packs.get("overview-sources")!));
    expect(sources!.map((r) => r.name).sort()).toEqual(["actions.jsonl", "chains.jsonl", "conversations.jsonl", "episodes.jsonl", "human_ratings.csv", "judge_reruns.csv",
      "results.jsonl", "runs.jsonl", "schedules.jsonl", "tasks.json"]);
  });

  it("HSII: cases and COT rounds in the SQL order; the same Table 1", async () => {
    const data = hsiiData(decoded);
    const cases = await query("SELECT * FROM hsii_cases ORDER BY model, case_id, cot, rater");
    expect(data.cases).toEqual(cases);
    expect(data.cot).toEqual(await query("SELECT * FROM hsii_cot ORDER BY model, case_id, episode_id, variant"));
    expect(data.raters).toEqual([...new Set((cases as {rater: string | null}[]).map((r) => r.rater).filter((r) => r !== null))].sort());
    const options = {rater: data.raters[0]!};
    const first = hsiiByModel(data.cases, options);
    expect(first.length).toBeGreaterThan(0);
    expect(first).toEqual(hsiiByModel(cases as never, options));
  });

  it("STSS: conversations, runs and tasks in the SQL order; the same Table 3", async () => {
    const data = stssData(decoded);
    const conversations = await query("SELECT * FROM stss_conversations ORDER BY model, architecture, task_id, conversation_id, level, rater, run_id");
    expect(data.conversations).toEqual(conversations);
    expect(data.runs).toEqual(await query("SELECT * FROM stss_runs ORDER BY model, architecture, task_id, run_label"));
    expect(data.tasks).toEqual(await query("SELECT * FROM stss_tasks ORDER BY category, task_id"));
    const options = {verdicts: data.verdictSets[0]!, appointmentPartners: "target" as const};
    const first = table3(data.conversations, options);
    expect(first.length).toBeGreaterThan(0);
    expect(first).toEqual(table3(conversations as never, options));
  });

  it("HSII's first view: Table 1 under the default options, as the library computes it from the SQL path's rows", async () => {
    const first = readHsiiFirstView(decodePack(new Uint8Array(packs.get("hsii-first-view")!)) as never);
    const cases = await query("SELECT * FROM hsii_cases ORDER BY model, case_id, cot, rater");
    expect(first.cases).toBe(480);
    expect(first.cot).toBe(decoded.hsii_cot.length);
    expect(first.raters).toEqual(["gpt-4"]);
    expect(first.options).toEqual({rater: "gpt-4", policy: "mean", formula: "eq1", weights: {alpha: 1, beta: 1, gamma: 1}, cot: "both"});
    expect(first.table).toEqual(hsiiByModel(cases as never, {rater: "gpt-4", policy: "mean", formula: "eq1", weights: {alpha: 1, beta: 1, gamma: 1}}));
    expect(first.table.find((r) => r.model === "gpt-4")).toMatchObject({n: 120, n1: 92, n2: 67, r1: 92 / 120, r2: 67 / 92});
    expect(hsiiLookup(first.views, first.options)).toEqual(first.table);
  });

  it("HSII's option views: Table 1 per model and per cluster for each policy, runs filter, formula and weights, as the library computes it from the SQL path's rows", async () => {
    const first = readHsiiFirstView(decodePack(new Uint8Array(packs.get("hsii-first-view")!)) as never);
    const cases = await query("SELECT * FROM hsii_cases ORDER BY model, case_id, cot, rater");
    const cotOf = {both: undefined, with: true, without: false} as const;
    let compared = 0;
    for (const policy of ["mean", "strict", "first"] as const) for (const cot of ["both", "with", "without"] as const) {
      for (const [formula, weights] of [["eq1", {alpha: 1, beta: 1, gamma: 1}], ["eq1", {alpha: 0.3, beta: 2.5, gamma: 0.05}], ["table1", {alpha: 1, beta: 1, gamma: 1}]] as const) {
        const o = {rater: "gpt-4", policy, formula, weights, cot};
        const lib = {rater: "gpt-4", policy, formula, weights, cot: cotOf[cot]};
        expect(hsiiLookup(first.views, o), `${policy} ${cot} ${formula}`).toEqual(hsiiByModel(cases as never, lib));
        expect(hsiiLookup(first.views, o, "cluster"), `${policy} ${cot} ${formula} by cluster`).toEqual(hsiiByModel(cases as never, {...lib, by: "cluster"}));
        compared++;
      }
    }
    expect(compared).toBe(27);
    expect(hsiiLookup(first.views, {...first.options, policy: "strict"})).not.toEqual(first.table);
    expect(() => hsiiLookup(first.views, {...first.options, rater: "nobody"})).toThrow("data/hsii-first-view.bin: no Table 1 for judge nobody, policy mean, runs both; rebuild the site");
    // COT Table 2 and its curve from the counts of first-solved rounds, for caps below, at and past the runs' length.
    const cot = hsiiData({hsii_cases: cases as never, hsii_cot: await query("SELECT * FROM hsii_cot")}).cot;
    expect(first.longestRun).toBe(longestRun(cot));
    for (const cap of [1, 2, 3, 5, 128, 1024]) for (const threshold of [0.05, 0.5, 0.7, 1]) {
      const maxK = Math.min(cap, first.longestRun);
      expect(cotByModelFromRounds(first.cotRounds, {cap, threshold, maxK}), `cap ${cap}, s ${threshold}`).toEqual(cotByModel(cot, {cap, threshold, maxK}));
    }
    expect(cotByModel(cot, {cap: 2, threshold: 0.7, maxK: 2}).summaries).not.toEqual(cotByModel(cot, {cap: 128, threshold: 0.7, maxK: 2}).summaries);
  });

  it("STSS's first view: Table 3 under the default verdict set and partners, as the library computes it from the SQL path's rows", async () => {
    const first = readStssFirstView(decodePack(new Uint8Array(packs.get("stss-first-view")!)) as never);
    const data = stssData({...decoded, stss_conversations: await query("SELECT * FROM stss_conversations"), stss_runs: await query("SELECT * FROM stss_runs")});
    expect(first.conversations).toBe(data.conversations.length);
    expect(first.runs).toBe(240);
    expect(first.verdictSets).toEqual(data.verdictSets);
    const set = data.verdictSets[0]!;
    const lang = {verdicts: {rater: set.rater, run_id: set.run_id}, appointmentPartners: "target" as const};
    expect(first.t3).toEqual(table3(data.conversations, lang));
    expect(first.t3.length).toBeGreaterThan(0);
    expect(languageLookup(first.views, lang).t3).toEqual(first.t3);
  });

  it("STSS's option views: every table over conversations for each verdict set, partner rule and level, and Table 4 for each of its 8 choices, as the library computes them from the SQL path's rows", async () => {
    const first = readStssFirstView(decodePack(new Uint8Array(packs.get("stss-first-view")!)) as never);
    const data = stssData({...decoded, stss_conversations: await query("SELECT * FROM stss_conversations"), stss_runs: await query("SELECT * FROM stss_runs")});
    const rows = data.conversations;
    const defaultSet = data.verdictSets[0]!;
    let compared = 0;
    for (const s of data.verdictSets) {
      for (const appointmentPartners of APPOINTMENT_PARTNERS) {
        const lang = {verdicts: {rater: s.rater, run_id: s.run_id}, appointmentPartners};
        const view = languageLookup(first.views, lang);
        expect(view.t3).toEqual(table3(rows, lang));
        expect(view.warning).toBe(mismatchWarning(rows, lang));
        expect(view.optionsText).toBe(languageOptionsText(rows, {...lang, defaultSet}));
        for (const level of LEVELS) {
          expect(view.levels[level].failuresByType).toEqual(conditionFailures(rows, {...lang, level, by: "type"}));
          expect(view.levels[level].failuresByTask).toEqual(conditionFailures(rows, {...lang, level, by: "task"}));
          expect(view.levels[level].tasks).toEqual(taskSummaries(rows, {...lang, level}));
        }
        compared++;
      }
    }
    expect(compared).toBe(2 * data.verdictSets.length);
    const set = {rater: defaultSet.rater, run_id: defaultSet.run_id};
    expect(languageLookup(first.views, {verdicts: set, appointmentPartners: "all"}).t3).not.toEqual(first.t3);
    for (const convRatio of ["mean", "pooled"] as const) for (const initiator of INITIATOR_RULES) for (const helpOrder of HELP_ORDER_RULES) {
      expect(table4Lookup(first.views, convRatio, {initiator, helpOrder})).toEqual(table4(data.runs, {convRatio, rules: {initiator, helpOrder}}));
    }
    expect(first.views.modelChoices).toEqual([...new Set(rows.map((r) => `${r.model} · ${r.architecture}`))]);
    expect(() => languageLookup(first.views, {verdicts: {rater: "nobody", run_id: ""}, appointmentPartners: "target"})).toThrow(
      "data/stss-first-view.bin: no view for verdicts nobody · imported, partners target; rebuild the site");
  });

  it("STSS's rows pack holds the simulation runs alone, in the SQL order: the conversations stay at build time", async () => {
    const tables = decodePack(new Uint8Array(packs.get("stss-rows")!), "stss-rows");
    expect(Object.keys(tables)).toEqual(["stss_runs"]);
    expect(stssRuns(tables as never)).toEqual(await query("SELECT * FROM stss_runs ORDER BY model, architecture, task_id, run_label"));
  });

  it("InformativeBench's first view: Table 3 under the default options, as the library computes it from the SQL path's rows", async () => {
    const first = readIbFirstView(decodePack(new Uint8Array(packs.get("informativebench-first-view")!)) as never);
    const data = informativeBenchData({
      ib_results: await query("SELECT * FROM ib_results"), ib_plans: await query("SELECT * FROM ib_plans"),
      ib_consensus: await query("SELECT * FROM ib_consensus"), ib_schedules: await query("SELECT * FROM ib_schedules"),
    });
    expect(first.results).toBe(2336);
    expect(first.table).toEqual(ibView(data, DEFAULT_IB_OPTIONS).table);
    expect(first.table.cells.length).toBeGreaterThan(0);
    expect(ibLookup(first.views, DEFAULT_IB_OPTIONS).table).toEqual(first.table);
  });

  it("InformativeBench's option views: Table 3, ablations and gold checks for all 32 choices of match, records, base and verifier, as the library computes them from the SQL path's rows", async () => {
    const first = readIbFirstView(decodePack(new Uint8Array(packs.get("informativebench-first-view")!)) as never);
    const data = informativeBenchData({
      ib_results: await query("SELECT * FROM ib_results"), ib_plans: await query("SELECT * FROM ib_plans"),
      ib_consensus: await query("SELECT * FROM ib_consensus"), ib_schedules: await query("SELECT * FROM ib_schedules"),
    });
    let compared = 0;
    for (const match of IB_CHOICES.match) for (const settings of IB_CHOICES.settings) for (const base of IB_CHOICES.base) {
      for (const easy of IB_CHOICES.easy) for (const fixed of IB_CHOICES.fixed) {
        const o = {...DEFAULT_IB_OPTIONS, match, settings, base, verifier: {easy, fixed}};
        const expected = ibView(data, o);
        const looked = ibLookup(first.views, o);
        expect(looked.table, `${match} ${settings} ${base}`).toEqual(expected.table);
        expect(looked.ablations, `${match} ${base}`).toEqual(expected.ablations);
        expect(looked.gold, `${easy} ${fixed}`).toEqual(expected.gold);
        compared++;
      }
    }
    expect(compared).toBe(32);
    // The choices differ: contains finds more right answers than exact somewhere, and another base changes the ablations.
    expect(ibLookup(first.views, {...DEFAULT_IB_OPTIONS, match: "contains"}).table).not.toEqual(first.table);
    for (const match of IB_CHOICES.match) {
      const o = {...DEFAULT_IB_OPTIONS, match};
      expect(infoNavLookup(first.views, o, []), match).toEqual(infoNavView(data, ibView(data, o).scored, o, []));
    }
    expect(infoNavLookup(first.views, {...DEFAULT_IB_OPTIONS, rightAt: 0.5}, [])).toBeNull();
    expect(infoNavLookup(first.views, DEFAULT_IB_OPTIONS, [data.models[0]!])).toBeNull();
    expect(() => ibLookup(first.views, {...DEFAULT_IB_OPTIONS, base: "given"})).toThrow(
      "data/informativebench-first-view.bin: no view for match exact, records majority, base given, verifier pooled/sleep; rebuild the site");
  });

  it("InformativeBench's rows carry each record's score under both matches, as the library scores the SQL path's rows", async () => {
    const tables = decodePack(new Uint8Array(packs.get("informativebench-rows")!), "informativebench-rows");
    const data = informativeBenchData(tables as never);
    const shipped = scoredByMatch(data, tables.ib_scores!);
    const sqlData = informativeBenchData({
      ib_results: await query("SELECT * FROM ib_results"), ib_plans: await query("SELECT * FROM ib_plans"),
      ib_consensus: await query("SELECT * FROM ib_consensus"), ib_schedules: await query("SELECT * FROM ib_schedules"),
    });
    expect(tables.ib_scores).toHaveLength(2336);
    for (const match of IB_CHOICES.match) expect(shipped[match], match).toEqual(ibView(sqlData, {...DEFAULT_IB_OPTIONS, match}).scored);
    expect(shipped.contains.filter((r, i) => r.score !== shipped.exact[i]!.score).length).toBeGreaterThan(0);
    expect(() => scoredByMatch(data, tables.ib_scores!.slice(1))).toThrow("data/informativebench-rows.bin: 2335 score rows for 2336 records; rebuild the site");
  });

  it("InformativeBench: results, plan updates, consensus steps and schedules in the SQL order", async () => {
    const data = informativeBenchData(decoded);
    expect(data.results).toEqual(await query("SELECT * FROM ib_results ORDER BY model, dataset, question_id, episode_id"));
    expect(data.updates).toEqual(await query("SELECT * FROM ib_plans ORDER BY episode_id, plan, update_index"));
    expect(data.consensus).toEqual(await query("SELECT * FROM ib_consensus ORDER BY episode_id, plan"));
    expect(data.schedules).toEqual(await query("SELECT * FROM ib_schedules"));
    expect(data.models).toEqual((await query<{model: string}>("SELECT DISTINCT model FROM ib_results ORDER BY model")).map((r) => r.model));
  });
});

describe("orderBy sorts as DuckDB's ORDER BY", () => {
  const values: Row[] = [
    {k: "b", n: 2, t: true}, {k: null, n: 1, t: false}, {k: "a", n: null, t: null}, {k: "\u{1F600}", n: 3, t: true},
    {k: "\uFFFF", n: -1, t: false}, {k: "B", n: 2, t: true}, {k: "ab", n: 0.5, t: false}, {k: "", n: null, t: true},
  ];

  it("ascending and descending, NULLs last both ways, text by code point, as DuckDB orders the same rows", async () => {
    await sql.run("CREATE OR REPLACE TABLE order_probe (i INTEGER, k VARCHAR, n DOUBLE, t BOOLEAN)");
    const appender = values.map((v, i) => `(${i}, ${v.k === null ? "NULL" : `'${v.k}'`}, ${v.n ?? "NULL"}, ${v.t ?? "NULL"})`).join(", ");
    await sql.run(`INSERT INTO order_probe VALUES ${appender}`);
    const withIndex = values.map((v, i) => ({i, ...v}));
    for (const [keys, orderSql] of [
      [["k"], "k"],
      [[{column: "k", desc: true}], "k DESC"],
      [["t", {column: "n", desc: true}], "t, n DESC"],
      [[{column: "n", desc: true}, "k"], "n DESC, k"],
    ] as const) {
      const expected = (await query<{i: number}>(`SELECT i FROM order_probe ORDER BY ${orderSql}, i`)).map((r) => r.i);
      expect(orderBy(withIndex, [...keys, "i"] as never).map((r) => r.i), orderSql).toEqual(expected);
    }
  });

  it("compares text by code point (U+1F600 after U+FFFF) and keeps equal keys in input order", () => {
    expect(compareText("\u{1F600}", "\uFFFF")).toBe(1);
    expect("\u{1F600}" < "\uFFFF").toBe(true);
    expect(compareText("ab", "a")).toBe(1);
    expect(orderBy([{k: 1, i: 0}, {k: 0, i: 1}, {k: 1, i: 2}, {k: 0, i: 3}], ["k"]).map((r) => r.i)).toEqual([1, 3, 0, 2]);
    expect(distinctSorted([{m: "b"}, {m: "a"}, {m: "b"}, {m: "C"}], "m")).toEqual(["C", "a", "b"]);
  });
});
