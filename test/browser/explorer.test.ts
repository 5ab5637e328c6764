// The table explorer in the built site, in Chromium: its SQL results and
// downloads equal Node DuckDB's over the same store, errors point at the
// reader's mistake, paging and sorting match ORDER BY … LIMIT … OFFSET in the
// store, a table cut at the row limit says so, keys never arrive, and markup
// in a cell stays text. Its own small build, with a low row limit.

import {spawn} from "node:child_process";
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {createServer as createHttpServer} from "node:http";
import {createServer} from "node:net";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {formatNumber} from "../../src/client/explorer.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {buildSite, cellErrors, REPO, runCli, serveStatic, watchedContext} from "./helpers.js";
import {fakeKey} from "../helpers/fake-key.js";

/** Low enough that the sample ratings are cut, high enough that the tables the SQL checks use are whole. */
const ROW_LIMIT = 5000;
const SCRIPT_PAYLOAD = "<script>window.__pwned=2</script>";
const IMG_PAYLOAD = "<img src=x onerror=window.__pwned=1>";
const KEY = fakeKey("proj-AbCdEfGhIjKlMnOpQrStUvWx0123");

/** A multi-table query with text and numbers, compared row by row with Node DuckDB. */
const JOIN_SQL = `SELECT c.cluster, j.position, count(*) AS judgments,
       avg(CASE j.verdict WHEN 'win' THEN 1 WHEN 'tie' THEN 0.5 ELSE 0 END) AS win_rate
FROM hsii_judgments j JOIN hsii_cases c USING (episode_id)
GROUP BY ALL
ORDER BY c.cluster, j.position`;
/** One categorical and one numeric column: gets the default chart. */
const CHART_SQL = "SELECT benchmark, count(*) AS episodes FROM episodes GROUP BY benchmark ORDER BY benchmark";
const BAD_SQL = "SELECT benchmark, count(*) AS n\nFROM episodes\nGRUOP BY benchmark";

/** The text of every cell of a rendered table, row by row. */
function tableCells(page: Page, testId: string): Promise<string[][]> {
  return page.getByTestId(testId).locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
}

/** The full value of every cell (its title where the shown text is rounded, else its text), row by row. */
function tableFullValues(page: Page, testId: string): Promise<string[][]> {
  return page.getByTestId(testId).locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.title || (td.textContent ?? ""))));
}

/** Parses CSV as DuckDB writes it (quotes around fields with commas, quotes or newlines). */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\n") row.push(field), out.push(row), (row = []), (field = "");
    else if (ch !== "\r") field += ch;
  }
  if (field || row.length) row.push(field), out.push(row);
  return out;
}

/** A shown value against Node DuckDB's: numbers within 1e-9, everything else as text. */
function expectSameValue(shown: string, expected: unknown, where: string): void {
  if (typeof expected === "number") expect(Math.abs(Number(shown) - expected), `${where}: ${shown} vs ${expected}`).toBeLessThanOrEqual(1e-9);
  else expect(shown, where).toBe(String(expected));
}

/** Runs `sql` in the SQL box and waits until that run has finished (two runs may end in the same status). */
async function runSql(page: Page, sql: string): Promise<void> {
  const status = page.getByTestId("sql-status");
  const runs = Number((await status.getAttribute("data-runs")) ?? 0);
  await page.getByTestId("sql-input").fill(sql);
  await page.getByTestId("sql-run").click();
  await expect.poll(async () => Number((await status.getAttribute("data-runs")) ?? 0), {timeout: 30_000}).toBe(runs + 1);
}

/** A TCP port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const {port} = server.address() as {port: number};
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * A loopback HTTP server that records every request it receives. It answers
 * each with a small CSV and headers that let any origin read it, so a request
 * the page's database makes would succeed, not just be sent.
 */
async function sinkServer(): Promise<{port: number; requests: string[]; close(): Promise<void>}> {
  const requests: string[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, {"access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-expose-headers": "*", "content-type": "text/csv"});
    res.end(req.method === "HEAD" ? undefined : "a,b\n1,2\n");
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const {port} = server.address() as {port: number};
  return {port, requests, close: () => new Promise<void>((ok) => server.close(() => ok()))};
}

describeUnless(browserTestsOff(), "the table explorer", () => {
  let dir: string;
  let store: string;
  let origin: string;
  let closeServer: () => Promise<void>;
  let browser: Browser;
  const nodeRows = async <T = Record<string, unknown>>(sql: string): Promise<T[]> => {
    const s = await openStore(store, {readOnly: true});
    try {
      return await rows<T>(s.conn, sql);
    } finally {
      s.close();
    }
  };

  beforeAll(async () => {
    // First, so a missing browser fails in seconds rather than after the build.
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), "sociometer-explorer-"));
    store = join(dir, "explorer.duckdb");
    const probe = join(dir, "probe.jsonl");
    writeFileSync(probe, jsonl([dumpRecord("00-xss-explorer", {scenario: `A scenario with ${SCRIPT_PAYLOAD} inside, key ${KEY}`, codename: "xss_probe"})]));
    const samples = join(REPO, "data", "samples");
    await runCli(["import", "sotopia", join(samples, "sotopia", "episodes.jsonl"), probe, "--db", store, "--quiet"]);
    await runCli(["import", "sotopia-ratings", join(samples, "sotopia", "human_ratings.csv"), "--db", store, "--quiet"]);
    await runCli(["import", "hsii", join(samples, "hsii", "runs.jsonl"), "--db", store, "--quiet"]);
    const build = await buildSite(store, dir, {SOCIOMETER_EXPLORER_ROWS: String(ROW_LIMIT)});
    console.log(`site built in ${(build.ms / 1000).toFixed(1)} s`);
    const server = await serveStatic(build.dist);
    origin = server.origin;
    closeServer = server.close;
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer?.();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  /** Opens the explorer and waits for its first table page. */
  async function openExplorer() {
    const watched = await watchedContext(browser);
    const page = await watched.open(`${origin}/explorer`);
    await page.locator("[data-testid=browser-table] tbody tr").first().waitFor({timeout: 30_000});
    return {...watched, page};
  }

  it("runs a query over several store tables with the same result as Node DuckDB, as a table and as a CSV download", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      const expected = await nodeRows(JOIN_SQL);
      const counts = await nodeRows<{n: number}>("SELECT (SELECT count(*) FROM hsii_judgments) AS n UNION ALL SELECT count(*) FROM hsii_cases");
      for (const {n} of counts) expect(n, "tables of the query are shipped whole").toBeLessThanOrEqual(ROW_LIMIT);
      expect(expected.length).toBeGreaterThan(1);
      expect(expected.length).toBeLessThanOrEqual(50);

      await runSql(page, JOIN_SQL);
      expect(await page.getByTestId("sql-status").getAttribute("data-rows")).toBe(String(expected.length));
      const shown = await tableCells(page, "result-table");
      const full = await tableFullValues(page, "result-table");
      expect(shown).toHaveLength(expected.length);
      const names = Object.keys(expected[0]);
      expect(await page.getByTestId("result-table").locator("thead th").allTextContents()).toEqual(names);
      // Shown rounded to 6 significant digits, the full value in the title.
      expected.forEach((row, i) => names.forEach((name, j) => {
        const value = row[name];
        expect(shown[i][j], `row ${i} ${name}`).toBe(typeof value === "number" ? formatNumber(value) : String(value));
        expectSameValue(full[i][j], value, `row ${i} ${name} (title)`);
      }));

      const download = page.waitForEvent("download");
      await page.getByTestId("result-csv").click();
      const file = await (await download).path();
      const csv = parseCsv(readFileSync(file!, "utf8"));
      expect(csv[0]).toEqual(names);
      expect(csv.slice(1)).toHaveLength(expected.length);
      expected.forEach((row, i) => names.forEach((name, j) => expectSameValue(csv[i + 1][j], row[name], `CSV row ${i} ${name}`)));

      // A categorical and a numeric column: bars.
      await runSql(page, CHART_SQL);
      await page.locator("[data-testid=sql-chart] svg").first().waitFor({timeout: 15_000});
      const benchmarks = await nodeRows<{benchmark: string}>(CHART_SQL);
      const labels = await page.locator("[data-testid=sql-chart] svg text").allTextContents();
      for (const {benchmark} of benchmarks) expect(labels).toContain(benchmark);
      expect(await cellErrors(page)).toEqual([]);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 120_000);

  it("shows a fraction rounded, with its full value in the title and in the CSV", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      await runSql(page, "SELECT 6.696257197696737::DOUBLE AS x, 1/3 AS third, 24 AS n");
      expect(await tableCells(page, "result-table")).toEqual([["6.69626", "0.333333", "24"]]);
      expect(await page.getByTestId("result-table").locator("td").evaluateAll((tds) => tds.map((td) => (td as HTMLElement).title))).toEqual(["6.696257197696737", "0.3333333333333333", ""]);
      expect(await page.getByTestId("result-rounding-note").isVisible()).toBe(true);
      const download = page.waitForEvent("download");
      await page.getByTestId("result-csv").click();
      const csv = parseCsv(readFileSync((await (await download).path())!, "utf8"));
      expect(Number(csv[1][0])).toBe(6.696257197696737);
      expect(Number(csv[1][1])).toBeCloseTo(1 / 3, 15);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("says where a query is wrong: line, column and the spot marked in the reader's text, with no earlier result left under it", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      // A result and its chart first: the failed query must take both away.
      await runSql(page, CHART_SQL);
      await page.locator("[data-testid=sql-chart] svg").first().waitFor({timeout: 15_000});
      expect(await page.getByTestId("result-table").isVisible()).toBe(true);
      await runSql(page, BAD_SQL);
      expect(await page.getByTestId("sql-status").textContent()).toBe("The query failed; no result is shown.");
      expect(await page.getByTestId("result-table").isVisible()).toBe(false);
      expect(await page.locator("[data-testid=sql-chart] svg").count()).toBe(0);
      expect(await page.getByTestId("sql-status").getAttribute("data-rows")).toBeNull();
      const summary = page.getByTestId("sql-error-summary");
      expect(await summary.textContent()).toBe('Line 3, column 7: Parser Error: syntax error at or near "BY"');
      expect(await summary.getAttribute("data-line")).toBe("3");
      const mark = page.getByTestId("sql-error-mark");
      expect(await mark.textContent()).toBe("B");
      expect(Number(await mark.getAttribute("data-offset"))).toBe(BAD_SQL.indexOf("BY"));
      expect(await page.getByTestId("sql-error-marked").textContent()).toBe(BAD_SQL);
      expect(await page.getByTestId("sql-error-context").textContent()).toBe("LINE 3: GRUOP BY benchmark\n              ^");
      // A good query afterwards clears the error and shows its result.
      await runSql(page, CHART_SQL);
      expect(await page.getByTestId("sql-error").isHidden()).toBe(true);
      expect(await page.getByTestId("result-table").isVisible()).toBe(true);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("pages and sorts a table in DuckDB as ORDER BY … LIMIT … OFFSET does in the store, and filters and searches it", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      await page.getByLabel("Table", {exact: true}).selectOption("episodes");
      await expect.poll(() => page.getByTestId("browser-table").locator("thead th").first().textContent()).toBe("episode_id");
      await page.getByTestId("browser").getByLabel("Rows per page").selectOption("25");
      // Click once: ascending; twice: descending.
      await page.getByTestId("browser-sort-episode_id").click();
      await expect.poll(() => page.getByTestId("browser-table").locator("thead th").first().getAttribute("aria-sort")).toBe("ascending");
      await page.getByTestId("browser-sort-episode_id").click();
      await expect.poll(() => page.getByTestId("browser-table").locator("thead th").first().getAttribute("aria-sort")).toBe("descending");
      await page.getByTestId("browser-next").click();
      await expect.poll(() => page.getByTestId("browser-status").getAttribute("data-page")).toBe("1");
      const [{n}] = await nodeRows<{n: number}>("SELECT count(*) AS n FROM episodes");
      expect(await page.getByTestId("browser-status").textContent()).toBe(`Rows 26–50 of ${n.toLocaleString("en-US")}.`);
      const expectedIds = (await nodeRows<{episode_id: string}>("SELECT episode_id FROM episodes ORDER BY episode_id DESC LIMIT 25 OFFSET 25")).map((r) => r.episode_id);
      expect((await tableCells(page, "browser-table")).map((r) => r[0])).toEqual(expectedIds);

      // The last page ends where the store's order ends.
      await page.getByTestId("browser-last").click();
      const lastIds = (await nodeRows<{episode_id: string}>(`SELECT episode_id FROM episodes ORDER BY episode_id DESC OFFSET ${Math.floor((n - 1) / 25) * 25}`)).map((r) => r.episode_id);
      await expect.poll(async () => (await tableCells(page, "browser-table")).map((r) => r[0])).toEqual(lastIds);

      // A filter on benchmark, counted as the store counts it.
      await page.getByTestId("browser").getByLabel("Filter column").selectOption("benchmark");
      await page.getByTestId("browser").getByLabel("Operator").selectOption("=");
      await page.getByTestId("browser").getByLabel("Value").fill("hsii");
      await page.getByTestId("browser-add-filter").click();
      const [{hsii}] = await nodeRows<{hsii: number}>("SELECT count(*) AS hsii FROM episodes WHERE benchmark = 'hsii'");
      await expect.poll(() => page.getByTestId("browser-status").getAttribute("data-matching")).toBe(String(hsii));
      expect(await page.getByTestId("browser-status").textContent()).toContain(`of ${hsii.toLocaleString("en-US")} (filtered from ${n.toLocaleString("en-US")})`);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 90_000);

  it("says 'showing N of M' for a table cut at the row limit, lists page data files, and ships no key", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      const [{n}] = await nodeRows<{n: number}>("SELECT count(*) AS n FROM ratings");
      expect(n).toBeGreaterThan(ROW_LIMIT);
      expect(await page.getByTestId("rows-ratings").textContent()).toBe(`showing ${ROW_LIMIT.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} rows`);
      await page.getByLabel("Table", {exact: true}).selectOption("ratings");
      await expect.poll(() => page.getByTestId("browser-truncation").textContent()).toContain(`showing ${ROW_LIMIT.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} rows`);
      expect(await page.getByTestId("table-pages.ratings").count()).toBe(1);
      expect(await page.getByTestId("withheld-columns").textContent()).toContain("llm_calls.request");

      // The key in the probe's scenario arrives as [redacted]; page data loads on demand under pages.
      await runSql(page, "SELECT count(*) FILTER (WHERE scenario LIKE '%sk-proj%') AS keys, count(*) FILTER (WHERE scenario LIKE '%[redacted]%') AS redacted FROM episodes");
      expect(await tableCells(page, "result-table")).toEqual([["0", "1"]]);
      expect(await page.getByTestId("redaction-note").textContent()).toContain("episodes: 1 cells");
      await runSql(page, "SELECT count(*) AS n FROM pages.overview");
      expect(Number((await tableCells(page, "result-table"))[0][0])).toBeGreaterThan(0);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 90_000);

  it("loads tables in `observable preview` from the address preview serves them at, with no 404 on the way", async () => {
    // The built project's copy, served by preview as `npm run dev` does (its loader cache is warm from the build).
    const project = join(dir, "project");
    const port = await freePort();
    const preview = spawn(join(REPO, "node_modules", ".bin", "observable"), ["preview", "--host", "127.0.0.1", "--port", String(port), "--no-open"], {
      cwd: project,
      env: {...process.env, SOCIOMETER_DB: store, SOCIOMETER_EXPLORER_ROWS: String(ROW_LIMIT), OBSERVABLE_TELEMETRY_DISABLE: "true", NO_COLOR: "1"},
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let log = "";
    preview.stdout!.on("data", (d: Buffer) => (log += d));
    preview.stderr!.on("data", (d: Buffer) => (log += d));
    const previewOrigin = `http://127.0.0.1:${port}`;
    const {context, problems, open} = await watchedContext(browser);
    try {
      await expect.poll(() => log, {timeout: 60_000}).toContain(previewOrigin);
      const failed: string[] = [];
      context.on("response", (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
      });
      const page = await open(`${previewOrigin}/explorer`);
      await page.locator("[data-testid=browser-table] tbody tr").first().waitFor({timeout: 90_000});
      // A store table and a page data file, each fetched once, under _file/.
      await runSql(page, "SELECT (SELECT count(*) FROM hsii_cases) AS cases, (SELECT count(*) FROM pages.overview) AS overview");
      const [[cases, overview]] = await tableCells(page, "result-table");
      const [{n}] = await nodeRows<{n: number}>("SELECT count(*) AS n FROM hsii_cases");
      expect(Number(cases)).toBe(n);
      expect(Number(overview)).toBeGreaterThan(0);
      const fetched = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
      const parquet = fetched.filter((p) => p.endsWith(".parquet"));
      expect(parquet.filter((p) => !p.startsWith("/_file/data/"))).toEqual([]);
      expect(parquet).toContain("/_file/data/tables/hsii_cases.parquet");
      expect(parquet).toContain("/_file/data/overview.parquet");
      expect(failed).toEqual([]);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
      if (preview.pid) process.kill(-preview.pid, "SIGTERM");
    }
  }, 240_000);

  it("shows markup in a cell, a result or a chart label as literal text that never runs", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      await page.getByLabel("Table", {exact: true}).selectOption("episodes");
      await page.getByTestId("browser").getByLabel("Search").fill("xss_probe");
      await expect.poll(() => page.getByTestId("browser-status").getAttribute("data-matching")).toBe("1");
      const [row] = await tableCells(page, "browser-table");
      expect(row.some((cell) => cell.startsWith(`A scenario with ${SCRIPT_PAYLOAD} inside`))).toBe(true);
      expect(await page.getByTestId("browser-table").locator("script, img").count()).toBe(0);

      await runSql(page, `SELECT '${IMG_PAYLOAD}' AS label, 2 AS n`);
      expect(await tableCells(page, "result-table")).toEqual([[IMG_PAYLOAD, "2"]]);
      await page.locator("[data-testid=sql-chart] svg").first().waitFor({timeout: 15_000});
      // The axis label is the markup as text (Vega cuts long labels short with an ellipsis).
      const labels = await page.locator("[data-testid=sql-chart] svg text").allTextContents();
      expect(labels.some((l) => l.startsWith("<img src=x onerror=")), labels.join(" | ")).toBe(true);
      expect(await page.locator("main img, main script:not([type=module])").count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as {__pwned?: number}).__pwned)).toBeUndefined();
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("is sealed: every way of reaching the network from the SQL box is refused with a message, and the sink hears nothing", async () => {
    const sink = await sinkServer();
    const {context, problems, page} = await openExplorer();
    try {
      const url = (path: string) => `http://127.0.0.1:${sink.port}/${path}`;
      // Refused before DuckDB runs anything: the statement types the page does not run.
      const refusedByType: [string, RegExp][] = [
        ["SET threads = 1; INSTALL httpfs", /^Line 1, column 1: SET is not run here/],
        ["LOAD httpfs", /^Line 1, column 1: LOAD is not run here/],
        ["/* a comment first */ install httpfs", /^Line 1, column 23: INSTALL is not run here/],
        ["SELECT 1;\nLOAD httpfs", /^Line 2, column 1: LOAD is not run here/],
        [`SET VARIABLE u = (SELECT '${url("?x=")}' || rationale FROM ratings LIMIT 1);\nSELECT * FROM read_csv(getvariable('u'))`, /^Line 1, column 1: SET is not run here/],
        [`ATTACH '${url("x.duckdb")}' AS x`, /^Line 1, column 1: ATTACH is not run here/],
        [`COPY (SELECT * FROM ratings) TO '${url("out.csv")}'`, /^Line 1, column 1: COPY is not run here/],
        ["SET enable_external_access = true", /^Line 1, column 1: SET is not run here/],
        ["PRAGMA enable_external_access = true", /^Line 1, column 1: PRAGMA enable_external_access is not run here/],
      ];
      // Statements the page runs, which the sealed database itself refuses.
      const refusedBySeal: [string, RegExp][] = [
        [`SELECT * FROM read_csv('${url("a.csv")}')`, /^Line 1, column 15: Permission Error: Cannot access file "http:\/\/127\.0\.0\.1:\d+\/a\.csv" - file system operations are disabled by configuration$/],
        [`SELECT * FROM read_csv('${url("?x=")}' || (SELECT 1))`, /(Permission Error|Binder Error|Parser Error|Invalid Input Error)/],
        [`SELECT * FROM read_parquet('${url("a.parquet")}')`, /(Permission Error|Catalog Error)/],
        [`SELECT * FROM read_json('${url("a.json")}')`, /(Permission Error|Catalog Error)/],
        [`CREATE TEMP TABLE leak AS SELECT * FROM read_csv('${url("b.csv")}')`, /Permission Error: Cannot access file "http:\/\/127\.0\.0\.1:\d+\/b\.csv"/],
        [`SELECT * FROM read_csv(getvariable('u'))`, /Error/],
      ];
      // Soft checks: one unexpected message must not hide whether the sink heard anything.
      for (const [sql, message] of [...refusedByType, ...refusedBySeal]) {
        await runSql(page, sql);
        expect.soft(await page.getByTestId("sql-status").textContent(), sql).toBe("The query failed; no result is shown.");
        expect.soft(await page.getByTestId("sql-error-summary").textContent(), sql).toMatch(message);
      }
      // The seal leaves the page's own work alone: a table not loaded yet still loads, and a query over it runs.
      const [{n}] = await nodeRows<{n: number}>("SELECT count(*) AS n FROM hsii_cases");
      await runSql(page, "SELECT count(*) AS n FROM hsii_cases");
      expect(await tableCells(page, "result-table")).toEqual([[String(n)]]);
      await runSql(page, "CREATE TEMP TABLE mine AS SELECT 41 + 1 AS answer; SELECT * FROM mine");
      expect(await page.getByTestId("statement-table").locator("td").allTextContents()).toEqual(["42"]);
      expect(sink.requests).toEqual([]);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
      await sink.close();
    }
  }, 120_000);

  it("puts the SQL box first, the chosen table under it, and the list of tables in a compact picker", async () => {
    const {context, problems, page} = await openExplorer();
    try {
      const sqlBox = await page.getByTestId("sql-input").boundingBox();
      const picker = await page.getByLabel("Table", {exact: true}).boundingBox();
      const grid = await page.getByTestId("browser-table").boundingBox();
      expect(sqlBox!.y).toBeLessThan(picker!.y);
      expect(picker!.y).toBeLessThan(grid!.y);
      // The SQL box and the picker are both on the first screen (900 px).
      expect(picker!.y + picker!.height).toBeLessThan(900);
      // The picker groups every table by where it comes from and says its rows; the full list is folded away under the chosen table.
      const groups = await page.getByLabel("Table", {exact: true}).locator("optgroup").evaluateAll((gs) => gs.map((g) => (g as HTMLOptGroupElement).label));
      expect(groups).toEqual(["Store tables", "The pages' tables (schema pages)"]);
      const [{n}] = await nodeRows<{n: number}>("SELECT count(*) AS n FROM ratings");
      expect(await page.getByLabel("Table", {exact: true}).locator("option[value=ratings]").textContent()).toBe(`ratings · showing ${ROW_LIMIT.toLocaleString("en-US")} of ${n.toLocaleString("en-US")} rows`);
      expect(await page.getByTestId("explorer-tables").evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
      expect((await page.getByTestId("explorer-tables").boundingBox())!.y).toBeGreaterThan(grid!.y);
      expect(await page.getByTestId("browser-table-info").textContent()).toMatch(/^\w+ \(store\), .+ rows\. Columns: \w+ /);
      // The example query runs as it is and gives one row per benchmark, dimension and kind of rater, as the store does.
      await page.getByTestId("sql-run").click();
      const expected = await nodeRows<{benchmark: string; dimension: string; rater_kind: string}>(
        "SELECT DISTINCT e.benchmark, r.dimension, r.rater_kind FROM ratings r JOIN episodes e USING (episode_id) ORDER BY ALL");
      await expect.poll(() => page.getByTestId("sql-status").getAttribute("data-rows"), {timeout: 30_000}).not.toBeNull();
      const cells = await tableCells(page, "result-table");
      expect(cells.map((r) => r.slice(0, 3))).toEqual(expected.slice(0, 50).map((r) => [r.benchmark, r.dimension, r.rater_kind]));
      expect(await page.getByTestId("sql-status").getAttribute("data-rows")).toBe(String(expected.length));
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);
});
