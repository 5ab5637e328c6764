// The agreement page's reliability section against `sociometer report
// reliability` on the bundled samples: built site, Chromium, the same
// default options and seed; every statistic, bound and adjusted p on the page
// equal to the CLI's to 1e-9, computed in the page's worker.

import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {openStore} from "../../loaders/store/db.js";
import {FIXTURES_MISSING} from "../helpers/fixtures.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {serveStatic} from "./helpers.js";
import {sharedSite} from "./sites.js";

/** Page cell id → CLI column, for a judge row and for the annotators' row. */
const JUDGE_CELLS: Record<string, string> = {alpha: "alpha", icc: "icc", kappa: "kappa", ac1: "ac1", r: "r", rho: "rho", bias: "ba_bias", "icc-p": "icc_p_adj", "slope-p": "ba_slope_p_adj"};
const ANNOTATOR_CELLS: Record<string, string> = {alpha: "alpha", icc: "icc", ac1: "ac1", fleiss: "fleiss", "icc-p": "icc_p_adj"};

describeUnless(browserTestsOff(), "the reliability section of the agreement page", () => {
  let browser: Browser;
  let site: {origin: string; close(): Promise<void>};
  let cli: Record<string, unknown>[];

  beforeAll(async () => {
    browser = await launchBrowser();
    const {store: storePath, dist} = await sharedSite("samples");
    cli = await reliabilityReport(storePath);
    site = await serveStatic(dist);
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("shows the CLI's point estimates at once and no interval, and starts no bootstrap until the button is pressed", async () => {
    const page: Page = await browser.newPage({viewport: {width: 1440, height: 900}});
    await page.goto(`${site.origin}/agreement`, {waitUntil: "load"});
    await page.getByTestId("reliability-progress").filter({hasText: "Point estimates"}).waitFor({timeout: 300_000});
    const button = page.getByRole("button", {name: /^Compute intervals \(about \d+ s\)$/});
    await button.waitFor();
    const cells = await readCells(page);
    expect(cells.filter((c) => c.lo !== null)).toEqual([]);
    expect(compareWithCli(cells, cli, {bounds: false})).toBe(7 * (Object.keys(JUDGE_CELLS).length + Object.keys(ANNOTATOR_CELLS).length));
    expect(await page.getByTestId("reliability-options").textContent()).toContain("intervals: not computed yet");
    // No verdict rests on a one-resample interval.
    expect(await page.getByTestId("reliability-verdicts").count()).toBe(0);
    // The resamples change only the bootstrap: the button relabels, and the point estimates are not computed again (a minute at 100k).
    const seconds = async () => Number((await button.textContent())?.match(/about (\d+) s/)?.[1]);
    const before = await seconds();
    await page.evaluate(() => {
      const progress = () => document.querySelector("[data-testid=reliability-progress]")?.textContent ?? "";
      new MutationObserver(() => {
        if (/Starting the background worker|Reading the score rows/.test(progress())) (window as unknown as {restarted?: boolean}).restarted = true;
      }).observe(document.body, {childList: true, subtree: true, characterData: true});
    });
    await page.getByLabel("Resamples", {exact: true}).selectOption("200");
    await expect.poll(() => page.getByLabel("Resamples", {exact: true}).inputValue()).toBe("0");
    await page.waitForTimeout(1000);
    expect(await seconds()).toBeLessThanOrEqual(before);
    expect(await page.evaluate(() => (window as unknown as {restarted?: boolean}).restarted)).toBeUndefined();
    expect(await page.getByTestId("reliability-progress").textContent()).toContain("Point estimates");
    await page.close();
  }, 600_000);

  it("shows the CLI's numbers to 1e-9 with the same seed, after a progress note from the worker", async () => {
    const {cells, options} = await reliabilityCells(browser, site.origin);
    expect(options).toContain("95% percentile bootstrap over episodes, 1,000 resamples, seed 1");
    // Rows: gpt-4 against the mean of the annotators, and the annotators, on seven dimensions.
    expect(compareWithCli(cells, cli)).toBe(7 * (Object.keys(JUDGE_CELLS).length + Object.keys(ANNOTATOR_CELLS).length));
  }, 600_000);
});

/** `sociometer report reliability` with its default options, over a shared store (read only). */
async function reliabilityReport(storePath: string): Promise<Record<string, unknown>[]> {
  const store = await openStore(storePath, {readOnly: true});
  try {
    return (await getReport("reliability").run(store, {})).rows;
  } finally {
    store.close();
  }
}

interface PageCell {
  id: string;
  value: string | null;
  lo: string | null;
  hi: string | null;
}

/** Every reliability cell's exact values. */
const readCells = (page: Page): Promise<PageCell[]> => page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>("[data-testid^='rel-']"), (td) =>
  ({id: td.dataset.testid!, value: td.dataset.value ?? null, lo: td.dataset.lo ?? null, hi: td.dataset.hi ?? null})));

/** Opens the agreement page, asks for the intervals, waits for the worker's report, and reads every reliability cell's exact values. */
async function reliabilityCells(browser: Browser, origin: string): Promise<{cells: PageCell[]; options: string | null}> {
  const page: Page = await browser.newPage({viewport: {width: 1440, height: 900}});
  await page.goto(`${origin}/agreement`, {waitUntil: "load"});
  await page.getByRole("button", {name: /^Compute intervals/}).click({timeout: 300_000});
  await page.getByTestId("reliability-progress").filter({hasText: "Bootstrap done"}).waitFor({timeout: 300_000});
  const cells = await readCells(page);
  const options = await page.getByTestId("reliability-options").textContent();
  await page.close();
  return {cells, options};
}

/** Holds every page cell to the CLI row's value (and bounds, unless `bounds` is false) to 1e-9; returns how many were compared. */
function compareWithCli(cells: readonly PageCell[], cli: readonly Record<string, unknown>[], {bounds = true} = {}): number {
  const byId = new Map(cells.map((c) => [c.id, c]));
  let compared = 0;
  for (const row of cli) {
    const who = row.comparison === "among annotators" ? "annotators" : row.a as string;
    for (const [cell, column] of Object.entries(who === "annotators" ? ANNOTATOR_CELLS : JUDGE_CELLS)) {
      const id = `rel-${cell}-${row.dimension}-${who}`;
      const shown = byId.get(id);
      expect(shown, id).toBeDefined();
      const expected = row[column] as number | string;
      // reportedP prints an underflowed p as "< 1e-300"; the page keeps the 0 itself.
      const value = typeof expected === "string" ? 0 : expected;
      expect(Math.abs(Number(shown!.value) - value), id).toBeLessThanOrEqual(1e-9);
      if (bounds && shown!.lo !== null && `${column}_lo` in row) {
        expect(Math.abs(Number(shown!.lo) - (row[`${column}_lo`] as number)), `${id} lo`).toBeLessThanOrEqual(1e-9);
        expect(Math.abs(Number(shown!.hi) - (row[`${column}_hi`] as number)), `${id} hi`).toBeLessThanOrEqual(1e-9);
      }
      compared++;
    }
  }
  return compared;
}

describeUnless(browserTestsOff() ?? FIXTURES_MISSING, "the reliability section on the real Sotopia-π annotations", () => {
  let browser: Browser;
  let site: {origin: string; close(): Promise<void>};
  let cli: Record<string, unknown>[];

  beforeAll(async () => {
    browser = await launchBrowser();
    const {store: storePath, dist} = await sharedSite("fixtures");
    cli = await reliabilityReport(storePath);
    site = await serveStatic(dist);
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("shows alpha, ICC and AC1 among the human annotators per dimension, as the CLI does", async () => {
    const {cells} = await reliabilityCells(browser, site.origin);
    // No LLM rater scores these episodes: seven annotator rows, no judge rows.
    expect(cli.every((r) => r.comparison === "among annotators")).toBe(true);
    expect(compareWithCli(cells, cli)).toBe(7 * Object.keys(ANNOTATOR_CELLS).length);
  }, 600_000);
});
