// From a SOTOPIA number to the episodes behind it, in Chromium, on the shared
// samples and fixtures sites: a click on a means-table n, a model × partner n
// or a Table 3 mean opens the episode viewer's list, whose count is that
// cell's n; the page opens on the rater that scored the most agents and says
// so; a tie for the highest mean crowns no model.

import type {Browser, Page} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {FIXTURES_MISSING} from "../helpers/fixtures.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {cellErrors, serveStatic, watchedContext} from "./helpers.js";
import {sharedSite, type SharedSiteName} from "./sites.js";

const TIMEOUT_MS = 60_000;

/** Clicks `link` and returns the viewer's filtered count (data-n) and its sentence, once the list is drawn. */
async function follow(page: Page, link: ReturnType<Page["locator"]>): Promise<{n: number; text: string; url: string}> {
  await Promise.all([page.waitForURL(/\/episodes\?/, {timeout: TIMEOUT_MS}), link.click()]);
  const note = page.getByTestId("filtered-count");
  await note.waitFor({timeout: TIMEOUT_MS});
  return {n: Number(await note.getAttribute("data-n")), text: (await note.textContent()) ?? "", url: page.url()};
}

function drillTests(name: SharedSiteName, reason: string | null) {
  describeUnless(reason, `SOTOPIA drill-down (${name})`, () => {
    let browser: Browser;
    let origin: string;
    let close: () => Promise<void>;

    beforeAll(async () => {
      browser = await launchBrowser();
      const {dist} = await sharedSite(name);
      ({origin, close} = await serveStatic(dist));
    }, 1_800_000);

    afterAll(async () => {
      await browser?.close();
      await close?.();
    });

    it("a means-table n, a model × partner n and a Table 3 mean open lists of exactly that many agents", async () => {
      const {context, problems, open} = await watchedContext(browser);
      try {
        const page = await open(`${origin}/sotopia`);
        const means = page.getByTestId("sotopia-means");
        await means.waitFor({timeout: TIMEOUT_MS});
        const links = means.locator("td.n a.drill");
        expect(await links.count()).toBeGreaterThan(0);
        // The first and the last n of the table: two models, two dimensions (the last row is overall).
        for (const pick of [0, (await links.count()) - 1]) {
          const link = links.nth(pick);
          const n = Number(await link.textContent());
          const list = await follow(page, link);
          expect(list.n, list.url).toBe(n);
          expect(list.text).toMatch(new RegExp(`^${n} (episodes? of|agents of)`));
          expect(await cellErrors(page)).toEqual([]);
          await page.goBack();
          await means.waitFor({timeout: TIMEOUT_MS});
        }

        const matrix = page.getByTestId("pair-matrix-details");
        await matrix.locator("summary").click();
        const pair = matrix.locator("td.n a.drill").first();
        const pairN = Number(await pair.textContent());
        const pairList = await follow(page, pair);
        expect(pairList.n, pairList.url).toBe(pairN);
        expect(new URL(pairList.url).searchParams.has("partner")).toBe(true);
        await page.goBack();

        const t3 = page.getByTestId("reference-comparison").locator("td[data-n] a.drill").first();
        await t3.waitFor({timeout: TIMEOUT_MS});
        const t3N = Number(await t3.locator("xpath=..").getAttribute("data-n"));
        const t3List = await follow(page, t3);
        expect(t3List.n, t3List.url).toBe(t3N);
        expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
      } finally {
        await context.close();
      }
    }, 240_000);

    it("the viewer's list shows each agent's score and opens its episode; an unknown rater is said, with the store's raters", async () => {
      const {context, problems, open} = await watchedContext(browser);
      try {
        const page = await open(`${origin}/episodes?benchmark=sotopia&rater=humans&dimension=goal`);
        await page.getByTestId("filtered-count").waitFor({timeout: TIMEOUT_MS});
        expect(await page.getByTestId("filtered-count").textContent()).toContain("rated by the mean of human annotators on Goal completion (GOAL)");
        const table = page.locator("form.single-select table");
        expect(await table.locator("thead").textContent()).toContain("Score (humans)");
        const first = table.locator("tbody tr").first();
        // The first listed agent's episode is shown: its header names the listed id.
        const id = (await first.locator("td").nth(1).textContent())!.trim();
        await expect.poll(() => page.getByTestId("episode-header").textContent(), {timeout: TIMEOUT_MS}).toContain(id);

        await page.goto(`${origin}/episodes?benchmark=sotopia&rater=nobody&seat=x`);
        await page.getByTestId("filtered-count").waitFor({timeout: TIMEOUT_MS});
        expect(await page.getByTestId("filtered-count").getAttribute("data-n")).toBe("0");
        expect(await page.getByTestId("filtered-count").textContent()).toMatch(/^No rater "nobody" scored SOTOPIA episodes; raters: .*"humans"/);
        expect(await page.getByTestId("filter-problems").textContent()).toBe('seat="x" is not a seat number (1, 2, …); it is ignored.');
        expect(await cellErrors(page)).toEqual([]);
        expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
      } finally {
        await context.close();
      }
    }, 120_000);

    it("opens on the rater that scored the most agents, with the models it scored, and says why; ties crown no model", async () => {
      const {context, problems, open} = await watchedContext(browser);
      try {
        const page = await open(`${origin}/sotopia`);
        await page.getByTestId("sotopia-means").waitFor({timeout: TIMEOUT_MS});
        const note = (await page.getByTestId("default-note").textContent()) ?? "";
        expect(note).toMatch(/^Opened on .*, the rater that scored the most agents \(/);
        if (name === "fixtures") {
          // Sotopia-π: the annotators' mean covers every rated episode, gpt-4 a tenth of them.
          expect(note).toContain("Opened on the mean of human annotators");
          expect(await page.getByTestId("rater-note").textContent()).toContain("Scores by mean of human annotators");
        }
        // Every ticked model has a number under the chosen rater: no column of dashes.
        const shown = await page.getByTestId("sotopia-means").locator("thead th.model").allTextContents();
        for (const model of shown) {
          expect(await page.getByTestId(`n-${model}-goal`).getAttribute("data-value"), model).not.toBeNull();
        }
        expect(await page.locator("[data-testid='sotopia-means'] td[data-tied][data-best]").count()).toBe(0);
        if (name === "fixtures") {
          // Under gpt-4 (20 episodes) too: a tied mean, where there is one, is never crowned (the tie rule itself: test/lib/sotopia-best-ties.test.ts).
          const rater = page.getByLabel("Rater", {exact: true});
          const option = (await rater.locator("option").allTextContents()).find((o) => o.startsWith("gpt-4 ("));
          await rater.selectOption({label: option!});
          await expect.poll(() => page.getByTestId("rater-note").textContent(), {timeout: TIMEOUT_MS}).toContain("Scores by gpt-4 ");
          expect(await page.locator("[data-testid='sotopia-means'] td[data-tied][data-best]").count()).toBe(0);
        }
        expect(problems).toEqual({consoleErrors: [], pageErrors: [], offMachineRequests: []});
      } finally {
        await context.close();
      }
    }, 120_000);
  });
}

drillTests("samples", browserTestsOff());
drillTests("fixtures", browserTestsOff() ?? FIXTURES_MISSING);
