// The first view of every page drawn from summaries decoded directly (issue
// 18): on a site built from the bundled samples, each page marks its first
// chart or table (data-first-view) with no error and without fetching
// DuckDB-wasm or parquet-wasm (only the table explorer, whose content is SQL, starts it, in
// the background: its table list comes first).
// Then DuckDB-wasm is started in the page, from the site's own client module,
// over the Parquet files of the same loaders' queries (the copies the table
// explorer reads), and the numbers the page drew first from its Arrow pack are
// the ones the SQL path gives: the overview's counts and the SOTOPIA means.

import {readdirSync} from "node:fs";
import {join} from "node:path";
import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {defaultRater, modelAggregates, type SotopiaStatRow} from "../../src/lib/sotopia.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {cellErrors, serveStatic, watchedContext, type Problems} from "./helpers.js";
import {sharedSite} from "./sites.js";

/** Pages whose first view is drawn from decoded summaries, with no DuckDB-wasm; the explorer starts it for its SQL. */
const DECODED_PAGES = ["/", "/sotopia", "/lifelong", "/hsii", "/stss", "/informativebench", "/audit", "/bench-baseline", "/episodes"];
const SQL_PAGES = ["/explorer"];
const FIRST_VIEW_TIMEOUT_MS = 60_000;

let dist: string;
let origin: string;
let closeServer: () => Promise<void>;
let browser: Browser;

describeUnless(browserTestsOff(), "the first view of each page, from summaries decoded directly", () => {
  beforeAll(async () => {
    browser = await launchBrowser();
    ({dist} = await sharedSite("samples"));
    const server = await serveStatic(dist);
    origin = server.origin;
    closeServer = server.close;
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer?.();
  });

  /** Opens a page, waits for its first view, and returns it with every URL it requested. */
  async function openFirstView(path: string): Promise<{page: Page; requested: string[]; problems: Problems}> {
    const {context, problems, open} = await watchedContext(browser);
    const requested: string[] = [];
    context.on("request", (r) => requested.push(r.url()));
    const page = await open(`${origin}${path}`);
    await page.locator("[data-first-view]").first().waitFor({state: "attached", timeout: FIRST_VIEW_TIMEOUT_MS});
    return {page, requested, problems};
  }

  it.each(DECODED_PAGES)("%s draws its first view with no error, no DuckDB-wasm and no parquet-wasm", async (path) => {
    const {page, requested, problems} = await openFirstView(path);
    try {
      await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, null, {timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(await cellErrors(page)).toEqual([]);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
      // Summaries come as Arrow IPC packs decoded by flechette: neither wasm module is fetched.
      expect(requested.filter((url) => /duckdb|parquet_wasm/i.test(url))).toEqual([]);
      expect(await page.locator("[data-first-view]").count()).toBeGreaterThanOrEqual(1);
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it.each(SQL_PAGES)("%s draws its table list at once, starts DuckDB-wasm in the background, then shows a table's rows", async (path) => {
    const {page, requested, problems} = await openFirstView(path);
    try {
      expect(await page.locator("[data-first-view] tbody tr").count()).toBeGreaterThan(0);
      // The browse panel's first page needs SQL: it appears once DuckDB-wasm has started and loaded the table.
      await page.locator("[data-testid='browser-status'][data-matching]").waitFor({state: "attached", timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(requested.some((url) => /duckdb-eh/.test(url))).toBe(true);
      expect(await cellErrors(page)).toEqual([]);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await page.context().close();
    }
  }, 120_000);

  /** The site's copy of a module or data file (its name carries a content hash), as a URL path. */
  function builtFile(folder: string, pattern: RegExp): string {
    const file = readdirSync(join(dist, folder)).find((f) => pattern.test(f));
    if (!file) throw new Error(`no file matching ${pattern} in ${folder}`);
    return `/${folder}/${file}`;
  }

  /** Starts DuckDB-wasm in the page with the site's client module, loads `tables`, and returns each query's rows. */
  function sqlInPage(page: Page, tables: Record<string, string>, queries: string[]): Promise<Record<string, unknown>[][]> {
    const moduleUrl = `${origin}${builtFile("_import/client", /^duckdb\.[0-9a-f]+\.js$/)}`;
    // A string, not a function: vitest would rewrite a function's import() into a helper the page does not have.
    return page.evaluate(`(async () => {
      const client = await import(${JSON.stringify(moduleUrl)});
      const db = await client.openDuckDB(${JSON.stringify(tables)});
      try {
        const out = [];
        for (const q of ${JSON.stringify(queries)}) out.push(await db.query(q));
        return out;
      } finally {
        await db.close();
      }
    })()`);
  }

  it("the overview's benchmark counts, drawn first, are the ones DuckDB-wasm gives over the same file", async () => {
    const {page} = await openFirstView("/");
    try {
      const shown = await page.locator("[data-first-view] tbody tr").evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent?.trim() ?? "")));
      const [benchmarks] = await sqlInPage(page, {overview: "/data/overview.parquet"},
        ["SELECT name, episodes FROM overview WHERE section = 'benchmark' ORDER BY section, benchmark, episodes DESC, name"]);
      // Inputs.table puts a cell before the columns (the row's checkbox when select is on); the name and count follow.
      const nameAndCount = shown.map((cells) => cells.slice(-6, -4));
      expect(nameAndCount).toEqual(benchmarks!.map((b) => [String(b.name), Number(b.episodes).toLocaleString("en-US")]));
      expect(nameAndCount.map(([name]) => name)).toEqual(["hsii", "informativebench", "lifelong-sotopia", "sotopia", "stss"]);
    } finally {
      await page.context().close();
    }
  }, 180_000);

  // The page draws from the statistics summed over tasks, DuckDB-wasm reads the per-task rows: the same sums added in
  // another order, so the means are compared to 12 significant digits.
  it("the SOTOPIA means, drawn first, are the ones computed from DuckDB-wasm's per-task rows with the same library", async () => {
    const {page} = await openFirstView("/sotopia");
    try {
      await page.getByTestId("sotopia-means").waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      const shown = await page.locator("[data-testid='sotopia-means'] td[data-testid^='mean-']").evaluateAll((tds) =>
        tds.filter((td) => td.getAttribute("data-value") !== null).map((td) => [td.getAttribute("data-testid"), Number(td.getAttribute("data-value"))] as const));
      const [rows, models] = await sqlInPage(page, {sotopia_stats: "/data/sotopia-stats.parquet"},
        ["SELECT * FROM sotopia_stats", "SELECT DISTINCT model FROM sotopia_stats ORDER BY model"]);
      const stats = rows as unknown as SotopiaStatRow[];
      const rater = defaultRater(stats)!;
      const expected = modelAggregates(stats, {rater, models: models!.map((m) => String(m.model))})
        .filter((a) => !Number.isNaN(a.mean))
        .map((a) => [`mean-${a.model}-${a.dimension}`, a.mean] as const);
      const twelveDigits = (pairs: readonly (readonly [string | null, number])[]) => new Map(pairs.map(([id, mean]) => [id, Number(mean.toPrecision(12))]));
      expect(shown.length).toBeGreaterThan(0);
      expect(twelveDigits(shown)).toEqual(twelveDigits(expected));
    } finally {
      await page.context().close();
    }
  }, 180_000);
  it("the overview groups its files, and fetches the list of every file only when it is opened", async () => {
    const {page, requested} = await openFirstView("/");
    try {
      const details = page.getByTestId("all-sources");
      await details.waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(await details.locator("summary").textContent()).toBe("Every file (10)");
      expect(requested.filter((url) => url.includes("overview-sources"))).toEqual([]);
      await details.locator("summary").click();
      await details.locator("tbody tr").nth(9).waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(await details.locator("tbody tr").count()).toBe(10);
      expect(requested.filter((url) => url.includes("overview-sources"))).toHaveLength(1);
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it("LIFELONG-SOTOPIA and STSS fetch their later sections' pack after the first view, then draw the sections that need it", async () => {
    const later: Record<string, [string, string]> = {
      "/lifelong": ["lifelong-rows", "[data-testid='failure-options']"],
      "/stss": ["stss-rows", "[data-testid='stss-options']"],
    };
    for (const [path, [pack, selector]] of Object.entries(later)) {
      const {page, requested, problems} = await openFirstView(path);
      try {
        await page.locator(selector).first().waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
        expect(requested.filter((url) => url.includes(pack)), path).toHaveLength(1);
        expect(await cellErrors(page), path).toEqual([]);
        expect(problems.pageErrors, path).toEqual([]);
      } finally {
        await page.context().close();
      }
    }
  }, 300_000);

  it("HSII draws every section, the COT table included, from its first-view pack alone", async () => {
    const {page, requested, problems} = await openFirstView("/hsii");
    try {
      await page.getByTestId("cot-options").waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, null, {timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(await page.getByTestId("cot-options").textContent()).toContain("720 runs");
      expect(requested.filter((url) => /\/_file\/data\/hsii/.test(url)).map((url) => url.replace(/^.*\/_file\/data\/(hsii[\w-]*)\..*$/, "$1"))).toEqual(["hsii-first-view"]);
      expect(await cellErrors(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it("InformativeBench draws every section from its first-view pack and fetches the records only when the question list asks for them", async () => {
    const {page, requested, problems} = await openFirstView("/informativebench");
    try {
      await page.getByTestId("ib-gold").waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      await page.locator("[data-testid='ib-infonav'] tbody tr").first().waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, null, {timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(await page.getByTestId("ib-records-waiting").textContent()).toBe("The records load when you search, choose a dataset or backend, or list every record.");
      // A choice of match is looked up: still no records fetched.
      await page.getByRole("radio", {name: /^contains/}).check();
      await page.locator("[data-testid='ib-options']").filter({hasText: "match contains"}).waitFor({timeout: FIRST_VIEW_TIMEOUT_MS});
      expect(requested.filter((url) => url.includes("informativebench-rows"))).toEqual([]);
      await page.locator("button", {hasText: "List the 2,336 records"}).click();
      await expect.poll(() => page.getByTestId("ib-question-count").getAttribute("data-value"), {timeout: FIRST_VIEW_TIMEOUT_MS}).toBe("2336");
      await page.getByLabel("Search").fill("schedule");
      await page.getByLabel("Search").dispatchEvent("input");
      expect(requested.filter((url) => url.includes("informativebench-rows"))).toHaveLength(1);
      expect(await cellErrors(page)).toEqual([]);
      expect(problems.pageErrors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});
