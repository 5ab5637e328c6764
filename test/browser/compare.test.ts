// The Compare page, built from the bundled samples: it prints the numbers
// `sociometer compare` prints for the same sides, options and seed (to 1e-9),
// and on the sample pair of judge runs it marks goal, and only goal, as
// changed after Holm's adjustment.

import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {HSII_COMPARE_SQL} from "../../loaders/queries/compare.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {FIXTURES_MISSING} from "../helpers/fixtures.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {runCli, serveStatic} from "./helpers.js";
import {sharedSite} from "./sites.js";

interface CliMetric {
  metric: string;
  n_paired: number;
  n_unpaired_a: number;
  n_unpaired_b: number;
  mean_a: number;
  mean_b: number;
  difference: number;
  lo: number;
  hi: number;
  boot_lo: number;
  boot_hi: number;
  p: number;
  p_adjusted: number;
}

/** Opens a page and waits until no cell is still loading; `requested` collects every URL it asks for. */
async function openPage(browser: Browser, url: string, requested: string[] = []): Promise<Page> {
  const page = await browser.newPage({viewport: {width: 1440, height: 900}});
  page.on("request", (r) => requested.push(r.url()));
  await page.goto(url, {waitUntil: "load"});
  await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, null, {timeout: 60_000});
  await page.getByTestId("compare-table").waitFor({timeout: 60_000});
  return page;
}

/** Every number of the page's metric table, by metric, from the cells' exact values. */
function pageMetrics(page: Page): Promise<Record<string, Record<string, number>>> {
  return page.evaluate(() => {
    const out: Record<string, Record<string, number>> = {};
    for (const tr of document.querySelectorAll("[data-testid=compare-table] tbody tr")) {
      const metric = tr.querySelector("th")!.textContent!;
      const cell = (what: string) => tr.querySelector<HTMLElement>(`[data-testid="compare-${metric}-${what}"]`)!;
      const num = (what: string) => Number(cell(what).dataset.value);
      out[metric] = {
        n_paired: num("n-paired"), n_unpaired_a: num("unpaired-a"), n_unpaired_b: num("unpaired-b"), mean_a: num("mean-a"), mean_b: num("mean-b"),
        difference: num("difference"), lo: Number(cell("interval").dataset.lo), hi: Number(cell("interval").dataset.hi),
        boot_lo: Number(cell("boot").dataset.lo), boot_hi: Number(cell("boot").dataset.hi), p: num("p"), p_adjusted: num("p-adjusted"),
      };
    }
    return out;
  });
}

function expectAgree(page: Record<string, Record<string, number>>, cli: CliMetric[]): void {
  expect(Object.keys(page)).toEqual(cli.map((m) => m.metric));
  for (const m of cli) {
    for (const k of ["n_paired", "n_unpaired_a", "n_unpaired_b", "mean_a", "mean_b", "difference", "lo", "hi", "boot_lo", "boot_hi", "p", "p_adjusted"] as const) {
      const want = m[k] ?? NaN;
      const got = page[m.metric][k];
      if (Number.isNaN(want)) expect(got, `${m.metric} ${k}`).toBeNaN();
      else expect(Math.abs(got - want), `${m.metric} ${k}: page ${got}, CLI ${want}`).toBeLessThanOrEqual(1e-9);
    }
  }
}

async function choose(page: Page, label: string, prefix: string): Promise<void> {
  const select = page.getByLabel(label, {exact: true});
  const options = await select.locator("option").allTextContents();
  const option = options.find((o) => o.startsWith(prefix));
  expect(option, `an option of ${label} starting with ${prefix} among ${options.join(" | ")}`).toBeTruthy();
  await select.selectOption({label: option!});
}

describeUnless(browserTestsOff(), "the Compare page", () => {
  let browser: Browser;
  let origin: string;
  let store: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    browser = await launchBrowser();
    const site = await sharedSite("samples");
    store = site.store;
    const server = await serveStatic(site.dist);
    origin = server.origin;
    close = server.close;
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await close?.();
  });

  it("opens on the CLI's default sides and shows the CLI's numbers, bootstrap included (same seed), with no rows and no DuckDB-wasm fetched", async () => {
    const requested: string[] = [];
    const page = await openPage(browser, `${origin}/compare`, requested);
    const cli = JSON.parse((await runCli(["compare", "--format", "json", "--db", store])).stdout) as {statement: string; notes: string[]; metrics: CliMetric[]};
    expectAgree(await pageMetrics(page), cli.metrics);
    expect(await page.locator("[data-first-view][data-testid=compare-table]").count()).toBe(1);
    // The first view is the build's summary: no rows file, no database.
    expect(requested.filter((u) => /compare-summary/.test(u)).length).toBeGreaterThan(0);
    expect(requested.filter((u) => /compare-rows|duckdb/.test(u))).toEqual([]);
    expect(await page.getByTestId("compare-statement").textContent()).toBe(cli.statement);
    // The notes the CLI prints, the defaults' reason first.
    expect(cli.notes[0]).toMatch(/^defaults: rated by gpt-4, the rater that scored the most sotopia episodes \(232\); under it, the two models that pair on the most items/);
    expect(await page.getByTestId("compare-notes").textContent()).toBe(cli.notes.join("; "));
    const link = await page.getByTestId("compare-changed").locator("a").first().getAttribute("href");
    expect(link).toMatch(/^episodes\?episode=[^&]+&vs=[^&]+$/);
    await page.close();
  }, 300_000);

  it("never scrolls sideways at 1100, 1440 or 800 px: the metric table scrolls in its own box, and all of it can be reached", async () => {
    for (const width of [1100, 1440, 800]) {
      const page = await browser.newPage({viewport: {width, height: 900}});
      await page.goto(`${origin}/compare`, {waitUntil: "load"});
      await page.getByTestId("compare-table").waitFor({timeout: 60_000});
      const box = await page.evaluate(() => {
        const root = document.documentElement;
        const table = document.querySelector<HTMLElement>("[data-testid=compare-table]")!;
        const main = document.querySelector("main")!.getBoundingClientRect();
        const cells = [...table.querySelectorAll("thead th")].map((th) => th.getBoundingClientRect());
        return {page: root.scrollWidth - root.clientWidth, right: table.getBoundingClientRect().right - main.right,
          // Scrolled to its end, the box shows the last column whole: nothing is cut off for good.
          reach: table.scrollWidth - table.clientWidth - (cells[cells.length - 1].right - cells[0].left - table.clientWidth), columns: cells.length};
      });
      expect({width, page: box.page, right: Math.max(0, Math.round(box.right)), columns: box.columns}).toEqual({width, page: 0, right: 0, columns: 13});
      expect(Math.abs(box.reach), `width ${width}`).toBeLessThanOrEqual(2);
      await page.close();
    }
  }, 300_000);

  it("on the sample judge reruns, marks goal alone as changed, with the CLI's numbers", async () => {
    const page = await openPage(browser, `${origin}/compare`);
    for (const side of ["A", "B"]) {
      await choose(page, `${side}: model`, "(any)");
      await choose(page, `${side}: rater`, "gpt-4o ");
    }
    await choose(page, "A: run", "prompt-v1 ");
    await choose(page, "B: run", "prompt-v2 ");
    await expect.poll(() => page.getByTestId("compare-statement").textContent(), {timeout: 60_000}).toContain("paired by the same episode and seat");
    await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0);
    const significant = await page.locator("[data-testid=compare-table] tbody tr.significant th").allTextContents();
    expect(significant).toEqual(["goal"]);
    const cli = JSON.parse((await runCli(["compare", "sotopia", "--a", "rater=gpt-4o", "run=prompt-v1", "--b", "rater=gpt-4o", "run=prompt-v2", "--format", "json", "--db", store])).stdout) as {metrics: CliMetric[]};
    expectAgree(await pageMetrics(page), cli.metrics);
    await page.close();
  }, 300_000);

  it("computes another benchmark with other options in the worker, fetching that benchmark's pack only (its header, then the blocks on the two sides), with the CLI's numbers", async () => {
    const requested: string[] = [];
    const page = await openPage(browser, `${origin}/compare`, requested);
    await page.getByLabel("Benchmark", {exact: true}).selectOption("hsii");
    // The side pickers are drawn anew for HSII; reading them before that would pick from SOTOPIA's options.
    await page.getByLabel("A: cot", {exact: true}).waitFor();
    await choose(page, "A: model", "gpt-4 ");
    await choose(page, "B: model", "gpt-4 ");
    await choose(page, "A: cot", "without ");
    await choose(page, "B: cot", "with ");
    const seed = page.getByLabel("Seed", {exact: true});
    await seed.fill("7");
    await seed.dispatchEvent("input");
    await page.getByLabel("Benjamini–Hochberg", {exact: false}).check();
    await expect.poll(() => page.getByTestId("compare-statement").textContent(), {timeout: 60_000}).toContain("cot=with");
    await expect.poll(() => page.getByTestId("compare-statement").textContent(), {timeout: 60_000}).toContain("Benjamini");
    await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0);
    const cli = JSON.parse((await runCli(["compare", "hsii", "--a", "model=gpt-4", "cot=without", "--b", "model=gpt-4", "cot=with",
      "--seed", "7", "--adjust", "bh", "--format", "json", "--db", store])).stdout) as {statement: string; metrics: CliMetric[]};
    expectAgree(await pageMetrics(page), cli.metrics);
    expect(await page.getByTestId("compare-statement").textContent()).toBe(cli.statement);
    // A block per combination of side keys: those of gpt-4 with or without COT, or with no model or COT, are on the final sides.
    const s = await openStore(store, {readOnly: true});
    const [{blocks}] = await rows<{blocks: number}>(s.conn, `SELECT count(*)::INTEGER AS blocks FROM (SELECT DISTINCT model, rater, run, source, setting, memory, cot
      FROM (${HSII_COMPARE_SQL}) WHERE (model IS NULL OR model = 'gpt-4') AND (cot IS NULL OR cot IN ('with', 'without')))`).finally(() => s.close());
    const packRequests = requested.filter((u) => /compare-rows/.test(u)).map((u) => new URL(u).pathname.replace(/.*\//, "").replace(/\.[0-9a-f]+\.bin$/, ".bin"));
    // Each choice on the way (A's model, then B's…) asks the worker too: at least the header and the final sides' blocks, of HSII's pack only.
    expect(new Set(packRequests)).toEqual(new Set(["compare-rows-hsii.bin"]));
    expect(packRequests.length).toBeGreaterThanOrEqual(1 + blocks);
    expect(await page.getByTestId("compare-notes").textContent()).toContain("HSII stage-3/4 wins: win policy mean (win 1, tie 0.5, loss 0, averaged over both orders)");

    // Another win policy: read from its own pack, with the CLI's numbers under that policy, and named in the notes.
    // Until the worker answers, the previous result is dimmed and the progress line says so (a new user read Holm's numbers under "none").
    await page.evaluate(() => {
      const w = window as unknown as {staleSeen: string[]};
      w.staleSeen = [];
      new MutationObserver(() => {
        if (document.body.classList.contains("compare-stale")) w.staleSeen.push(document.querySelector("[data-testid=compare-progress]")?.textContent ?? "");
      }).observe(document.body, {attributes: true, attributeFilter: ["class"]});
    });
    await page.getByLabel("strict (a win only when both orders say win)", {exact: true}).check();
    await expect.poll(() => page.locator("[data-testid=compare-table] tbody th").allTextContents(), {timeout: 60_000}).toContain("stage3_win (strict)");
    await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0);
    const strict = JSON.parse((await runCli(["compare", "hsii", "--a", "model=gpt-4", "cot=without", "--b", "model=gpt-4", "cot=with",
      "--seed", "7", "--adjust", "bh", "--win-policy", "strict", "--format", "json", "--db", store])).stdout) as {metrics: CliMetric[]};
    expectAgree(await pageMetrics(page), strict.metrics);
    expect(await page.getByTestId("compare-notes").textContent()).toContain("HSII stage-3/4 wins: win policy strict");
    expect(requested.some((u) => /compare-rows-hsii-strict\.[0-9a-f]+\.bin$/.test(new URL(u).pathname))).toBe(true);
    expect(requested.some((u) => /compare-rows-hsii-first/.test(u))).toBe(false);
    const staleSeen = await page.evaluate(() => (window as unknown as {staleSeen: string[]}).staleSeen);
    expect(staleSeen.length).toBeGreaterThan(0);
    expect(staleSeen[0]).toContain("The results below are still those of the previous options");
    expect(await page.evaluate(() => document.body.classList.contains("compare-stale"))).toBe(false);
    expect(await page.getByTestId("compare-progress").textContent()).toBe("");
    await page.close();
  }, 300_000);
  it("leaves STSS appointment conversations with someone else out by default, and counts them under 'all', from its own pack, as the CLI does", async () => {
    const requested: string[] = [];
    const page = await openPage(browser, `${origin}/compare`, requested);
    await page.getByLabel("Benchmark", {exact: true}).selectOption("stss");
    await page.getByLabel("A: setting", {exact: true}).waitFor();
    await expect.poll(() => page.getByTestId("compare-notes").textContent(), {timeout: 60_000}).toContain("appointment partners (--appointment-partners): target");
    await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0);
    const target = JSON.parse((await runCli(["compare", "stss", "--format", "json", "--db", store])).stdout) as {a: Record<string, string>; b: Record<string, string>; metrics: CliMetric[]};
    expectAgree(await pageMetrics(page), target.metrics);
    const words = (side: Record<string, string>) => Object.entries(side).map(([k, v]) => `${k}=${v}`);
    const all = JSON.parse((await runCli(["compare", "stss", "--a", ...words(target.a), "--b", ...words(target.b), "--appointment-partners", "all", "--format", "json", "--db", store])).stdout) as {metrics: CliMetric[]};
    // The samples' off-target appointment talks count under "all": more pairs than under the rule.
    expect(all.metrics[0].n_paired).toBeGreaterThan(target.metrics[0].n_paired);
    await page.getByLabel("all, with anyone", {exact: true}).check();
    await expect.poll(() => page.getByTestId("compare-notes").textContent(), {timeout: 60_000}).toContain("appointment partners (--appointment-partners): all");
    await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0 && !document.body.classList.contains("compare-stale"));
    expectAgree(await pageMetrics(page), all.metrics);
    expect(requested.some((u) => /compare-rows-stss-all/.test(u))).toBe(true);
    await page.close();
  }, 300_000);
});

// The real Sotopia-π human evaluation (with sotopia-rl's episodes, as the fixtures site holds them): no LLM judge, twenty
// annotators, none on more than 61 of the 154 annotated episodes. The page opened on one annotator and two pairs.
describeUnless(browserTestsOff() ?? FIXTURES_MISSING, "the Compare page on the real Sotopia-π annotations", () => {
  let browser: Browser;
  let site: {origin: string; close(): Promise<void>};
  let store: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    const built = await sharedSite("fixtures");
    store = built.store;
    site = await serveStatic(built.dist);
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("opens on the pooled annotators with more than 2 pairs, says why, and marks the small sample beside n paired, as the CLI does", async () => {
    const page = await openPage(browser, `${site.origin}/compare`);
    const cli = JSON.parse((await runCli(["compare", "--format", "json", "--db", store])).stdout) as {a: {rater: string}; b: {rater: string}; notes: string[]; metrics: CliMetric[]};
    expect([cli.a.rater, cli.b.rater]).toEqual(["humans", "humans"]);
    const metrics = await pageMetrics(page);
    expectAgree(metrics, cli.metrics);
    expect(Object.values(metrics).every((m) => m.n_paired > 2)).toBe(true);
    expect(await page.getByTestId("compare-notes").textContent()).toMatch(/^defaults: rated by humans \(the annotators pooled\), the rater that scored the most sotopia episodes \(154\); /);
    expect(await page.getByTestId("side-A").locator("select").nth(1).evaluate((s: HTMLSelectElement) => s.selectedOptions[0].textContent)).toMatch(/^humans \(pooled\) \(\d+ values\)$/);
    // Fewer than 10 pairs: said beside the number.
    expect(await page.getByTestId("compare-goal-small").textContent()).toBe(" small sample");
    await page.close();
  }, 600_000);
});
