// Shared by the browser tests: build the site against a given store, serve
// dist/ from loopback, and drive Chromium (chromium.ts) with playwright-core while
// recording every console error, uncaught exception and off-machine request.

import {spawn} from "node:child_process";
import {cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync} from "node:fs";
import {join, sep} from "node:path";
import type {Browser, BrowserContext, Page} from "playwright-core";
import {cli} from "../helpers/cli.js";
import {REPO} from "../helpers/fixtures.js";
import {sharedDir} from "../helpers/shared-dir.js";
import {serveStatic as serveSite} from "../../scripts/serve.js";
import {sotopiaDimension} from "../../src/lib/dimensions.js";

export {REPO};

/** Runs `npx <args>` in the repository; rejects with the output's tail on failure. */
export function runNpx(
  args: readonly string[],
  {env = {}, cwd = REPO, timeoutMs = 240_000}: {env?: Record<string, string>; cwd?: string; timeoutMs?: number} = {},
): Promise<{stdout: string; stderr: string}> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("npx", [...args], {
      cwd,
      env: {...process.env, OBSERVABLE_TELEMETRY_DISABLE: "true", NO_COLOR: "1", ...env},
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise({stdout, stderr});
      else reject(new Error(`npx ${args.join(" ")} exited with ${code}:\n${(stdout + stderr).slice(-4000)}`));
    });
  });
}

/** Runs a sociometer command in this process (test/helpers/cli.ts); rejects with its output when it fails. */
export async function runCli(args: readonly string[]): Promise<{stdout: string; stderr: string}> {
  const {code, stdout, stderr} = await cli([...args]);
  if (code !== 0) throw new Error(`sociometer ${args.join(" ")} exited with ${code}:\n${(stdout + stderr).slice(-4000)}`);
  return {stdout, stderr};
}

/**
 * Builds the site from the store at `storePath` in a copy of the project under
 * `workDir`, and returns where the built site is. A copy, because Framework
 * keeps data loader output in src/.observablehq/cache: a build from the real
 * src/ would race any other build running there (a developer's, another test
 * run's) and leave test data in its cache. The copy links node_modules and
 * loaders/ and copies the rest, so imports resolve as they do in the project.
 * `env` adds build options (e.g. SOCIOMETER_EXPLORER_ROWS); `timeoutMs` replaces
 * runNpx's 4 minutes (a large store's build takes longer).
 */
export async function buildSite(storePath: string, workDir: string, env: Record<string, string> = {}, timeoutMs?: number): Promise<{dist: string; log: string; ms: number}> {
  const project = join(workDir, "project");
  mkdirSync(project, {recursive: true});
  cpSync(join(REPO, "src"), join(project, "src"), {recursive: true, filter: (from) => !from.includes(`${sep}.observablehq`)});
  for (const file of ["observablehq.config.ts", "package.json", "tsconfig.json"]) cpSync(join(REPO, file), join(project, file));
  for (const dir of ["node_modules", "loaders"]) symlinkSync(join(REPO, dir), join(project, dir), "dir");
  // Framework bundles each npm package a page imports into its cache's _node folder, the same for every
  // build of this install (14 s of a 29 s samples build): `npm install` made them in the project
  // (scripts/bundle-page-packages.ts), else the first build of the run leaves its copy for the others.
  const nodeCache = join(project, "src", ".observablehq", "cache", "_node");
  const installed = join(REPO, "src", ".observablehq", "cache", "_node");
  const warm = existsSync(installed) ? installed : join(sharedDir(), "framework-node-cache");
  if (existsSync(warm)) cpSync(warm, nodeCache, {recursive: true});
  const start = performance.now();
  const {stdout, stderr} = await runNpx(["observable", "build"], {cwd: project, env: {SOCIOMETER_DB: storePath, ...env}, timeoutMs});
  if (!existsSync(warm) && existsSync(nodeCache)) {
    const partial = mkdtempSync(`${warm}-partial-`);
    cpSync(nodeCache, partial, {recursive: true});
    try {
      renameSync(partial, warm);
    } catch {
      rmSync(partial, {recursive: true, force: true}); // another build's copy got there first
    }
  }
  return {dist: join(project, "dist"), log: stdout + stderr, ms: performance.now() - start};
}

/** Serves `dir` like a static host serves a Framework build, with range requests: the server of `npm run serve`. */
export async function serveStatic(dir: string): Promise<{origin: string; close(): Promise<void>}> {
  const {origin, close} = await serveSite(dir);
  return {origin, close};
}

/** What went wrong while pages were open: each entry names the page it happened on. */
export interface Problems {
  consoleErrors: string[];
  pageErrors: string[];
  offMachineRequests: string[];
}

const isLoopback = (url: string): boolean => {
  const {protocol, hostname} = new URL(url);
  if (protocol === "data:" || protocol === "blob:" || protocol === "about:") return true;
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
};

/**
 * A browser context that refuses (and records) every request leaving the
 * machine, and a way to open pages that records console errors and uncaught
 * exceptions.
 */
export async function watchedContext(browser: Browser): Promise<{context: BrowserContext; problems: Problems; open(url: string): Promise<Page>}> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  const problems: Problems = {consoleErrors: [], pageErrors: [], offMachineRequests: []};
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (isLoopback(url)) return route.continue();
    problems.offMachineRequests.push(url);
    return route.abort("blockedbyclient");
  });
  // Requests that bypass routing (e.g. from workers) are still reported here.
  context.on("request", (request) => {
    const url = request.url();
    if (!isLoopback(url) && !problems.offMachineRequests.includes(url)) problems.offMachineRequests.push(url);
  });
  return {
    context,
    problems,
    async open(url: string) {
      const page = await context.newPage();
      const where = new URL(url).pathname;
      page.on("console", (msg) => {
        if (msg.type() === "error") problems.consoleErrors.push(`${where}: ${msg.text()}`);
      });
      page.on("pageerror", (error) => problems.pageErrors.push(`${where}: ${error.message}`));
      await page.goto(url, {waitUntil: "load"});
      return page;
    },
  };
}

/** Fails the page if Framework rendered any cell as an error. */
export async function cellErrors(page: Page): Promise<string[]> {
  return page.locator(".observablehq--error").allTextContents();
}

/** One rater's score of one (episode, agent, dimension), as the store holds it. */
export interface InstanceScore {
  episode_id: string;
  agent: number;
  dimension: string;
  value: number;
}

/** An annotator of the human-ratings CSV: `offset` is added to every score, `every` = rates every n-th episode (by id). */
export interface Annotator {
  name: string;
  offset: number;
  every?: number;
}

/** A small deterministic hash of a string, for noise that is the same on every run. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const csvCell = (v: string | number) => (/[",\n\r]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));

/**
 * Human annotators' scores in the long layout of `import sotopia-ratings`
 * (`episode_id,agent,dimension,rater,value,rationale`): each annotator scores
 * every instance of the episodes it covers near the judge's score (its offset
 * plus deterministic noise in −2…2), clamped to the dimension's range.
 */
export function humanRatingsCsv(judged: readonly InstanceScore[], annotators: readonly Annotator[]): string {
  const episodes = [...new Set(judged.map((s) => s.episode_id))].sort();
  const index = new Map(episodes.map((id, i) => [id, i]));
  const lines = ["episode_id,agent,dimension,rater,value,rationale"];
  for (const s of judged) {
    const dim = sotopiaDimension(s.dimension);
    if (!dim) continue;
    for (const a of annotators) {
      if (index.get(s.episode_id)! % (a.every ?? 1) !== 0) continue;
      const noise = (hash(`${s.episode_id}|${s.agent}|${s.dimension}|${a.name}`) % 5) - 2;
      const value = Math.min(dim.hi, Math.max(dim.lo, Math.round(s.value + a.offset + noise)));
      lines.push([s.episode_id, s.agent, s.dimension, a.name, value, `close call, noise ${noise}`].map(csvCell).join(","));
    }
  }
  return lines.join("\n") + "\n";
}
