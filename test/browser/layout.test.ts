// Every page at 1440 px, built once from the bundled samples and once from the
// real fixtures: nothing is cut at the right (tables, charts, legends), a page
// shows no control for data its store has not got, and a screenshot of each
// page is kept under test-results/layout/ for a person to look at.

import {existsSync, mkdirSync, readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {FIXTURES_MISSING} from "../helpers/fixtures.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {REPO, serveStatic} from "./helpers.js";
import {sharedSite} from "./sites.js";

const PAGES = ["/", "/sotopia", "/agreement", "/lifelong", "/hsii", "/stss", "/informativebench", "/compare", "/episodes", "/explorer", "/audit"];
const WIDTH = 1440;
const SHOTS = join(REPO, "test-results", "layout");

/** Opens a page and waits until no cell is still loading. */
async function openPage(browser: Browser, url: string, width = WIDTH): Promise<Page> {
  const page = await browser.newPage({viewport: {width, height: 900}});
  await page.goto(url, {waitUntil: "load"});
  await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, null, {timeout: 60_000});
  await page.waitForTimeout(500);
  return page;
}

/**
 * What sticks out at the right: the page itself, and every visible table,
 * table form, figure and chart whose content is wider than its box or whose
 * box passes the window's right edge.
 */
function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) out.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    const describe = (el: Element) => {
      const id = el.closest("[data-testid]")?.getAttribute("data-testid");
      const heading = [...document.querySelectorAll("h2, h3")].filter((h) => h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
      return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}${id ? ` [${id}]` : ""} under "${heading?.textContent ?? "top"}"`;
    };
    for (const el of document.querySelectorAll<HTMLElement>("main table, main form[class$='-table'], main figure, main .vega-chart")) {
      if (el.offsetParent === null) continue; // hidden, e.g. in a closed <details>
      const box = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${describe(el)}: content ${el.scrollWidth} px in a ${el.clientWidth} px box`);
      else if (box.right > root.clientWidth + 1) out.push(`${describe(el)}: right edge at ${Math.round(box.right)} px, window ${root.clientWidth} px`);
    }
    return out;
  });
}

/** The labels of the controls a person can see on the page. */
function visibleControls(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>("main form")]
    .filter((f) => f.offsetParent !== null && f.querySelector("input, select, textarea") && !f.matches("[class$='-table']"))
    .map((f) => f.querySelector("label")?.textContent?.trim() || f.className));
}

describeUnless(browserTestsOff() ?? FIXTURES_MISSING, "page layout at 1440 and 800 px", () => {
  let browser: Browser;
  const sites: Record<"samples" | "fixtures", {origin: string; dist: string; close(): Promise<void>}> = {} as never;

  beforeAll(async () => {
    // The browser first: a machine without one fails here in seconds, not after two builds.
    browser = await launchBrowser();
    // One after the other: two builds at once only slow each other down on two cores.
    for (const name of ["samples", "fixtures"] as const) {
      const {dist} = await sharedSite(name);
      const server = await serveStatic(dist);
      sites[name] = {origin: server.origin, dist, close: server.close};
    }
  }, 1_800_000);

  afterAll(async () => {
    await browser?.close();
    for (const site of Object.values(sites)) await site.close();
  });

  for (const name of ["samples", "fixtures"] as const) {
    it(`cuts nothing at the right on any page (${name})`, async () => {
      mkdirSync(join(SHOTS, name), {recursive: true});
      const problems: string[] = [];
      for (const path of PAGES) {
        const page = await openPage(browser, `${sites[name].origin}${path}`);
        await page.screenshot({path: join(SHOTS, name, `${path === "/" ? "index" : path.slice(1)}.png`), fullPage: true});
        problems.push(...(await clipped(page)).map((p) => `${path}: ${p}`));
        await page.close();
      }
      expect(problems).toEqual([]);
    }, 600_000);
  }

  // On a narrow screen wide tables and charts scroll in their own boxes (scrollBox), never the page: a new user found SOTOPIA's
  // means tables (805 and 868 px) and HSII's stage chart (832 px) and cluster table (825 px) making the page scroll at 800 px.
  for (const name of ["samples", "fixtures"] as const) {
    it(`scrolls no page sideways at 800 px (${name})`, async () => {
      const wide: string[] = [];
      for (const path of PAGES) {
        const page = await openPage(browser, `${sites[name].origin}${path}`, 800);
        const {scroll, client} = await page.evaluate(() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth}));
        if (scroll > client + 1) wide.push(`${path}: ${scroll} > ${client} px`);
        await page.close();
      }
      expect(wide).toEqual([]);
    }, 600_000);
  }

  it("shows no control, table or chart for data the store has not got (fixtures: STSS task definitions only, no HSII, no InformativeBench)", async () => {
    const origin = sites.fixtures.origin;
    const stss = await openPage(browser, `${origin}/stss`);
    expect(await stss.getByTestId("stss-empty").textContent()).toContain("30 STSS task definitions and no results yet");
    expect(await stss.getByTestId("stss-definitions").locator("tbody tr").count()).toBe(30);
    expect(await visibleControls(stss)).toEqual([]);
    expect(await stss.locator(".vega-chart").count()).toBe(0);
    expect(await stss.getByTestId("stss-t3-table").isVisible()).toBe(false);
    await stss.close();

    const hsii = await openPage(browser, `${origin}/hsii`);
    expect(await hsii.getByTestId("hsii-empty").isVisible()).toBe(true);
    expect(await visibleControls(hsii)).toEqual([]);
    expect(await hsii.locator("main table").filter({visible: true}).count()).toBe(0);
    await hsii.close();

    const ib = await openPage(browser, `${origin}/informativebench`);
    expect(await ib.getByTestId("ib-empty").textContent()).toContain("no InformativeBench results");
    // Only the denominator check, which works on typed numbers, not on the store.
    expect(await visibleControls(ib)).toEqual(["Reported percentage", "Claimed n"]);
    await ib.close();
  }, 300_000);

  it("switches the HSII weights off under the Table 1 form, which has none, and back on under Eq. 1", async () => {
    const page = await openPage(browser, `${sites.samples.origin}/hsii`);
    const weights = ["alpha", "beta", "gamma"].map((id) => page.getByTestId(id).locator("input[type=range]"));
    for (const w of weights) expect(await w.isEnabled()).toBe(true);
    await page.getByLabel("Table 1 form", {exact: false}).check();
    await page.getByTestId("weights-off").waitFor();
    for (const w of weights) expect(await w.isDisabled()).toBe(true);
    await page.getByLabel("Eq. 1 (as printed)").check();
    await page.getByTestId("weights-off").waitFor({state: "detached"});
    for (const w of weights) expect(await w.isEnabled()).toBe(true);
    await page.close();
  }, 120_000);

  it("serves parquet-wasm under its version, not parquet-wasm@undefined", () => {
    const {version} = JSON.parse(readFileSync(join(REPO, "node_modules", "parquet-wasm", "package.json"), "utf8")) as {version: string};
    const nodeDir = join(sites.samples.dist, "_node");
    expect(readdirSync(nodeDir).filter((d) => d.startsWith("parquet-wasm@"))).toEqual([`parquet-wasm@${version}`]);
    expect(existsSync(join(nodeDir, "parquet-wasm@undefined"))).toBe(false);
  });
});
