// The built site, end to end: build it against a store filled through the CLI,
// serve it from loopback, open every page in Chromium, and check that nothing
// leaves the machine, nothing fails, numbers match the CLI report, and text
// from logs cannot run as markup.

import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Browser} from "playwright-core";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {buildSite, cellErrors, findChromium, launchBrowser, runCli, serveStatic, watchedContext} from "./helpers.js";

const CHROMIUM = findChromium();
if (!CHROMIUM && process.env.CI) throw new Error("CI is set but Debian's chromium is not installed (apt-get install chromium)");
if (!CHROMIUM) console.warn("SKIPPING browser tests: no `chromium` on PATH (apt-get install chromium)");
const describeBrowser = CHROMIUM ? describeWithFixtures : describe.skip;

const SOTOPIA_FIXTURE = fixture("sotopia-lab__sotopia-rl", "example_episodes.jsonl");

/** Markup in log text that must show up as literal text, never run. */
const IMG_PAYLOAD = "<img src=x onerror=window.__pwned=1>";
const SCRIPT_PAYLOAD = "<script>window.__pwned=2</script>";
// Sorts before every other id, so it is among the episodes the viewer ships.
const XSS_EPISODE = "00-xss-episode";
/** Filler episodes that take the store past the viewer's limit of 5,000 SOTOPIA episodes, to 5,001. */
const FILLER = 5001 - 20 - 1;

/** One episode whose every free-text field carries markup. */
function xssRecord() {
  const a = "Ada Lane";
  const b = "Bo Chen";
  return dumpRecord(XSS_EPISODE, {
    scenario: `A scenario with ${SCRIPT_PAYLOAD} inside`,
    codename: "xss_probe",
    raw_messages: [
      [["Environment", a, "Scenario: a probe"], ["Environment", b, "Scenario: a probe"], [a, "Environment", `said: "${IMG_PAYLOAD}"`], [b, "Environment", `said: "${SCRIPT_PAYLOAD}"`]],
      [["Environment", a, "Turn #1"], ["Environment", b, "Turn #1"], [a, "Environment", "left the conversation"], [b, "Environment", "did nothing"]],
    ],
    social_goals: {[a]: `Goal ${IMG_PAYLOAD}`, [b]: "Keep the window seat"},
    reasoning: `Environment comments: none\nAgent 1 comments:\nbelievability: ${IMG_PAYLOAD}\ngoal: got it\nAgent 2 comments:\nbelievability: ${SCRIPT_PAYLOAD}\n`,
  });
}

interface ReportRow {
  model: string;
  dimension: string;
  n: number;
  mean: number;
  sd: number;
  /** "*" (best, significantly), "yes" (best) or "". */
  best: string;
}

/** What each page shows once its data is loaded. */
const PAGES: Record<string, string> = {
  "/": "main form table",
  "/sotopia": "[data-testid=sotopia-means] tbody tr",
  "/episodes": "[data-testid=transcript]",
};

describeBrowser("the built site", () => {
  let dir: string;
  let origin: string;
  let closeServer: () => Promise<void>;
  let browser: Browser;
  let report: {notes: string[]; rows: ReportRow[]};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sociometer-site-"));
    const store = join(dir, "site.duckdb");
    const xss = join(dir, "xss.jsonl");
    const filler = join(dir, "filler.jsonl");
    writeFileSync(xss, jsonl([xssRecord()]));
    writeFileSync(filler, jsonl(Array.from({length: FILLER}, (_, i) => dumpRecord(`ep-${String(i).padStart(5, "0")}`))));
    await runCli(["import", "sotopia", SOTOPIA_FIXTURE, xss, filler, "--db", store, "--quiet"]);
    report = JSON.parse((await runCli(["report", "sotopia", "--format", "json", "--db", store])).stdout);
    const build = await buildSite(store, dir);
    console.log(`site built in ${(build.ms / 1000).toFixed(1)} s`);
    const server = await serveStatic(build.dist);
    origin = server.origin;
    closeServer = server.close;
    browser = await launchBrowser(CHROMIUM!);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer?.();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it("opens every page with no console error, uncaught exception, failed cell or request off the machine", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      for (const [path, ready] of Object.entries(PAGES)) {
        const start = performance.now();
        const page = await open(origin + path);
        await page.locator(ready).first().waitFor({timeout: 30_000});
        console.log(`${path} ready in ${Math.round(performance.now() - start)} ms`);
        expect(await cellErrors(page), `cell errors on ${path}`).toEqual([]);
      }
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 120_000);

  it("shows the same SOTOPIA means, sds, ns and best-model marks as `sociometer report sotopia`", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/sotopia`);
      await page.locator(PAGES["/sotopia"]).first().waitFor({timeout: 30_000});
      expect(report.rows.length).toBeGreaterThan(0);
      for (const row of report.rows) {
        const cell = (stat: string) => page.getByTestId(`${stat}-${row.model}-${row.dimension}`);
        const mean = cell("mean");
        expect(Number(await mean.getAttribute("data-value")), `${row.model} ${row.dimension}`).toBeCloseTo(row.mean, 10);
        expect(await mean.locator(".value").textContent()).toBe(row.mean.toFixed(2));
        expect((await mean.getAttribute("data-best")) ?? "", `best mark of ${row.model} ${row.dimension}`).toBe(row.best);
        expect(Number(await cell("sd").getAttribute("data-value"))).toBeCloseTo(row.sd, 10);
        expect(Number(await cell("n").getAttribute("data-value"))).toBe(row.n);
      }
      // The page names the rater the numbers come from: the one the CLI chose by default.
      const rater = /rater: (\S+)/.exec(report.notes.join("\n"))?.[1];
      expect(rater).toBeTruthy();
      expect(await page.getByTestId("rater-note").textContent()).toContain(`Scores by ${rater} `);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows markup from logs as literal text in the episode viewer, and never runs it", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/episodes?episode=${XSS_EPISODE}`);
      const transcript = page.getByTestId("transcript");
      await transcript.waitFor({timeout: 30_000});
      await expect.poll(() => page.getByTestId("episode-header").textContent()).toContain(XSS_EPISODE);
      const text = await transcript.textContent();
      expect(text).toContain(IMG_PAYLOAD);
      expect(text).toContain(SCRIPT_PAYLOAD);
      expect(await page.getByTestId("episode-header").textContent()).toContain(SCRIPT_PAYLOAD);
      const ratings = (await page.locator(".agent-ratings").allTextContents()).join("\n");
      expect(ratings).toContain(IMG_PAYLOAD);
      expect(ratings).toContain(SCRIPT_PAYLOAD);
      // 5,001 episodes in the store, 5,000 shipped, and the page says so.
      expect(await page.getByTestId("episode-count").textContent()).toContain("Showing 5,000 of 5,001 SOTOPIA episodes");
      // No element was made from the payloads, and an image error (were there one) has had time to fire.
      expect(await page.locator("main img, main script").count()).toBe(0);
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as {__pwned?: unknown}).__pwned)).toBeUndefined();

      // The search box and the episode table treat the text the same way.
      await page.locator("main input[type=search]").fill("xss_probe");
      await expect.poll(() => page.locator("main form table tbody").textContent()).toContain(XSS_EPISODE);
      expect(await page.evaluate(() => (window as {__pwned?: unknown}).__pwned)).toBeUndefined();
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);
});
