// The agreement page's Disagreements section against `sociometer report
// disagreements` on the bundled samples: the page's default pair and the
// annotators among themselves, row by row and cell by cell, and the links to
// the transcripts.

import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {FIXTURES_MISSING} from "../helpers/fixtures.js";
import {describeUnless} from "../helpers/skips.js";
import {cli} from "../helpers/cli.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {serveStatic} from "./helpers.js";
import {sharedSite} from "./sites.js";

/** The table's cells by their CLI column, as text. */
async function pageRows(page: Page): Promise<{cells: Record<string, string>; href: string}[]> {
  const table = page.getByTestId("disagreements-table");
  await table.waitFor({timeout: 300_000});
  return table.evaluate((t) => Array.from(t.querySelectorAll("tbody tr"), (tr) => ({
    cells: Object.fromEntries(Array.from(tr.querySelectorAll("td"), (td) => [(td as HTMLElement).dataset.col!, td.textContent ?? ""])),
    href: tr.querySelector("a")?.getAttribute("href") ?? "",
  })));
}

/** The CLI's rows as the page prints them: numbers to at most three decimals, blanks for nulls. */
const asText = (rows: Record<string, unknown>[]): Record<string, string>[] =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? "" : typeof v === "number" ? String(Number(v.toFixed(3))) : String(v)])));

describeUnless(browserTestsOff(), "the Disagreements section of the agreement page", () => {
  let browser: Browser;
  let site: {origin: string; close(): Promise<void>};
  let db: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    const {store, dist} = await sharedSite("samples");
    db = store;
    site = await serveStatic(dist);
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const report = async (args: string[]) => {
    const out = await cli(["report", "disagreements", "--db", db, "--format", "json", ...args]);
    expect(out.code).toBe(0);
    return asText(JSON.parse(out.stdout).rows);
  };

  it("opens on gpt-4 against the annotators' mean, every dimension, with the CLI's top 20 rows and links to the transcripts", async () => {
    const page = await browser.newPage({viewport: {width: 1440, height: 900}});
    await page.goto(`${site.origin}/agreement`, {waitUntil: "load"});
    const rows = await pageRows(page);
    // gpt-4 covers 1,176 instances beside the annotators; no other pair covers more, and the first listed wins the tie with "each other".
    expect(await page.getByTestId("disagreements-note").textContent()).toBe("The 20 widest of 1,176 instances both scored.");
    const want = await report(["--rater", "gpt-4", "--against", "humans"]);
    expect(want).toHaveLength(20);
    expect(rows.map((r) => r.cells)).toEqual(want);
    expect(rows.map((r) => r.href)).toEqual(want.map((r) => `episodes?episode=${encodeURIComponent(r.episode_id!)}`));
    // Rationales are text: a rationale's markup would show as characters, and the table holds no element from the logs.
    expect(await page.getByTestId("disagreements-table").locator("td.rationale *").count()).toBe(0);
    await page.close();
  }, 600_000);

  it("the annotators among themselves on GOAL equal `--rater humans --dimension goal`", async () => {
    const page = await browser.newPage({viewport: {width: 1440, height: 900}});
    await page.goto(`${site.origin}/agreement`, {waitUntil: "load"});
    await pageRows(page);
    await page.getByLabel("Disagreeing side (A)").selectOption({label: "mean of human annotators"});
    await page.getByLabel("Against (B)").selectOption({label: "each other (the annotators among themselves)"});
    await page.getByLabel("On dimension").selectOption({label: "Goal completion"});
    const want = await report(["--rater", "humans", "--dimension", "goal"]);
    expect(want.length).toBeGreaterThan(0);
    // Each pick redraws the table: wait for the last one's rows.
    await expect.poll(async () => (await pageRows(page)).map((r) => r.cells), {timeout: 60_000}).toEqual(want);
    expect(await page.getByTestId("disagreements-note").textContent()).toMatch(/^The \d+ widest of [\d,]+ instances two or more annotators scored\.$/);
    await page.close();
  }, 600_000);

  it("with an annotator as A, the perceived-range sentence counts the instances with two or more annotators besides A (issue 33, item 7)", async () => {
    const page = await browser.newPage({viewport: {width: 1440, height: 900}});
    await page.goto(`${site.origin}/agreement`, {waitUntil: "load"});
    await page.getByTestId("ranges-note").waitFor({timeout: 300_000});
    const raterA = page.getByLabel("Rater A", {exact: true});
    const option = (await raterA.locator("option", {hasText: "annotator-03 ("}).textContent())!;
    await raterA.selectOption({label: option});
    await expect.poll(async () => (await page.getByTestId("ranges-note").textContent()) ?? "", {timeout: 120_000})
      .toMatch(/^Goal completion \(GOAL\), A = annotator-03: of \d+ instances with two or more human annotators besides annotator-03 \(A\), /);
    await page.close();
  }, 600_000);
});

describeUnless(browserTestsOff() ?? FIXTURES_MISSING, "the Disagreements section on the real Sotopia-π annotations", () => {
  let browser: Browser;
  let site: {origin: string; close(): Promise<void>};
  let db: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    const {store, dist} = await sharedSite("fixtures");
    db = store;
    site = await serveStatic(dist);
  }, 1_200_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("opens where the CLI does with no --rater, on the annotators among themselves, and says the model columns repeat all", async () => {
    const page = await browser.newPage({viewport: {width: 1440, height: 900}});
    await page.goto(`${site.origin}/agreement`, {waitUntil: "load"});
    const rows = await pageRows(page);
    const out = await cli(["report", "disagreements", "--db", db, "--format", "json"]);
    expect(out.code).toBe(0);
    const cliTable = JSON.parse(out.stdout) as {title: string; rows: Record<string, unknown>[]};
    expect(cliTable.title).toBe("Disagreements among the human annotators: the instances they spread widest on (every dimension)");
    expect(rows.map((r) => r.cells)).toEqual(asText(cliTable.rows));
    // No LLM rater scored the annotated episodes; sotopia-rl's are scored by gpt-4 alone, so nothing pairs with it.
    expect(await page.getByLabel("Disagreeing side (A)").locator("option").allTextContents()).not.toContain("gpt-4");
    // Every rated agent of the Sotopia-π study was played by a model.
    await expect.poll(async () => (await page.getByTestId("agreement-table").locator("xpath=..").textContent()) ?? "", {timeout: 120_000})
      .toContain("No person played a rated agent in these instances");
    await page.close();
  }, 600_000);
});
