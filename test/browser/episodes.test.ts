// The episode viewer in Chromium on the samples, under `observable preview`
// (which builds only the pages opened): one episode from the address, two side
// by side, each with exactly its messages, and the episode file read in ranges
// (status 206), never whole.

import {spawn, type ChildProcess} from "node:child_process";
import {cpSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync} from "node:fs";
import {createServer} from "node:net";
import {tmpdir} from "node:os";
import {join, sep} from "node:path";
import type {Browser, Page, Response} from "playwright-core";
import {afterAll, beforeAll, expect, it} from "vitest";
import {importSamples} from "../../loaders/samples.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, launchBrowser} from "./chromium.js";
import {REPO, watchedContext, type Problems} from "./helpers.js";

const freePort = (): Promise<number> =>
  new Promise((ok) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const {port} = probe.address() as {port: number};
      probe.close(() => ok(port));
    });
  });

/** `observable preview` of a copy of the project (as buildSite copies it) over the store at `storePath`; resolves once it listens. */
async function preview(storePath: string, workDir: string): Promise<{origin: string; child: ChildProcess; project: string}> {
  const project = join(workDir, "project");
  mkdirSync(project, {recursive: true});
  cpSync(join(REPO, "src"), join(project, "src"), {recursive: true, filter: (from) => !from.includes(`${sep}.observablehq`)});
  for (const file of ["observablehq.config.ts", "package.json", "tsconfig.json"]) cpSync(join(REPO, file), join(project, file));
  for (const dir of ["node_modules", "loaders"]) symlinkSync(join(REPO, dir), join(project, dir), "dir");
  const port = await freePort();
  const child = spawn("npx", ["observable", "preview", "--host", "127.0.0.1", "--port", String(port), "--no-open"], {
    cwd: project,
    env: {...process.env, SOCIOMETER_DB: storePath, OBSERVABLE_TELEMETRY_DISABLE: "true", NO_COLOR: "1"},
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: npx starts the server as a child of its own, which a signal to npx alone leaves running.
    detached: true,
  });
  let output = "";
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`observable preview did not start:\n${output}`)), 120_000);
    const seen = (d: Buffer) => {
      output += d;
      if (output.includes(`127.0.0.1:${port}`)) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.on("exit", (code) => fail(new Error(`observable preview exited with ${code}:\n${output}`)));
  });
  return {origin: `http://127.0.0.1:${port}`, child, project};
}

interface EpisodeCounts {
  episode_id: string;
  messages: number;
  participants: number;
}

describeUnless(browserTestsOff(), "episode viewer (samples, observable preview)", () => {
  let dir: string;
  let browser: Browser;
  let site: {origin: string; child: ChildProcess; project: string};
  let watched: Awaited<ReturnType<typeof watchedContext>>;
  let sotopia: EpisodeCounts[];
  let stss: EpisodeCounts;

  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), "sociometer-viewer-"));
    const storePath = join(dir, "samples.duckdb");
    const store = await openStore(storePath);
    try {
      await importSamples(store);
      const counts = `SELECT e.episode_id, (SELECT count(*) FROM messages m WHERE m.episode_id = e.episode_id)::INTEGER AS messages,
        (SELECT count(*) FROM participants p WHERE p.episode_id = e.episode_id)::INTEGER AS participants FROM episodes e`;
      sotopia = await rows<EpisodeCounts>(store.conn, `${counts} WHERE e.benchmark = 'sotopia' ORDER BY e.episode_id LIMIT 2 OFFSET 40`);
      [stss] = await rows<EpisodeCounts>(store.conn, `${counts} WHERE e.benchmark = 'stss' AND e.episode_id IN (SELECT episode_id FROM messages) ORDER BY e.episode_id DESC LIMIT 1`);
    } finally {
      store.close();
    }
    site = await preview(storePath, dir);
    watched = await watchedContext(browser);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    if (site?.child.pid) process.kill(-site.child.pid, "SIGTERM");
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  /** Opens `path`, recording the answers for the viewer's episode file, and waits until no cell is loading. */
  async function openViewer(path: string): Promise<{page: Page; packAnswers: {status: number; bytes: number}[]}> {
    const packAnswers: {status: number; bytes: number}[] = [];
    const pending: Promise<void>[] = [];
    const record = (response: Response) => {
      if (!response.url().includes("viewer-episodes")) return;
      pending.push(response.body().then((b) => void packAnswers.push({status: response.status(), bytes: b.length}), () => undefined));
    };
    watched.context.on("response", record);
    const page = await watched.open(`${site.origin}${path}`);
    await page.waitForFunction(() => document.querySelectorAll("observablehq-loading").length === 0, null, {timeout: 120_000});
    await page.waitForTimeout(300);
    watched.context.off("response", record);
    await Promise.all(pending);
    return {page, packAnswers};
  }

  const noProblems = (problems: Problems) => expect([...problems.consoleErrors, ...problems.pageErrors, ...problems.offMachineRequests]).toEqual([]);

  it("opens the address's episode with its transcript and each agent's card, reading the episode file in small ranges", async () => {
    const [a] = sotopia;
    const {page, packAnswers} = await openViewer(`/episodes?episode=${encodeURIComponent(a.episode_id)}`);
    await expect.poll(() => page.getByTestId("episode-header").textContent(), {timeout: 60_000}).toContain(a.episode_id);
    expect(await page.locator("[data-testid=transcript] .message").count()).toBe(a.messages);
    expect(await page.locator(".agent-ratings").count()).toBe(a.participants);
    expect(await page.getByTestId("episode-count").textContent()).toMatch(/^\d[\d,]* SOTOPIA episodes with a transcript\.$/);
    // The preview server answers the viewer's range requests with 206: the header, an index entry, one block.
    const reload = {packAnswers};
    const fileBytes = statSync(join(site.project, "src", ".observablehq", "cache", "data", "viewer-episodes.bin")).size;
    expect(reload.packAnswers.length).toBeGreaterThanOrEqual(3);
    expect(reload.packAnswers.every((r) => r.status === 206)).toBe(true);
    const fetched = reload.packAnswers.reduce((s, r) => s + r.bytes, 0);
    expect(fetched).toBeLessThan(fileBytes / 20);
    noProblems(watched.problems);
  }, 300_000);

  it("shows two episodes side by side with ?episode=A&vs=B, each with its own transcript, and names a missing one", async () => {
    const [a, b] = sotopia;
    const {page} = await openViewer(`/episodes?episode=${encodeURIComponent(a.episode_id)}&vs=${encodeURIComponent(stss.episode_id)}`);
    const sides = page.getByTestId("episode-side");
    await expect.poll(() => sides.count(), {timeout: 60_000}).toBe(2);
    expect(await sides.nth(0).getAttribute("data-episode")).toBe(a.episode_id);
    expect(await sides.nth(1).getAttribute("data-episode")).toBe(stss.episode_id);
    expect(await sides.nth(0).locator(".message").count()).toBe(a.messages);
    expect(await sides.nth(1).locator(".message").count()).toBe(stss.messages);
    expect(await sides.nth(1).getByTestId("episode-header").textContent()).toContain("STSS");
    expect(await page.getByTestId("side-by-side").locator("p a").allTextContents()).toEqual([a.episode_id, stss.episode_id]);

    const missing = await openViewer(`/episodes?episode=${encodeURIComponent(b.episode_id)}&vs=nope`);
    const missingSides = missing.page.getByTestId("episode-side");
    await expect.poll(() => missingSides.count(), {timeout: 60_000}).toBe(2);
    expect(await missingSides.nth(0).locator(".message").count()).toBe(b.messages);
    expect(await missingSides.nth(1).getByTestId("episode-not-found").textContent()).toBe('No episode "nope" in this store with a transcript.');
    noProblems(watched.problems);
  }, 300_000);
});
