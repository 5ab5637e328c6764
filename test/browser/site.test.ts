// The built site, end to end: build it against a store filled through the CLI,
// serve it from loopback, open every page in Chromium, and check that nothing
// leaves the machine, nothing fails, numbers match the CLI reports, and text
// from logs cannot run as markup. One build serves every test.

import {existsSync, mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {fixture, FIXTURES_MISSING} from "../helpers/fixtures.js";
import {describeUnless} from "../helpers/skips.js";
import {checkAuditPage} from "./audit-page.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {
  buildSite, cellErrors, humanRatingsCsv, REPO, runCli, serveStatic, watchedContext, type InstanceScore,
} from "./helpers.js";

const SOTOPIA_FIXTURE = fixture("sotopia-lab__sotopia-rl", "example_episodes.jsonl");
/** The sample LIFELONG-SOTOPIA chains (with human checkpoint labels) and HSII runs (with COT rounds). */
const LIFELONG_SAMPLE = join(REPO, "data", "samples", "lifelong", "chains.jsonl");
const HSII_SAMPLE = join(REPO, "data", "samples", "hsii", "runs.jsonl");
/** The sample STSS task definitions, conversation runs and simulation runs, in import order. */
const STSS_SAMPLES: [string, string][] = [["stss-tasks", "tasks.json"], ["stss", "conversations.jsonl"], ["stss-action", "actions.jsonl"]];
/** The sample InformativeBench schedules and results, and a record with markup in its question, prediction and gold (see ibXssFile). */
const IB_SAMPLES: [string, string][] = [["informativebench-schedules", "schedules.jsonl"], ["informativebench", "results.jsonl"]]
  .map(([format, file]) => [format!, join(REPO, "data", "samples", "informativebench", file!)]);
const IB_XSS_QUESTION = "00-xss-question";
/** Writes one InformativeBench record whose texts carry markup into `dir`, for the import in beforeAll. */
function ibXssFile(dir: string): [string, string] {
  const file = join(dir, "ib-xss.jsonl");
  writeFileSync(file, jsonl([{model: "gpt-4-0125-preview", dataset: "NP", question_id: IB_XSS_QUESTION, question: `Who wrote ${IMG_PAYLOAD}?`,
    prediction: `${SCRIPT_PAYLOAD} Bob`, gold: `Dave ${IMG_PAYLOAD}`, synthetic: true}]));
  return ["informativebench", file];
}

/** A LIFELONG-SOTOPIA episode whose texts carry markup (its own model, so no sample chain changes), for the viewer. */
const LIFELONG_XSS_EPISODE = "00-xss-lifelong";
function lifelongXssFile(dir: string): string {
  const file = join(dir, "lifelong-xss.jsonl");
  writeFileSync(file, jsonl([{
    episode_id: LIFELONG_XSS_EPISODE, chain_id: "xss-chain", chain_index: 1, memory_mode: "full", scenario: `Markup ${SCRIPT_PAYLOAD} in a chain`, synthetic: true,
    agents: [{model: "xss-model", character: "Ana Ferreira", goal: `Goal ${IMG_PAYLOAD}`}, {model: "xss-model", character: "Ben Okoye", goal: "Agree"}],
    messages: [{agent: 1, content: `said ${IMG_PAYLOAD}`}, {agent: 2, content: `said ${SCRIPT_PAYLOAD}`}],
    ratings: [{agent: 1, rater: "gpt-4", scores: {believability: 7, goal: 3}, rationales: {goal: `because ${IMG_PAYLOAD}`}}],
  }]));
  return file;
}

/** Markup in log text that must show up as literal text, never run. */
const IMG_PAYLOAD = "<img src=x onerror=window.__pwned=1>";
const SCRIPT_PAYLOAD = "<script>window.__pwned=2</script>";
// Sorts before every other id, so it is among the episodes the viewer lists at first.
const XSS_EPISODE = "00-xss-episode";
/** Episodes of one task where a person (model `human`) plays seat 1 against gpt-4, judged by gpt-4. */
const HUMAN_PLAYED = 12;
/** Filler episodes that take the store past the viewer's default list of 5,000 SOTOPIA episodes, to 5,001. */
const FILLER = 5001 - 20 - 1 - HUMAN_PLAYED;
/** A human annotator whose name is markup: rater names reach menus and sentences. */
const XSS_RATER = "<img src=x onerror=window.__pwned=3>";

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

/**
 * Scores that vary with the episode, seat and dimension, in range, for the
 * human-played episodes; except that the judge gives every person 0 on
 * `secret`, so that correlation is undefined ("n/a") for agents played by humans.
 */
function variedScores(i: number, seat: number): Record<string, number> {
  return Object.fromEntries(SOTOPIA_DIMENSIONS.map((d, k) => [
    d.key,
    d.key === "secret" && seat === 1 ? 0 : d.lo + ((i * 3 + seat * 5 + k * 7 + ((i * i) % 5)) % (d.hi - d.lo + 1)),
  ]));
}

/** HUMAN_PLAYED episodes of one task (so SOTOPIA-hard has a task with repeated episodes): `human` vs gpt-4. */
function humanPlayedRecords() {
  return Array.from({length: HUMAN_PLAYED}, (_, i) => {
    const scores = [variedScores(i, 1), variedScores(i, 2)];
    const overall = (s: Record<string, number>) => Object.values(s).reduce((x, y) => x + y, 0) / 7;
    return dumpRecord(`hp-${String(i).padStart(2, "0")}`, {
      environment_id: "env-hp",
      agent_ids: ["p-hana", "p-gus"],
      experiment_model_name_pairs: ["gpt-4", "human", "gpt-4"],
      raw_rewards: scores.map((s) => [overall(s), {...s, overall_score: overall(s)}]),
    });
  });
}

/** gpt-4's scores in the store: what the human annotators' scores are made near. */
async function judgeScores(storePath: string): Promise<InstanceScore[]> {
  const store = await openStore(storePath, {readOnly: true});
  try {
    return await rows<InstanceScore>(store.conn, "SELECT episode_id, agent, dimension, value FROM ratings WHERE rater = 'gpt-4' ORDER BY ALL");
  } finally {
    store.close();
  }
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

/** One row of `report agreement --format json`: NaN statistics come as null. */
interface AgreementReportRow {
  dimension: string;
  played_by: string;
  n: number;
  r: number | null;
  kappa_humans: number | null;
  within_1sd: number | null;
}

/** What each page shows once its data is loaded: every one must appear. */
const PAGES: Record<string, string[]> = {
  "/": ["main form table"],
  "/sotopia": [
    "[data-testid=sotopia-means] tbody tr",
    "[data-testid=pair-matrix-table] tbody tr",
    "[data-testid=hard-note]",
    "[data-testid=hard-sotopia-means] tbody tr",
    "[data-testid=reference-comparison] tbody tr",
    "[data-testid=words-per-turn] tbody tr",
    ".vega-chart svg",
  ],
  "/agreement": [
    "[data-testid=agreement-table] tbody tr",
    "[data-testid=trust-summary] li",
    "[data-testid=differences-table] tbody tr",
    "[data-testid=kappa-table] tbody tr",
    ".vega-chart svg",
  ],
  "/episodes": ["[data-testid=transcript]"],
  "/explorer": ["[data-testid=explorer-tables] tbody tr", "[data-testid=browser-table] tbody tr"],
  "/lifelong": [
    "[data-testid=curve-table] tbody tr",
    "[data-testid=range-table] tbody tr",
    "[data-testid=belext-table] tbody tr",
    ".vega-chart svg",
  ],
  "/hsii": [
    "[data-testid=hsii-table] tbody tr",
    "[data-testid=bias-table] tbody tr",
    "[data-testid=cot-table] tbody tr",
    ".vega-chart svg",
  ],
  "/stss": ["[data-testid=stss-t3-table] tbody tr", "[data-testid=stss-table4] tbody tr", ".vega-chart svg"],
  "/informativebench": ["[data-testid=ib-table3] tbody tr", "[data-testid=ib-ablations] tbody tr", "[data-testid=ib-infonav] tbody tr", ".vega-chart svg"],
  "/audit": ["[data-testid=audit-lifelong-table-1-0-sentence]", "[data-testid=audit-own-result-0-sentence]"],
};

/** One row of `report lifelong --format json` (NaN comes as null). */
interface LifelongReportRow {
  model: string;
  memory: string;
  index: number;
  n: number;
  bel: number | null;
  bel_low: number | null;
  bel_high: number | null;
  goal: number | null;
  goal_low: number | null;
  goal_high: number | null;
  bel_checklisted: number | null;
  penalised_bel: number | null;
  penalised_n: number;
}

/** One row of `report belext --format json`. */
type BelextReportRow = {checklist: string; checkpoint: string} & Record<"n" | "tp" | "fp" | "tn" | "fn", number> & Record<"precision" | "recall" | "f1", number | null>;

/** One row of `report hsii --format json`. */
type HsiiReportRow = {model: string} & Record<"n" | "n1" | "n2" | "r1" | "r2" | "abs_target" | "r3" | "r4" | "hsii", number | null>;

/** Every data-testid under `prefix` on the page with its data-value, in one round trip. */
function testValues(page: Page, prefix: string): Promise<Record<string, string | null>> {
  return page.evaluate((p) => Object.fromEntries([...document.querySelectorAll(`[data-testid^="${p}"]`)]
    .map((e) => [e.getAttribute("data-testid"), e.getAttribute("data-value")])), prefix);
}

/** A shown value against the CLI's: null (NaN in JSON) must show as NaN; numbers within 1e-9. */
function expectSame(shown: string | null | undefined, expected: number | null, where: string): void {
  expect(shown, `${where} is on the page`).not.toBeUndefined();
  if (expected === null) expect(Number(shown), where).toBeNaN();
  else expect(Math.abs(Number(shown) - expected), `${where}: page ${shown}, CLI ${expected}`).toBeLessThanOrEqual(1e-9);
}

/** Waits until every marker of a page is there (some sit in closed <details>: attached, not visible). */
async function ready(page: Page, path: string): Promise<void> {
  for (const selector of PAGES[path]) await page.locator(selector).first().waitFor({state: "attached", timeout: 30_000});
}

/** Picks the option of a labelled Inputs.select whose text starts with `prefix`. */
async function choose(page: Page, label: string, prefix: string): Promise<void> {
  const select = page.getByLabel(label, {exact: true});
  const options = await select.locator("option").allTextContents();
  const option = options.find((o) => o.startsWith(prefix));
  expect(option, `an option of ${label} starting with ${prefix} among ${options.join(" | ")}`).toBeTruthy();
  await select.selectOption({label: option!});
}

describeUnless(browserTestsOff() ?? FIXTURES_MISSING, "the built site", () => {
  let dir: string;
  let origin: string;
  let dist: string;
  let closeServer: () => Promise<void>;
  let browser: Browser;
  let report: {notes: string[]; rows: ReportRow[]};
  let hardReport: {notes: string[]; rows: ReportRow[]};
  let humansReport: {notes: string[]; rows: ReportRow[]};
  let hardTasks: {notes: string[]; rows: {task: string; task_id: string; difficulty: number}[]};
  let agreement: {notes: string[]; rows: AgreementReportRow[]};
  let agreementOther: {notes: string[]; rows: AgreementReportRow[]};
  let lifelong: {notes: string[]; rows: LifelongReportRow[]};
  let lifelongCi: {notes: string[]; rows: LifelongReportRow[]};
  let belext: {notes: string[]; rows: BelextReportRow[]};
  let belextPass: {notes: string[]; rows: BelextReportRow[]};
  let hsii: {notes: string[]; rows: HsiiReportRow[]};
  let hsiiAlpha: {notes: string[]; rows: HsiiReportRow[]};
  let cot: {notes: string[]; rows: {model: string; runs: number; complexity: number; success_with_cot: number}[]};

  beforeAll(async () => {
    // First, so a missing browser fails in seconds rather than after the build.
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), "sociometer-site-"));
    const store = join(dir, "site.duckdb");
    const xss = join(dir, "xss.jsonl");
    const filler = join(dir, "filler.jsonl");
    const humanPlayed = join(dir, "human-played.jsonl");
    const humanRatings = join(dir, "human_ratings.csv");
    writeFileSync(xss, jsonl([xssRecord()]));
    writeFileSync(filler, jsonl(Array.from({length: FILLER}, (_, i) => dumpRecord(`ep-${String(i).padStart(5, "0")}`))));
    writeFileSync(humanPlayed, jsonl(humanPlayedRecords()));
    await runCli(["import", "sotopia", SOTOPIA_FIXTURE, xss, filler, humanPlayed, "--db", store, "--quiet"]);
    // Two annotators on every episode gpt-4 judged (the fixture's 20 and the 12 human-played), a third on every third.
    writeFileSync(humanRatings, humanRatingsCsv(await judgeScores(store), [
      {name: "annotator-01", offset: 0},
      {name: "annotator-02", offset: -1},
      {name: XSS_RATER, offset: 1, every: 3},
    ]));
    await runCli(["import", "sotopia-ratings", humanRatings, "--db", store, "--quiet"]);
    await runCli(["import", "lifelong", LIFELONG_SAMPLE, lifelongXssFile(dir), "--db", store, "--quiet"]);
    await runCli(["import", "hsii", HSII_SAMPLE, "--db", store, "--quiet"]);
    for (const [format, file] of STSS_SAMPLES) await runCli(["import", format, join(REPO, "data", "samples", "stss", file), "--db", store, "--quiet"]);
    for (const [format, file] of [...IB_SAMPLES, ibXssFile(dir)]) await runCli(["import", format, file, "--db", store, "--quiet"]);
    // The reports open the store read-only, so they run while the site builds from it.
    const json = async (args: string[]) => JSON.parse((await runCli(["report", ...args, "--format", "json", "--db", store])).stdout);
    const [build, ...reports] = await Promise.all([
      buildSite(store, dir),
      json(["sotopia"]),
      json(["sotopia", "--rater", "gpt-4", "--hard-target", "gpt-4"]),
      json(["sotopia-hard", "--rater", "gpt-4", "--hard-target", "gpt-4"]),
      json(["agreement"]),
      json(["agreement", "--bins", "3", "--basis", "annotators"]),
      json(["sotopia", "--rater", "humans"]),
      json(["lifelong"]),
      json(["lifelong", "--band", "ci95", "--variance", "population"]),
      json(["belext"]),
      json(["belext", "--positive", "pass"]),
      json(["hsii"]),
      json(["hsii", "--alpha", "0.5"]),
      json(["cot"]),
    ]);
    [report, hardReport, hardTasks, agreement, agreementOther, humansReport, lifelong, lifelongCi, belext, belextPass, hsii, hsiiAlpha, cot] = reports;
    console.log(`site built in ${(build.ms / 1000).toFixed(1)} s`);
    dist = build.dist;
    const server = await serveStatic(build.dist);
    origin = server.origin;
    closeServer = server.close;
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer?.();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it("links every page by its .html file, so a plain static server (no /page → page.html mapping) serves the site", async () => {
    const {context, open} = await watchedContext(browser);
    try {
      const page = await open(origin + "/");
      const hrefs = await page.$$eval("#observablehq-sidebar a[href]", (as) => as.map((a) => a.getAttribute("href")!));
      expect(hrefs.length).toBeGreaterThanOrEqual(Object.keys(PAGES).length);
      for (const href of hrefs) {
        expect(href, "a sidebar link").toMatch(/^\.\/(index|[a-z-]+)\.html$|^\.\/$/);
        if (href !== "./") expect(existsSync(join(dist, href)), `${href} exists in dist/`).toBe(true);
      }
    } finally {
      await context.close();
    }
  });

  /** Rows of a query over the site's store (read-only), for what a page should show. */
  async function storeRows<T>(sql: string): Promise<T[]> {
    const store = await openStore(join(dir, "site.duckdb"), {readOnly: true});
    try {
      return await rows<T>(store.conn, sql);
    } finally {
      store.close();
    }
  }

  it("opens every page with no console error, uncaught exception, failed cell or request off the machine", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      for (const path of Object.keys(PAGES)) {
        const start = performance.now();
        const page = await open(origin + path);
        await ready(page, path);
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
      await ready(page, "/sotopia");
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
      // The heatmap's colours span the means shown by default, the dimension's range on request; the note says which.
      expect(await page.getByTestId("matrix-note").textContent()).toContain("Colours span the means shown, ");
      await page.getByLabel("the dimension's full range").check();
      await expect.poll(() => page.getByTestId("matrix-note").textContent()).toContain("Colours span the dimension's full range [");
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("offers every rater and the mean of human annotators, and recomputes the means on the SOTOPIA-hard tasks, as the CLI does", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/sotopia`);
      await ready(page, "/sotopia");
      // LLM judges and human annotators alike, names shown as text.
      const raters = await page.getByLabel("Rater", {exact: true}).locator("option").allTextContents();
      for (const name of ["judge-x", "gpt-4", "mean of human annotators", "annotator-01", "annotator-02", XSS_RATER]) {
        expect(raters.some((o) => o.startsWith(`${name} (`)), `${name} among ${raters.join(" | ")}`).toBe(true);
      }
      // The mean of human annotators gives `report sotopia --rater humans`.
      await choose(page, "Rater", "mean of human annotators (");
      await expect.poll(() => page.getByTestId("rater-note").textContent()).toContain("Scores by mean of human annotators");
      expect(humansReport.rows.length).toBeGreaterThan(0);
      for (const row of humansReport.rows) {
        const mean = page.getByTestId(`mean-${row.model}-${row.dimension}`);
        expect(Number(await mean.getAttribute("data-value")), `humans: ${row.model} ${row.dimension}`).toBeCloseTo(row.mean, 9);
        expect((await mean.getAttribute("data-best")) ?? "", `humans: best mark of ${row.model} ${row.dimension}`).toBe(row.best);
        expect(Number(await page.getByTestId(`n-${row.model}-${row.dimension}`).getAttribute("data-value"))).toBe(row.n);
      }

      await choose(page, "Rater", "gpt-4 (");
      await expect.poll(() => page.getByTestId("hard-note").textContent()).toContain("Scores by gpt-4.");
      await choose(page, "Target model", "gpt-4");
      await expect.poll(() => page.getByTestId("hard-note").textContent()).toContain("SOTOPIA-hard for target model gpt-4: the 20 hardest");

      // The same tasks as `report sotopia-hard`, the same skipped count, the options stated.
      const note = (await page.getByTestId("hard-note").textContent()) ?? "";
      // The human-played task, and the fixture's self-play tasks (two gpt-4 agents in one episode); the rest are skipped.
      expect(hardTasks.rows.length).toBeGreaterThan(0);
      expect(note).toContain(`${hardTasks.rows.length} task(s) selected`);
      expect(note).toContain('upper bound rule "max"');
      expect(note).toContain("Goal completion (GOAL)");
      const skipped = Number(/(\d+) task\(s\) skipped/.exec(hardTasks.notes.join("\n"))?.[1]);
      expect(skipped).toBeGreaterThan(0);
      expect(note).toContain(skipped === 1 ? "1 task was skipped" : `${skipped} tasks were skipped`);
      // The CLI's notes on fewer-than-N and saturation appear on the page as sentences.
      for (const line of hardTasks.notes.filter((n) => /^(only \d+ task|\d+ task\(s\) tie at the bound|the cut at N)/.test(n))) {
        expect(note).toContain(`${line[0]!.toUpperCase()}${line.slice(1)}.`);
      }
      expect(hardTasks.notes.some((n) => n.startsWith("only "))).toBe(true);
      for (const [i, task] of hardTasks.rows.entries()) {
        expect(Number(await page.getByTestId(`hard-difficulty-${i}`).getAttribute("data-value")), task.task_id).toBeCloseTo(task.difficulty, 9);
        // Named as the CLI names it (codename: characters), the id under the name.
        expect(await page.getByTestId(`hard-task-${i}`).textContent()).toBe(task.task + task.task_id);
      }

      // The means on those tasks' episodes only.
      expect(hardReport.rows.length).toBeGreaterThan(0);
      for (const row of hardReport.rows) {
        const mean = page.getByTestId(`hard-mean-${row.model}-${row.dimension}`);
        expect(Number(await mean.getAttribute("data-value")), `${row.model} ${row.dimension}`).toBeCloseTo(row.mean, 9);
        expect((await mean.getAttribute("data-best")) ?? "", `best mark of ${row.model} ${row.dimension}`).toBe(row.best);
        expect(Number(await page.getByTestId(`hard-n-${row.model}-${row.dimension}`).getAttribute("data-value"))).toBe(row.n);
      }

      // Table 3 opens on a group played by humans; words per turn counts the humans' "Hello there".
      expect(await page.getByTestId("comparison-note").textContent()).toContain("reference group: human with gpt-4");
      expect(await page.getByTestId("wpt-human").getAttribute("data-value")).toBe("2");
      expect(await page.locator("main img, main script").count()).toBe(0);
      expect(await page.evaluate(() => (window as {__pwned?: unknown}).__pwned)).toBeUndefined();
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows the same Pearson r, kappa and within-one-sd share as `sociometer report agreement`, for its options", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/agreement`);
      await ready(page, "/agreement");
      // Both open on the same raters: the first LLM judge against the mean of human annotators.
      expect(agreement.notes[0]).toContain("A = gpt-4; B = mean of human annotators");
      expect(await page.getByTestId("agreement-options").textContent()).toContain("A = gpt-4; B = mean of human annotators; kappa over k = 5");
      // What the store holds, in the same sentence as the report's notes (which end with it).
      const holds = agreement.notes.find((n) => n.startsWith("SOTOPIA scores in the store: "));
      expect(holds).toBeDefined();
      expect(await page.getByTestId("agreement-coverage").textContent()).toBe(holds);
      expect(agreement.rows.some((r) => r.played_by === "human" && r.r !== null)).toBe(true);
      expect(agreement.rows.find((r) => r.dimension === "secret" && r.played_by === "human")?.r).toBeNull(); // the judge's constant 0

      const check = async (rows: AgreementReportRow[]) => {
        for (const row of rows) {
          const where = `${row.dimension} / ${row.played_by}`;
          const r = page.getByTestId(`r-${row.dimension}-${row.played_by}`);
          const shown = Number(await r.getAttribute("data-value"));
          if (row.dimension === "all") {
            // Dimensions pooled: no r on either side, "—" on the page, blank (null) in the CLI.
            expect(row.r, where).toBeNull();
            expect(await r.textContent(), where).toBe("—");
            expect(await r.getAttribute("data-pooled"), where).toBe("true");
          } else if (row.r === null) {
            expect(shown, where).toBeNaN();
            expect(await r.textContent(), where).toBe("n/a");
          } else {
            expect(Math.abs(shown - row.r), where).toBeLessThanOrEqual(1e-9);
          }
          if (row.played_by !== "all") continue;
          const kappa = Number(await page.getByTestId(`kappa-humans-${row.dimension}`).getAttribute("data-value"));
          if (row.kappa_humans === null) expect(kappa, where).toBeNaN();
          else expect(Math.abs(kappa - row.kappa_humans), where).toBeLessThanOrEqual(1e-9);
          const within = Number(await page.getByTestId(`within-${row.dimension}`).getAttribute("data-value"));
          if (row.within_1sd === null) expect(within, where).toBeNaN();
          else expect(Math.abs(within - row.within_1sd), where).toBeLessThanOrEqual(1e-9);
        }
      };
      await check(agreement.rows);

      // Other options give the CLI's numbers for those options.
      await page.getByLabel("Kappa bins k", {exact: true}).fill("3");
      await page.getByLabel("sd of each instance's annotators").check();
      // Computed by the page's worker, which may still be starting (parquet-wasm, the rows): on a busy machine, seconds.
      await expect.poll(() => page.getByTestId("agreement-options").textContent(), {timeout: 30_000}).toContain("kappa over k = 3");
      await expect.poll(() => page.getByTestId("agreement-options").textContent(), {timeout: 30_000}).toContain("instance's own human annotators");
      expect(await page.locator("[data-testid=kappa-table] thead").textContent()).toContain("k = 3 bins");
      await check(agreementOther.rows);

      // The summary is generated from the numbers, with its thresholds.
      const summary = (await page.getByTestId("trust-summary").textContent()) ?? "";
      expect(summary).toContain("r ≥ 0.5 with p < 0.05");
      // A rater name that is markup shows as text in the menus and never runs.
      const options = await page.getByLabel("Rater A", {exact: true}).locator("option").allTextContents();
      expect(options.some((o) => o.startsWith(XSS_RATER))).toBe(true);
      expect(await page.locator("main img, main script").count()).toBe(0);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as {__pwned?: unknown}).__pwned)).toBeUndefined();

      // Rater B = rater A: the page says so in place of tables and charts, and Vega has nothing to warn about.
      const warnings: string[] = [];
      page.on("console", (msg) => { if (msg.type() === "warning") warnings.push(msg.text()); });
      await choose(page, "Rater B", "gpt-4 (");
      await expect.poll(() => page.getByTestId("same-rater-correlation").textContent()).toContain("A and B are the same rater (gpt-4)");
      expect(await page.getByTestId("same-rater-kappa").textContent()).toContain("Choose a different rater B");
      expect(await page.locator("[data-testid=agreement-table], [data-testid=kappa-table], [data-testid=differences-table]").count()).toBe(0);
      await page.waitForTimeout(300);
      expect(warnings.filter((w) => /extent|vega/i.test(w))).toEqual([]);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("starts the agreement page's two row-reading workers only once its first table is drawn", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      // Stamps, on one clock, the moment the first view enters the document and each worker the page constructs
      // (a worker's script is not in the page's resource timings).
      await context.addInitScript(() => {
        const stamps = {firstView: NaN, workers: [] as {url: string; at: number}[]};
        (window as {stamps?: typeof stamps}).stamps = stamps;
        new MutationObserver((_, observer) => {
          if (!document.querySelector("[data-first-view]")) return;
          stamps.firstView = performance.now();
          observer.disconnect();
        }).observe(document, {childList: true, subtree: true});
        const PageWorker = window.Worker;
        window.Worker = class extends PageWorker {
          constructor(url: string | URL, options?: WorkerOptions) {
            stamps.workers.push({url: String(url), at: performance.now()});
            super(url, options);
          }
        };
      });
      const page = await open(`${origin}/agreement`);
      await ready(page, "/agreement");
      const stamps = () => page.evaluate(() => (window as unknown as {stamps: {firstView: number; workers: {url: string; at: number}[]}}).stamps);
      await expect.poll(async () => (await stamps()).workers.map((w) => /(agreement|reliability)-worker\.[0-9a-f]+\.js$/.exec(w.url)?.[1]).sort(),
        {timeout: 30_000}).toEqual(["agreement", "reliability"]);
      const {firstView, workers} = await stamps();
      expect(firstView).toBeGreaterThan(0);
      for (const worker of workers) expect(worker.at, worker.url).toBeGreaterThanOrEqual(firstView);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows the same LIFELONG-SOTOPIA curves and checkpoint validation as `report lifelong` and `report belext`, for their options", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/lifelong`);
      await ready(page, "/lifelong");
      const checkCurves = async (rows: LifelongReportRow[], label: string) => {
        expect(rows.length).toBeGreaterThan(0);
        const shown = await testValues(page, "curve-");
        for (const row of rows) {
          const id = `curve-${row.model}-${row.memory}-${row.index}`;
          const where = `${label} ${id}`;
          expect(Number(shown[`${id}-bel-n`]), where).toBe(row.n);
          expect(Number(shown[`${id}-penalised-n`]), where).toBe(row.penalised_n);
          // Raw BEL beside penalised BEL covers the same instances.
          expect(Number(shown[`${id}-bel_checklisted-n`]), where).toBe(row.penalised_n);
          for (const [key, value] of [["bel", row.bel], ["bel-low", row.bel_low], ["bel-high", row.bel_high], ["goal", row.goal],
            ["goal-low", row.goal_low], ["goal-high", row.goal_high], ["bel_checklisted", row.bel_checklisted], ["penalised", row.penalised_bel]] as const) {
            expectSame(shown[`${id}-${key}`], value, `${where}-${key}`);
          }
        }
      };
      // Both open on the same rater and the same band.
      expect(lifelong.notes[0]).toContain("rater: gpt-4; band: ± one sample sd");
      expect(await page.getByTestId("lifelong-options").textContent()).toContain("Rater: gpt-4; band ± one sample sd");
      await checkCurves(lifelong.rows, "sd");
      await page.getByLabel("95% CI of the mean").check();
      await page.getByLabel("population sd").check();
      await expect.poll(() => page.getByTestId("lifelong-options").textContent()).toContain("95% confidence interval");
      await checkCurves(lifelongCi.rows, "ci95");
      // The harder scenarios are marked in the sample: some rows say so.
      expect(await page.locator("[data-testid=curve-table] tbody").textContent()).toContain("yes");
      // Their rules are labelled with the index and the models sharing it, in the charts themselves.
      const firstHarder = Math.min(...lifelong.rows.filter((r) => (r as unknown as {harder: string}).harder === "yes").map((r) => r.index));
      expect(await page.locator(".vega-chart svg text", {hasText: `harder from ${firstHarder}: `}).count()).toBeGreaterThan(0);
      // The failure chart says how many chain indices each point pools.
      expect(await page.getByTestId("failure-options").textContent()).toContain("one point per 5 chain indices (1–5, 6–10, …)");

      const checkBelext = async (rows: BelextReportRow[], label: string) => {
        expect(rows.length).toBe(8);
        const shown = await testValues(page, "belext-");
        for (const row of rows) {
          for (const key of ["n", "tp", "fp", "tn", "fn", "precision", "recall", "f1"] as const) {
            expectSame(shown[`belext-${row.checkpoint}-${key}`], row[key], `${label} ${row.checkpoint} ${key}`);
          }
        }
      };
      await checkBelext(belext.rows, "fail");
      await page.getByLabel("passes the checkpoint").check();
      await expect.poll(() => page.getByTestId("belext-options").textContent()).toContain("positive class: passes the checkpoint");
      await checkBelext(belextPass.rows, "pass");
      expect(await page.getByTestId("belext-options").textContent()).toContain("checklist paper");
      expect(await page.locator("main img, main script").count()).toBe(0);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows the same HSII table as `report hsii`, follows the α slider to `report hsii --alpha 0.5`, and the same COT complexity as `report cot`", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/hsii`);
      await ready(page, "/hsii");
      const checkHsii = async (rows: HsiiReportRow[], label: string) => {
        expect(rows.length).toBeGreaterThan(0);
        const shown = await testValues(page, "hsii-");
        for (const row of rows) {
          for (const [key, value] of [["n", row.n], ["n1", row.n1], ["n2", row.n2], ["r1", row.r1], ["r2", row.r2], ["abs-target", row.abs_target],
            ["r3", row.r3], ["r4", row.r4], ["score", row.hsii]] as const) {
            expectSame(shown[`hsii-${row.model}-${key}`], value, `${label} ${row.model} ${key}`);
          }
        }
      };
      expect(hsii.notes[0]).toContain("judge: gpt-4; win policy: mean");
      expect(await page.getByTestId("hsii-options").textContent()).toContain("Judge: gpt-4; win policy: mean");
      await checkHsii(hsii.rows, "default");

      // Move the α slider to 0.5 as a reader would: set the range input and dispatch input.
      await page.locator("[data-testid=alpha] input[type=range]").evaluate((input: HTMLInputElement) => {
        input.value = "0.5";
        input.dispatchEvent(new Event("input", {bubbles: true}));
      });
      await expect.poll(() => page.getByTestId("hsii-options").textContent()).toContain("α = 0.5, β = 1, γ = 1");
      await checkHsii(hsiiAlpha.rows, "alpha 0.5");
      for (const row of hsiiAlpha.rows) {
        const before = hsii.rows.find((r) => r.model === row.model)!;
        expect(row.hsii, `${row.model}: α changes the score`).not.toBe(before.hsii);
      }

      // n3 and n4 show the same decimals down each column (quarters under the mean policy).
      for (const key of ["n3", "n4"]) {
        const texts = await page.locator(`[data-testid$="-${key}"][data-testid^="hsii-"]`).allTextContents();
        expect(new Set(texts.map((t) => t.split(".")[1]?.length ?? 0)).size, `${key}: ${texts.join(" ")}`).toBe(1);
      }

      // Values an input refuses are named inline with the allowed range; the value in effect stays and is shown.
      const refused = async (box: string, typed: string, testId: string, expected: string) => {
        await page.locator(`${box} input[type=number]`).fill(typed);
        await expect.poll(() => page.getByTestId(testId).textContent()).toBe(expected);
        expect(await page.getByTestId(testId).isVisible()).toBe(true);
      };
      await refused("[data-testid=alpha]", "-3", "alpha-refused", 'α must be 0 to 2 in steps of 0.1; "-3" is not, so α = 0.5 is still in effect.');
      expect(await page.getByTestId("hsii-options").textContent()).toContain("α = 0.5, β = 1, γ = 1");
      await refused("form:has(> [data-testid=cap-refused])", "0", "cap-refused", 'N∞ must be a whole number from 1 to 1024; "0" is not, so N∞ = 128 is still in effect.');
      await refused("form:has(> [data-testid=threshold-refused])", "5", "threshold-refused", 's must be 0.05 to 1 in steps of 0.05; "5" is not, so s = 0.7 is still in effect.');
      expect(await page.getByTestId("cot-options").textContent()).toContain("Cap N∞ = 128; threshold s = 0.7;");
      await page.locator("form:has(> [data-testid=cap-refused]) input[type=number]").fill("64");
      await expect.poll(() => page.getByTestId("cot-options").textContent()).toContain("Cap N∞ = 64;");
      expect(await page.getByTestId("cap-refused").isHidden()).toBe(true);
      await page.locator("form:has(> [data-testid=cap-refused]) input[type=number]").fill("128");
      await expect.poll(() => page.getByTestId("cot-options").textContent()).toContain("Cap N∞ = 128;");

      const shownCot = await testValues(page, "cot-");
      expect(cot.rows.length).toBeGreaterThan(0);
      for (const row of cot.rows) {
        expect(Number(shownCot[`cot-${row.model}-runs`]), row.model).toBe(row.runs);
        expectSame(shownCot[`cot-${row.model}-complexity`], row.complexity, `${row.model} complexity`);
        expectSame(shownCot[`cot-${row.model}-with`], row.success_with_cot, `${row.model} success with COT`);
      }
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
      // 5,001 SOTOPIA episodes in the store, all shipped; the list holds the first 5,000 by id, and says how to list the last.
      expect(await page.getByTestId("episode-count").textContent())
        .toContain("The list holds the first 5,000 of 5,001 SOTOPIA episodes with a transcript, by id");
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

  it("says an unknown ?episode= is not in the store and shows no other episode; shows LIFELONG markup as text and an STSS conversation with its verdicts", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const missing = await open(`${origin}/episodes?episode=doesnotexist`);
      const notFound = missing.getByTestId("episode-not-found");
      await notFound.waitFor({timeout: 30_000});
      // The site ships every transcript, so the message says the store has none by that id.
      expect(await notFound.textContent()).toBe(`No episode "doesnotexist" in this store with a transcript.`);
      await expect.poll(() => missing.getByTestId("episode-header").textContent()).toContain("Pick an episode");
      expect(await missing.getByTestId("transcript").count()).toBe(0);

      const lifelong = await open(`${origin}/episodes?episode=${LIFELONG_XSS_EPISODE}`);
      const transcript = lifelong.getByTestId("transcript");
      await transcript.waitFor({timeout: 30_000});
      await expect.poll(() => lifelong.getByTestId("episode-header").textContent()).toContain(LIFELONG_XSS_EPISODE);
      expect(await lifelong.getByTestId("episode-header").textContent()).toContain("LIFELONG-SOTOPIA");
      expect(await lifelong.getByTestId("episode-header").textContent()).toContain(SCRIPT_PAYLOAD);
      expect(await lifelong.getByLabel("Benchmark", {exact: true}).locator("option:checked").textContent()).toMatch(/^LIFELONG-SOTOPIA \(/);
      expect(await transcript.locator(".message").allTextContents()).toEqual([
        `Turn 0 · Ana Ferreira (xss-model) · speaksaid ${IMG_PAYLOAD}`,
        `Turn 1 · Ben Okoye (xss-model) · speaksaid ${SCRIPT_PAYLOAD}`,
      ]);
      const card = (await lifelong.locator(".agent-ratings[data-agent='1']").textContent())!;
      expect(card).toContain(`Goal ${IMG_PAYLOAD}`);
      expect(card).toContain(`because ${IMG_PAYLOAD}`);
      expect(card).toContain("Goal completion (GOAL)[0, 10]3");
      expect(await lifelong.locator("main img, main script").count()).toBe(0);
      await lifelong.waitForTimeout(500);
      expect(await lifelong.evaluate(() => (window as {__pwned?: unknown}).__pwned)).toBeUndefined();

      // An STSS conversation: every message of the store in order, and each goal-condition verdict beside it.
      const [stss] = await storeRows<{episode_id: string; messages: number; verdicts: number}>(`
        SELECT e.episode_id, (SELECT count(*) FROM messages m WHERE m.episode_id = e.episode_id)::INTEGER AS messages,
               (SELECT count(*) FROM ratings r WHERE r.episode_id = e.episode_id)::INTEGER AS verdicts
        FROM episodes e WHERE e.benchmark = 'stss' AND e.episode_id IN (SELECT episode_id FROM messages)
          AND e.episode_id IN (SELECT episode_id FROM ratings) ORDER BY e.episode_id LIMIT 1`);
      const conversation = await open(`${origin}/episodes?episode=${encodeURIComponent(stss!.episode_id)}`);
      await conversation.getByTestId("transcript").waitFor({timeout: 30_000});
      await expect.poll(() => conversation.getByTestId("episode-header").textContent()).toContain(stss!.episode_id);
      expect(await conversation.getByTestId("transcript").locator(".message").count()).toBe(stss!.messages);
      expect(stss!.verdicts).toBeGreaterThan(0);
      expect(await conversation.locator(".agent-ratings tr[data-dimension^='conversation:'], .agent-ratings tr[data-dimension^='summary:']").count()).toBe(stss!.verdicts);
      expect(await conversation.getByTestId("episode-count").textContent()).toMatch(/^[\d,]+ STSS episodes with a transcript\.$/);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 90_000);

  it("shows every built-in audit with the verdicts and sentences of `sociometer audit data/audits/X.csv --format json`, and audits a pasted CSV", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      await checkAuditPage(open, origin);
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 120_000);
  it("shows the same STSS Table 3 as `report stss` and Table 4 as `report stss-action`, and follows the conversation-ratio option", async () => {
    const {context, problems, open} = await watchedContext(browser);
    const json = async (args: string[]) => JSON.parse((await runCli(["report", ...args, "--format", "json", "--db", join(dir, "site.duckdb")])).stdout);
    try {
      const [t3, t4, t4pooled, t4ignored, t4first, failing, t3all] = await Promise.all([json(["stss"]), json(["stss-action"]), json(["stss-action", "--conv-ratio", "pooled"]),
        json(["stss-action", "--conv-ratio", "pooled", "--initiator", "ignored"]), json(["stss-action", "--conv-ratio", "pooled", "--initiator", "ignored", "--help-order", "first"]),
        json(["stss", "--by", "type"]), json(["stss", "--appointment-partners", "all"])]);
      const page = await open(`${origin}/stss`);
      await ready(page, "/stss");
      expect(t3.rows.length).toBe(8);
      const shown3 = await testValues(page, "stss-t3-");
      for (const row of t3.rows) {
        const id = `stss-t3-${row.model}-${row.architecture}`;
        expect(Number(shown3[`${id}-conversations`]), id).toBe(row.conversations);
        // The n each level's cells average over, beside them.
        expect(Number(shown3[`${id}-judged_conversation`]), id).toBe(row.judged_conversation);
        expect(Number(shown3[`${id}-judged_summary`]), id).toBe(row.judged_summary);
        for (const level of ["conversation", "summary"]) {
          for (const m of ["sr", "gcsr"]) for (const avg of ["micro", "macro"]) expectSame(shown3[`${id}-${level}_${m}_${avg}`], row[`${level}_${m}_${avg}`], `${id} ${level} ${m} ${avg}`);
        }
      }
      // Both say which verdict set (rater and judging run) the numbers come from.
      expect(t3.notes[0]).toContain("condition rater: gpt-35-turbo; run: imported");
      expect(await page.getByTestId("stss-options").textContent()).toContain("Condition rater (--rater): gpt-35-turbo; run (--run-id): imported");
      const check4 = async (rows: Record<string, number | string | null>[], label: string) => {
        const shown4 = await testValues(page, "stss-t4-");
        expect(rows.length).toBe(8);
        for (const row of rows) {
          const id = `stss-t4-${row.model}-${row.architecture}`;
          for (const [key, col] of [["public_activity", "pub_act"], ["appointment", "appo"], ["inviting_companions", "inv_com"], ["online_activity", "online_act"],
            ["asking_for_help", "help"], ["overall", "overall"], ["conv-ratio", "conv_ratio"], ["conv-tasks", "conv_tasks"], ["no-conv-counts", "no_conv_counts"]]) {
            expectSame(shown4[`${id}-${key}`], row[col] as number | null, `${label} ${id} ${col}`);
          }
        }
      };
      await check4(t4.rows, "default");
      expect(await page.getByTestId("stss-overall-note").textContent()).toContain("task types weigh by their task counts");
      await page.getByLabel("pooled: Σ initiated / Σ demanded").check();
      await expect.poll(() => page.getByTestId("stss-action-options").textContent()).toContain("pooled: Σ initiated / Σ demanded");
      await check4(t4pooled.rows, "pooled");
      expect(await page.getByTestId("stss-action-options").textContent()).toContain("Initiator rule (--initiator): mandatory (default)");
      await page.getByLabel("ignored: A.1's formula alone").check();
      await expect.poll(() => page.getByTestId("stss-action-options").textContent()).toContain("Initiator rule (--initiator): ignored");
      await check4(t4ignored.rows, "pooled, initiator ignored");
      // The samples hold help runs that did the second errand early: --help-order first changes some help means.
      await page.getByLabel("first: first completions in the task's order").check();
      await expect.poll(() => page.getByTestId("stss-action-options").textContent()).toContain("Help order (--help-order): first");
      await check4(t4first.rows, "pooled, initiator ignored, help order first");
      // Which conditions fail: the same rows in the same order as `report stss --by type` (lower-bound order, n ≥ 5).
      expect(failing.notes.at(-1)).toContain("Minimum judged (--min-n): 5 (default)");
      expect(await page.getByTestId("stss-drill-options").textContent()).toContain("Minimum judged (--min-n): 5 (default)");
      const shownFail = await testValues(page, "stss-fail-");
      for (const [i, row] of (failing.rows as {judged: number; failed: number; fail_rate: number; low: number}[]).slice(0, 20).entries()) {
        expect(Number(shownFail[`stss-fail-${i}-judged`]), `failing ${i}`).toBe(row.judged);
        expect(Number(shownFail[`stss-fail-${i}-failed`]), `failing ${i}`).toBe(row.failed);
        expectSame(shownFail[`stss-fail-${i}-rate`], row.fail_rate, `failing ${i} rate`);
        expectSame(shownFail[`stss-fail-${i}-low`], row.low, `failing ${i} lower bound`);
      }
      // Appointment conversations with someone other than the target person: counted under "all", as the CLI does.
      await page.getByLabel("all, with anyone").check();
      await expect.poll(() => page.getByTestId("stss-options").textContent()).toContain("Appointment partners (--appointment-partners): all");
      const shownAll = await testValues(page, "stss-t3-");
      for (const row of t3all.rows) {
        const id = `stss-t3-${row.model}-${row.architecture}`;
        expect(Number(shownAll[`${id}-judged_conversation`]), `all partners ${id}`).toBe(row.judged_conversation);
        expectSame(shownAll[`${id}-conversation_gcsr_micro`], row.conversation_gcsr_micro, `all partners ${id}`);
      }
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 120_000);

  it("shows the same InformativeBench Table 3 as `report informativebench` (metric in each header, n under each cell), follows the match option, and the same Table 4 as `report infonav`", async () => {
    const {context, problems, open} = await watchedContext(browser);
    const json = async (args: string[]) => JSON.parse((await runCli(["report", ...args, "--format", "json", "--db", join(dir, "site.duckdb")])).stdout);
    type Cell = {model: string; dataset: string; metric: string; n: number; value: number | null};
    try {
      const [t3, t3contains, nav] = await Promise.all([json(["informativebench"]), json(["informativebench", "--match", "contains"]),
        json(["infonav", "--match", "contains"])]);
      const page = await open(`${origin}/informativebench`);
      await ready(page, "/informativebench");
      const checkTable3 = async (rows: Cell[], label: string) => {
        expect(rows.length).toBe(20);
        const shown = await testValues(page, "ib-t3-");
        for (const row of rows) {
          const id = `ib-t3-${row.model}-${row.dataset}`;
          expectSame(shown[id], row.value, `${label} ${id}`);
          expect(Number(shown[`${id}-n`]), `${label} ${id} n`).toBe(row.n);
        }
      };
      await checkTable3(t3.rows, "exact");
      const metricName: Record<string, string> = {precision: "precision", f1: "F1", iou: "IoU"};
      for (const row of t3.rows as Cell[]) expect(await page.getByTestId(`ib-t3-head-${row.dataset}`).textContent()).toContain(metricName[row.metric]);
      // The XSS record adds one NP question to GPT-4's 100.
      expect((t3.rows as Cell[]).find((r) => r.model === "gpt-4-0125-preview" && r.dataset === "NP")!.n).toBe(101);
      expect(await page.getByTestId("ib-options").textContent()).toContain("match exact");
      expect(t3.notes[0]).toContain("match exact");
      // The ScheduleMedium free-text reading behind the numbers, named beside them as the CLI names it.
      expect(t3.notes[0]).toContain("free text items (");
      expect(await page.getByTestId("ib-options").textContent()).toContain("free text items (");
      expect(await page.getByTestId("ib-free-text").textContent()).toContain("free text read as items (");
      expect(await page.getByTestId("ib-t3-caption").textContent()).toContain("ScheduleMedium F1 free text read as items");
      expect(await page.getByTestId("ib-gold").textContent()).toContain("90 of 90 agree");

      await page.getByLabel(/^contains \(a normalised gold answer appears as whole words/).check();
      await expect.poll(() => page.getByTestId("ib-options").textContent()).toContain("match contains");
      await checkTable3(t3contains.rows, "contains");

      const shownNav = await testValues(page, "ib-nav-");
      expect(nav.rows.map((r: {sample: string}) => r.sample)).toEqual(["right", "wrong", "all"]);
      for (const row of nav.rows) {
        for (const [key, col] of [["rationales", "rationales"], ["solved-per-update", "solved_per_update"], ["solved-ratio", "solved_ratio"],
          ["fake-ratio", "fake_ratio"], ["consensus-ratio", "consensus_ratio"]]) {
          expectSame(shownNav[`ib-nav-${row.sample}-${key}`], row[col!], `infonav ${row.sample} ${col}`);
        }
        expect(Number(shownNav[`ib-nav-${row.sample}-plans`])).toBe(row.plans);
      }
      // The choices the paper leaves open are shown next to the numbers, and the page follows them as the CLI does.
      expect(await page.getByTestId("ib-gold").textContent()).toContain("(easy overlaps pooled, fixed activities sleep)");
      // The samples' sleep-ins and own overlaps: the other verifier readings disagree with some gold answers, as the CLI says.
      const between = await json(["informativebench", "--easy-overlap", "between", "--fixed-activities", "none"]);
      const agreeing = (between.notes as string[]).find((n) => n.startsWith("gold answers checked"))!.match(/(\d+) of (\d+) agree/)![0];
      expect(agreeing).not.toBe("90 of 90 agree");
      await page.getByLabel("between (only overlaps between the two people count)").check();
      await page.getByLabel("none (every activity can be deleted and can be the longest)").check();
      await expect.poll(() => page.getByTestId("ib-gold").textContent()).toContain(agreeing);
      expect(await page.getByTestId("ib-verifier-options").textContent()).toContain("fixed activities none");
      expect(await page.getByTestId("ib-infonav-options").textContent()).toContain("solved per update solving");
      const navAll = await json(["infonav", "--match", "contains", "--per-update", "all", "--fake", "solved"]);
      await page.getByLabel("all (over every update after the initial plan)").check();
      await page.getByLabel("solved (a fake-solved rationale counts as solved)").check();
      await expect.poll(() => page.getByTestId("ib-infonav-options").textContent()).toContain("fake solved solved");
      // A choice the first view did not look up waits for the records ("Loading the records…"): its table can come after its options line.
      await expect.poll(async () => (await testValues(page, "ib-nav-"))["ib-nav-all-solved-ratio"], {timeout: 30_000}).not.toBeUndefined();
      const shownAll = await testValues(page, "ib-nav-");
      for (const row of navAll.rows) {
        expectSame(shownAll[`ib-nav-${row.sample}-solved-per-update`], row.solved_per_update, `infonav --per-update all ${row.sample}`);
        expectSame(shownAll[`ib-nav-${row.sample}-solved-ratio`], row.solved_ratio, `infonav --fake solved ${row.sample}`);
      }
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 120_000);

  it("checks a reported percentage against a claimed n on the InformativeBench page, and shows markup in questions and predictions as literal text", async () => {
    const {context, problems, open} = await watchedContext(browser);
    try {
      const page = await open(`${origin}/informativebench`);
      await ready(page, "/informativebench");
      const result = page.getByTestId("ib-denominator-result");
      await expect.poll(() => result.getAttribute("data-consistent")).toBe("false");
      expect(await result.textContent()).toContain("57.94%: not a share of 222");
      await page.getByLabel("Claimed n").fill("126");
      await page.getByLabel("Claimed n").dispatchEvent("input");
      await expect.poll(() => result.textContent()).toContain("consistent with n = 126: 73/126");
      expect(await page.getByTestId("ib-common-FriendsTV").getAttribute("data-n")).toBe("126");

      await page.getByLabel("Search").fill(IB_XSS_QUESTION);
      await expect.poll(() => page.getByTestId("ib-questions").textContent()).toContain(IB_XSS_QUESTION);
      const text = await page.getByTestId("ib-questions").textContent();
      expect(text).toContain(`Who wrote ${IMG_PAYLOAD}?`);
      expect(text).toContain(`${SCRIPT_PAYLOAD} Bob`);
      expect(text).toContain(`Dave ${IMG_PAYLOAD}`);
      expect(await page.locator("main img, main script").count()).toBe(0);
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as {__pwned?: unknown}).__pwned)).toBeUndefined();
      expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
    } finally {
      await context.close();
    }
  }, 120_000);
});
