// Table explorer responsiveness (section `explorer` of BENCHMARKS.md): a store
// whose one large table has N rows (default 1,000,000: the explorer's row
// limit) of ratings-like data with a text column, a site built from it, and
// the explorer page in headless Chromium timing what a reader does: open the
// table, next page, sort, the last page of the sort, search, filter, and a
// GROUP BY in the SQL box. Each step is timed inside the page, from the
// reader's action until the page's DOM shows the result.
//
// Every step has two baselines measured in the same run on the same Parquet
// file: the SQL the explorer runs for that step, run directly in a second
// DuckDB-wasm database in the same page with no UI (what the explorer adds
// around the database), and the same SQL in native DuckDB (@duckdb/node-api,
// one thread like the wasm build: what running in the browser costs). Each
// baseline's answer (rows matching, rows of the result) is checked against
// what the page shows, so a baseline that ran different SQL fails loudly.

import {DuckDBInstance, type DuckDBValue} from "@duckdb/node-api";
import {mkdirSync, readdirSync, rmSync} from "node:fs";
import {loadavg} from "node:os";
import {join} from "node:path";
import type {Page} from "playwright-core";
import {browseQuery, INITIAL_BROWSE, lastPage, type BrowseState, type ColumnInfo} from "../src/client/explorer.js";
import {openStore} from "../loaders/store/db.js";
import {launchBrowser, resolveChromium} from "../test/browser/chromium.js";
import {buildSite, serveStatic} from "../test/browser/helpers.js";
import {machine, type BenchContext} from "./helpers.js";

const DEFAULT_SIZES = [1_000_000];
const TABLE = "bench_ratings";
const SEARCH = "rationale 4242:";
const GROUP_BY = `SELECT model, avg(value) AS mean FROM ${TABLE} GROUP BY model ORDER BY model`;
const MODELS = 40;
/** The longest one step may take before the benchmark gives up on it. */
const STEP_TIMEOUT_MS = 300_000;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Fills a fresh store with `n` rows in table bench_ratings: 40 models, 7 dimensions, values 0–10, a short rationale. */
async function makeStore(path: string, n: number): Promise<void> {
  const store = await openStore(path);
  try {
    await store.conn.run(`CREATE TABLE ${TABLE} AS
      SELECT 'ep-' || lpad(CAST(i // 14 AS VARCHAR), 7, '0') AS episode_id,
             'model-' || (hash(i // 14) % ${MODELS}) AS model,
             ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial', 'goal'][1 + i % 7] AS dimension,
             CAST(hash(i) % 11 AS DOUBLE) AS value,
             'rationale ' || (hash(i * 7) % 100000) || ': the agent kept to its goal' AS rationale
      FROM range(${n}) t(i)`);
  } finally {
    store.close();
  }
}

/** One SQL statement with its bound parameters, as the explorer sends it to DuckDB. */
interface Statement {
  sql: string;
  params: unknown[];
}

/** Something the page shows: an element, and optionally an attribute's value. */
interface Condition {
  selector: string;
  attribute?: string;
  is?: string;
  isNot?: string;
  below?: number;
}

/** The reader's action, done in the page: a click, or text arriving in a box (an `input` event, as typing ends). */
type Action = {click: string} | {type: string; text: string};

interface Step {
  label: string;
  /** Untimed preparation with Playwright (choosing a filter, writing the SQL). */
  prepare?: (page: Page, n: number) => Promise<void>;
  action: Action;
  /** The step is done when all of these hold. */
  until: (n: number) => Condition[];
  /** Where the page states its answer: rows matching, or rows of the SQL result. */
  answer: Condition & {attribute: string};
  /** The SQL the explorer runs for the step, and which statement's result gives the same answer. */
  sql(columns: ColumnInfo[], n: number): {statements: Statement[]; answer: {statement: number; field: "n" | "rows"}};
}

const testId = (id: string) => `[data-testid="${id}"]`;
const status = testId("browser-status");
const valueHeader = `${testId("browser-table")} thead th:nth-of-type(4)`;
const matchingAnswer = {selector: status, attribute: "data-matching"};

/** The explorer's two queries for a browse state: how many rows match, then one page of them (Explorer.browse). */
function browseSql(columns: ColumnInfo[], state: BrowseState, matching: number): ReturnType<Step["sql"]> {
  const q = browseQuery(TABLE, columns, state, matching);
  return {statements: [q.count, q.rows], answer: {statement: 0, field: "n"}};
}

const valueDesc = {column: "value", direction: "desc"} as const;

/** The reader's steps after the page has opened, in order; each starts from the state the previous one left. */
const STEPS: readonly Step[] = [
  {
    label: "next page",
    action: {click: testId("browser-next")},
    until: () => [{selector: status, attribute: "data-page", is: "1"}],
    answer: matchingAnswer,
    sql: (columns, n) => browseSql(columns, {...INITIAL_BROWSE, page: 1}, n),
  },
  {
    label: "sort by value, ascending",
    action: {click: testId("browser-sort-value")},
    until: () => [{selector: valueHeader, attribute: "aria-sort", is: "ascending"}, {selector: status, attribute: "data-page", is: "0"}],
    answer: matchingAnswer,
    sql: (columns, n) => browseSql(columns, {...INITIAL_BROWSE, sort: {column: "value", direction: "asc"}}, n),
  },
  {
    label: "sort by value, descending",
    action: {click: testId("browser-sort-value")},
    until: () => [{selector: valueHeader, attribute: "aria-sort", is: "descending"}],
    answer: matchingAnswer,
    sql: (columns, n) => browseSql(columns, {...INITIAL_BROWSE, sort: valueDesc}, n),
  },
  {
    label: "last page of the sort",
    action: {click: testId("browser-last")},
    until: () => [{selector: status, attribute: "data-page", isNot: "0"}],
    answer: matchingAnswer,
    sql: (columns, n) => browseSql(columns, {...INITIAL_BROWSE, sort: valueDesc, page: lastPage(n, INITIAL_BROWSE.pageSize)}, n),
  },
  {
    label: "search every column (includes the box's 200 ms pause for typing to end)",
    action: {type: `${testId("browser")} input[type="search"]`, text: SEARCH},
    until: (n) => [{selector: status, attribute: "data-matching", below: n}],
    answer: matchingAnswer,
    sql: (columns, n) => browseSql(columns, {...INITIAL_BROWSE, sort: valueDesc, search: SEARCH}, n),
  },
  {
    label: "filter value ≥ 9",
    async prepare(page, n) {
      const panel = page.getByTestId("browser");
      await panel.getByLabel("Search").fill("");
      await waitUntil(async () => (await page.getByTestId("browser-status").getAttribute("data-matching")) === String(n));
      await panel.getByLabel("Filter column").selectOption("value");
      await panel.getByLabel("Operator").selectOption(">=");
      await panel.getByLabel("Value").fill("9");
    },
    action: {click: testId("browser-add-filter")},
    until: (n) => [{selector: status, attribute: "data-matching", below: n}],
    answer: matchingAnswer,
    sql: (columns, n) => browseSql(columns, {...INITIAL_BROWSE, sort: valueDesc, filters: [{column: "value", op: ">=", value: "9"}]}, n),
  },
  {
    label: "SQL: mean per model (the explorer keeps it as a table and shows its first page)",
    prepare: (page) => page.getByTestId("sql-input").fill(GROUP_BY),
    action: {click: testId("sql-run")},
    until: () => [{selector: testId("sql-status"), attribute: "data-rows", is: String(MODELS)}, {selector: `${testId("result-table")} tbody tr`}],
    answer: {selector: testId("sql-status"), attribute: "data-rows"},
    // The baseline is the reader's query alone: what it costs in DuckDB before the explorer keeps and pages it.
    sql: () => ({statements: [{sql: GROUP_BY, params: []}], answer: {statement: 0, field: "rows"}}),
  },
];

/** The page-open step's SQL after loading: the first page of the table (count, then rows). */
const openSql = (columns: ColumnInfo[], n: number) => browseSql(columns, INITIAL_BROWSE, n);
const OPEN_LABEL = "open the page: start DuckDB-wasm, fetch, decode and insert the table, first page";

async function waitUntil(condition: () => Promise<boolean>, what = "a condition"): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`explorer benchmark: gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// tsx compiles this file with esbuild's keepNames, which wraps named functions
// in calls to a helper `__name`; functions sent to the page need it defined there.
const NAME_SHIM = "globalThis.__name ??= (fn) => fn;";

/**
 * Does `action` in the page and returns the milliseconds until every condition
 * holds, measured with the page's own clock (a MutationObserver sees the
 * change), so Playwright's round trips are not counted.
 */
function timeInPage(page: Page, action: Action, until: Condition[]): Promise<number> {
  return page.evaluate(async ({action, until, timeoutMs}) => {
    const holds = (c: Condition): boolean => {
      const el = document.querySelector(c.selector);
      if (!el) return false;
      if (c.attribute === undefined) return true;
      const v = el.getAttribute(c.attribute);
      if (v === null) return false;
      if (c.is !== undefined) return v === c.is;
      if (c.isNot !== undefined) return v !== c.isNot;
      if (c.below !== undefined) return Number(v) < c.below;
      return true;
    };
    const done = () => until.every(holds);
    const target = document.querySelector("click" in action ? action.click : action.type);
    if (!target) throw new Error(`no element ${"click" in action ? action.click : action.type} in the page`);
    const start = performance.now();
    if ("click" in action) {
      (target as HTMLElement).click();
    } else {
      (target as HTMLInputElement).value = action.text;
      target.dispatchEvent(new Event("input", {bubbles: true}));
    }
    await new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      const observer = new MutationObserver(() => {
        if (!done()) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve();
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`the page did not show ${JSON.stringify(until)} within ${timeoutMs} ms`));
      }, timeoutMs);
      observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
    });
    return performance.now() - start;
  }, {action, until, timeoutMs: STEP_TIMEOUT_MS});
}

/**
 * Before the page's own scripts run: note (on the page's clock, which starts
 * with the navigation) when the browse status first shows all `n` rows.
 */
async function watchOpen(page: Page, n: number): Promise<void> {
  await page.addInitScript(NAME_SHIM);
  await page.addInitScript(({selector, rows}) => {
    const w = window as unknown as {__benchOpenedAt?: number};
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)?.getAttribute("data-matching") !== rows) return;
      w.__benchOpenedAt = performance.now();
      observer.disconnect();
    });
    observer.observe(document, {subtree: true, childList: true, attributes: true});
  }, {selector: status, rows: String(n)});
}

async function openedAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as unknown as {__benchOpenedAt?: number}).__benchOpenedAt, undefined,
    {timeout: STEP_TIMEOUT_MS, polling: 50});
  return (await handle.jsonValue()) as number;
}

/** What a baseline measured: milliseconds per step (the open first) and each step's answer. */
interface BaselineRun {
  ms: number[];
  /** Of the open, the milliseconds until the database was running (before any table). */
  startMs: number;
  answers: number[];
  columns: ColumnInfo[];
  version: string;
}

/**
 * In the explorer's page, a second DuckDB-wasm database started and filled by
 * the site's own client module (the same build, the same row-group-at-a-time
 * Parquet loader the explorer uses), then each step's SQL run on it directly.
 */
function wasmBaseline(page: Page, moduleUrl: string, parquetUrl: string, open: Statement[], steps: Statement[][], answers: ReturnType<Step["sql"]>["answer"][]): Promise<BaselineRun> {
  return page.evaluate(async ({moduleUrl, parquetUrl, table, open, steps, answers}) => {
    const client = (await import(moduleUrl)) as typeof import("../src/client/duckdb.js");
    const ms: number[] = [];
    const results: {rows: number; n: number | null}[][] = [];
    const t0 = performance.now();
    const db = await client.startDuckDB();
    const conn = await db.connect();
    const startMs = performance.now() - t0;
    try {
      const run = async (s: Statement) => {
        let result;
        if (s.params.length === 0) {
          result = await conn.query(s.sql);
        } else {
          const prepared = await conn.prepare(s.sql);
          try {
            result = await prepared.query(...s.params);
          } finally {
            await prepared.close();
          }
        }
        const n = result.numRows > 0 && result.schema.fields.some((f) => f.name === "n") ? Number(result.get(0)?.n) : null;
        return {rows: result.numRows, n};
      };
      await conn.query("SET autoinstall_known_extensions = false; SET autoload_known_extensions = false;");
      await client.loadParquet(conn, table, parquetUrl);
      const opened = [];
      for (const s of open) opened.push(await run(s));
      ms.push(performance.now() - t0);
      results.push(opened);
      for (const statements of steps) {
        const start = performance.now();
        const out = [];
        for (const s of statements) out.push(await run(s));
        ms.push(performance.now() - start);
        results.push(out);
      }
      const columns = (await conn.query(`DESCRIBE ${table}`)).toArray().map((r) => ({name: String(r.column_name), type: String(r.column_type)}));
      const version = String((await conn.query("SELECT version() AS v")).get(0)?.v);
      const answerOf = (r: {rows: number; n: number | null}[], a: {statement: number; field: "n" | "rows"}) => {
        const x = r[a.statement];
        return a.field === "rows" ? x.rows : Number(x.n);
      };
      return {ms, startMs, answers: results.map((r, i) => answerOf(r, answers[i])), columns, version};
    } finally {
      await conn.close();
      await db.terminate();
    }
  }, {moduleUrl, parquetUrl, table: TABLE, open, steps, answers});
}

/** The same SQL in native DuckDB, one thread, on the same Parquet file read into an in-memory table. */
async function nativeBaseline(parquetPath: string, open: Statement[], steps: Statement[][], answers: ReturnType<Step["sql"]>["answer"][]): Promise<BaselineRun> {
  const t0 = performance.now();
  const instance = await DuckDBInstance.create(":memory:", {threads: "1"});
  const conn = await instance.connect();
  const startMs = performance.now() - t0;
  try {
    const run = async (s: Statement) => {
      const reader = await conn.runAndReadAll(s.sql, s.params as DuckDBValue[]);
      const rows = reader.getRowObjects();
      return {rows: rows.length, n: rows.length > 0 && "n" in rows[0] ? Number(rows[0].n) : null};
    };
    await conn.run("SET autoinstall_known_extensions = false; SET autoload_known_extensions = false;");
    await conn.run(`CREATE TABLE ${TABLE} AS SELECT * FROM read_parquet('${parquetPath.replaceAll("'", "''")}')`);
    const results = [[] as {rows: number; n: number | null}[]];
    for (const s of open) results[0].push(await run(s));
    const ms = [performance.now() - t0];
    for (const statements of steps) {
      const start = performance.now();
      const out = [];
      for (const s of statements) out.push(await run(s));
      ms.push(performance.now() - start);
      results.push(out);
    }
    const columns = (await conn.runAndReadAll(`DESCRIBE ${TABLE}`)).getRowObjects().map((r) => ({name: String(r.column_name), type: String(r.column_type)}));
    const version = String((await conn.runAndReadAll("SELECT version() AS v")).getRowObjects()[0].v);
    const answerOf = (r: {rows: number; n: number | null}[], a: {statement: number; field: "n" | "rows"}) => (a.field === "rows" ? r[a.statement].rows : Number(r[a.statement].n));
    return {ms, startMs, answers: results.map((r, i) => answerOf(r, answers[i])), columns, version};
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The columns of the shipped Parquet file as DuckDB types them (what the explorer's DESCRIBE gives). */
async function parquetColumns(parquetPath: string): Promise<ColumnInfo[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    const rows = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${parquetPath.replaceAll("'", "''")}')`)).getRowObjects();
    return rows.map((r) => ({name: String(r.column_name), type: String(r.column_type)}));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The built site's copy of src/client/duckdb.ts (its name carries a content hash). */
function clientModulePath(dist: string): string {
  const dir = join(dist, "_import", "client");
  const file = readdirSync(dir).find((f) => /^duckdb\.[0-9a-f]+\.js$/.test(f));
  if (!file) throw new Error(`explorer benchmark: no duckdb.<hash>.js in ${dir}`);
  return `/_import/client/${file}`;
}

function sameColumns(a: ColumnInfo[], b: ColumnInfo[]): boolean {
  return a.length === b.length && a.every((c, i) => c.name === b[i].name && c.type === b[i].type);
}

/** One run: the explorer's page and the wasm baseline in it, then the native baseline. */
interface Run {
  explorer: number[];
  wasm: number[];
  native: number[];
  wasmStart: number;
  nativeStart: number;
}

const fmtMs = (x: number): string => (x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString("en-US"));
const ratio = (x: number): string => `${x < 10 ? x.toFixed(2) : x.toFixed(1)}×`;

function table(n: number, runs: Run[]): string[] {
  const labels = [OPEN_LABEL, ...STEPS.map((s) => s.label)];
  const lines = [
    `| step (${n.toLocaleString("en-US")} rows) | explorer ms | DuckDB-wasm alone ms | explorer ÷ wasm | native DuckDB ms | wasm ÷ native |`,
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  labels.forEach((label, i) => {
    const explorer = runs.map((r) => r.explorer[i]), wasm = runs.map((r) => r.wasm[i]), native = runs.map((r) => r.native[i]);
    // Each run's ratio is taken within the run (same machine load), then the median of those.
    const overhead = median(runs.map((r) => r.explorer[i] / r.wasm[i]));
    const browser = median(runs.map((r) => r.wasm[i] / r.native[i]));
    lines.push(`| ${label} | ${fmtMs(median(explorer))} | ${fmtMs(median(wasm))} | ${ratio(overhead)} | ${fmtMs(median(native))} | ${ratio(browser)} |`);
  });
  return lines;
}

export async function run(context: BenchContext): Promise<string> {
  await resolveChromium(); // fails now, with what to install, rather than after the first build
  const sizes = context.sizes.length ? context.sizes : DEFAULT_SIZES;
  const load = loadavg()[0];
  const lines: string[] = [];
  let versions = "";
  for (const n of sizes) {
    const dir = join(context.dir, `explorer-${n}`);
    rmSync(dir, {recursive: true, force: true});
    mkdirSync(dir, {recursive: true});
    const store = join(dir, "store.duckdb");
    context.log(`explorer: a store with ${n.toLocaleString("en-US")} rows`);
    await makeStore(store, n);
    context.log("explorer: building the site");
    const build = await buildSite(store, dir);
    const parquetPath = join(build.dist, "data", "tables", `${TABLE}.parquet`);
    const columns = await parquetColumns(parquetPath);
    const open = openSql(columns, n);
    const steps = STEPS.map((s) => s.sql(columns, n));
    const statements = steps.map((s) => s.statements);
    const answers = [open.answer, ...steps.map((s) => s.answer)];
    const server = await serveStatic(build.dist);
    const browser = await launchBrowser();
    const runs: Run[] = [];
    try {
      const pageUrl = `${server.origin}/explorer?table=${TABLE}`;
      // One untimed open first, so that no timed run pays for the browser's own first start.
      const warm = await browser.newPage();
      await watchOpen(warm, n);
      await warm.goto(pageUrl);
      await openedAt(warm);
      await warm.close();
      for (let r = 0; r < context.repeat; r++) {
        const page = await browser.newPage();
        await watchOpen(page, n);
        await page.goto(pageUrl);
        const explorer = [await openedAt(page)];
        const shown = [n];
        for (const step of STEPS) {
          await step.prepare?.(page, n);
          explorer.push(await timeInPage(page, step.action, step.until(n)));
          shown.push(Number(await page.locator(step.answer.selector).getAttribute(step.answer.attribute)));
        }
        // The result's chart is drawn after its first page: let it finish before the baseline runs.
        await waitUntil(() => page.getByTestId("sql-run").isEnabled(), "the SQL box to be ready again");
        const wasm = await wasmBaseline(page, `${server.origin}${clientModulePath(build.dist)}`, `${server.origin}/data/tables/${TABLE}.parquet`,
          open.statements, statements, answers);
        await page.close();
        const native = await nativeBaseline(parquetPath, open.statements, statements, answers);
        for (const [name, baseline] of [["DuckDB-wasm", wasm], ["native DuckDB", native]] as const) {
          if (!sameColumns(baseline.columns, columns)) {
            throw new Error(`explorer benchmark: ${name} typed the table as ${JSON.stringify(baseline.columns)}, not ${JSON.stringify(columns)}: its SQL would differ from the explorer's`);
          }
          baseline.answers.forEach((a, i) => {
            if (a !== shown[i]) throw new Error(`explorer benchmark: ${name} answered ${a} for "${[OPEN_LABEL, ...STEPS.map((s) => s.label)][i]}", the page showed ${shown[i]}`);
          });
        }
        versions = `DuckDB-wasm ${wasm.version}, native DuckDB ${native.version}`;
        runs.push({explorer, wasm: wasm.ms, native: native.ms, wasmStart: wasm.startMs, nativeStart: native.startMs});
        context.log(`explorer: run ${r + 1} of ${context.repeat} done (ms per step, explorer / wasm / native: ${
          explorer.map((x, i) => `${fmtMs(x)} / ${fmtMs(wasm.ms[i])} / ${fmtMs(native.ms[i])}`).join(", ")})`);
      }
    } finally {
      await browser.close();
      await server.close();
      if (!context.keep) rmSync(dir, {recursive: true, force: true});
    }
    lines.push(...table(n, runs), "", `Of the open, starting the database (before any table) took a median ${fmtMs(median(runs.map((r) => r.wasmStart)))} ms in DuckDB-wasm (a module worker, compiling the wasm, opening the database) and ${fmtMs(median(runs.map((r) => r.nativeStart)))} ms natively; the rest is fetching, decoding and inserting the table and the first page.`, "");
  }
  return [
    "## Table explorer: one million rows",
    "",
    "The table explorer on one large store table in headless Chromium, with two baselines measured in the same run on",
    "the same data. **Explorer**: each step timed inside the page, from the reader's action (the click, or the search",
    "text arriving) until the page's DOM shows the result; the page open from the start of navigation until the first",
    "page of the table is shown. Paging, sorting, searching and filtering run as SQL in DuckDB-wasm with LIMIT/OFFSET;",
    "no table is read into JavaScript.",
    "",
    "**DuckDB-wasm alone**: in the same page, a second DuckDB-wasm database (the same single-threaded build, started",
    "and filled by the site's own client module) runs exactly the SQL the explorer runs for the step, with the same",
    "parameters: the count of matching rows and one page of them. For the page open it starts DuckDB-wasm, fetches the",
    "same Parquet file, decodes it with parquet-wasm and inserts it one row group at a time, then runs the first page's",
    "two queries; the explorer's open also loads the page, Framework's runtime, parquet-wasm and the table list, and",
    "describes the table. For SQL it is the reader's query alone; the explorer also keeps the result as a table,",
    "counts and describes it, and shows its first page. **Explorer ÷ wasm** is therefore what the explorer adds",
    "around the database (events, converting rows, drawing the table); the search step also includes the search",
    "box's deliberate 200 ms wait for typing to end.",
    "",
    "**Native DuckDB**: the same statements in Node's `@duckdb/node-api`, one thread like the wasm build, on the",
    "same Parquet file read into an in-memory table (the open: `CREATE TABLE … AS SELECT * FROM read_parquet(…)`",
    "and the first page). **Wasm ÷ native** is what running DuckDB in the browser costs; the two DuckDB versions",
    "differ (below). Every baseline's answer (rows matching, rows of the result) is checked against what the page shows.",
    "",
    `Median of ${runCount(context.repeat)} after one untimed page open; each ratio is the median of the per-run ratios (explorer and`,
    "baselines of the same run), so it need not equal the quotient of the median columns.",
    "",
    ...lines,
    `Machine: ${machine([versions, `1-minute load average ${load.toFixed(1)} at the start and ${loadavg()[0].toFixed(1)} at the end (a shared machine: other work competes for the cores)`].filter(Boolean))}.`,
  ].join("\n");
}

const runCount = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
