// The agreement page's reliability section against `sociometer report
// reliability` on the bundled samples: built site, Chromium, the same
// default options and seed; every statistic, bound and adjusted p on the page
// equal to the CLI's to 1e-9, computed in the page's worker.

import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Browser} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {getReport} from "../../loaders/cli/reports.js";
import {importSamples} from "../../loaders/samples.js";
import {openStore} from "../../loaders/store/db.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {buildSite, serveStatic} from "./helpers.js";

/** Page cell id → CLI column, for a judge row and for the annotators' row. */
const JUDGE_CELLS: Record<string, string> = {alpha: "alpha", icc: "icc", kappa: "kappa", ac1: "ac1", r: "r", rho: "rho", bias: "ba_bias", "icc-p": "icc_p_adj", "slope-p": "ba_slope_p_adj"};
const ANNOTATOR_CELLS: Record<string, string> = {alpha: "alpha", icc: "icc", ac1: "ac1", fleiss: "fleiss", "icc-p": "icc_p_adj"};

describeUnless(browserTestsOff(), "the reliability section of the agreement page", () => {
  let dir: string;
  let browser: Browser;
  let site: {origin: string; close(): Promise<void>};
  let cli: Record<string, unknown>[];

  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), "sociometer-reliability-"));
    const storePath = join(dir, "samples.duckdb");
    const store = await openStore(storePath);
    try {
      await importSamples(store);
      cli = (await getReport("reliability").run(store, {})).rows;
    } finally {
      store.close();
    }
    // Up to ten minutes: one build on a 2-core machine shared with other builds took more than runNpx's default four.
    const {dist} = await buildSite(storePath, join(dir, "site"), {}, 600_000);
    site = await serveStatic(dist);
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it("shows the CLI's numbers to 1e-9 with the same seed, after a progress note from the worker", async () => {
    const page = await browser.newPage({viewport: {width: 1440, height: 900}});
    await page.goto(`${site.origin}/agreement`, {waitUntil: "load"});
    await page.getByTestId("reliability-progress").filter({hasText: "Bootstrap done"}).waitFor({timeout: 300_000});
    const cells = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>("[data-testid^='rel-']"), (td) =>
      ({id: td.dataset.testid!, value: td.dataset.value ?? null, lo: td.dataset.lo ?? null, hi: td.dataset.hi ?? null})));
    const options = await page.getByTestId("reliability-options").textContent();
    await page.close();
    expect(options).toContain("95% percentile bootstrap over episodes, 1,000 resamples, seed 1");

    // Rows: gpt-4 against the mean of the annotators, and the annotators, on seven dimensions.
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
        if (shown!.lo !== null && `${column}_lo` in row) {
          expect(Math.abs(Number(shown!.lo) - (row[`${column}_lo`] as number)), `${id} lo`).toBeLessThanOrEqual(1e-9);
          expect(Math.abs(Number(shown!.hi) - (row[`${column}_hi`] as number)), `${id} hi`).toBeLessThanOrEqual(1e-9);
        }
        compared++;
      }
    }
    expect(compared).toBe(7 * (Object.keys(JUDGE_CELLS).length + Object.keys(ANNOTATOR_CELLS).length));
  }, 600_000);
});
