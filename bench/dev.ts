// `npm run bench -- dev`: `npm run dev` as a new user meets it. A clone of the
// repository's HEAD in a scratch folder (node_modules linked to this
// install's and its postinstall run: what `npm install` would leave), then `npm run dev`: the seconds
// until it serves, and each page's first open in headless Chromium, from
// navigation to its first chart or table (data-first-view). Twice: on the
// fresh clone (no store, no Framework cache), then again after a restart
// (the store and caches the first start left). Baseline: Framework's preview
// of a one-page site with no data loader, started and opened the same way.
//
//   npm run bench -- dev [--dir /tmp/x] [--keep]

import {execFileSync, spawn, type ChildProcess} from "node:child_process";
import {mkdirSync, rmSync, symlinkSync, writeFileSync} from "node:fs";
import {createServer} from "node:net";
import {loadavg} from "node:os";
import {join} from "node:path";
import type {Browser} from "playwright-core";
import {launchBrowser} from "../test/browser/chromium.js";
import {REPO, machine, type BenchContext} from "./helpers.js";

/** The pages in the order a new user might open them: the site's navigation. */
const PAGES = ["/", "/sotopia", "/agreement", "/lifelong", "/hsii", "/stss", "/informativebench", "/compare", "/episodes", "/explorer", "/audit"];
const FIRST_VIEW_TIMEOUT_MS = 120_000;

const freePort = (): Promise<number> =>
  new Promise((ok) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const {port} = probe.address() as {port: number};
      probe.close(() => ok(port));
    });
  });

function withoutStore(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const {SOCIOMETER_DB: _named, ...rest} = env;
  return rest;
}

interface Started {
  child: ChildProcess;
  origin: string;
  /** Seconds from the command's start until it printed its address. */
  serves: number;
  output: () => string;
}

/** Runs `command` in `cwd` (its own process group) until it prints the preview's address. */
async function startServer(cwd: string, command: string[], port: number): Promise<Started> {
  const start = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd,
    // The clone's own store, data/sociometer.duckdb, whatever store this shell names.
    env: {...withoutStore(process.env), OBSERVABLE_TELEMETRY_DISABLE: "true", NO_COLOR: "1"},
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const origin = `http://127.0.0.1:${port}`;
  const serves = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${command.join(" ")} did not serve in 5 min:\n${output.slice(-3000)}`)), 300_000);
    const seen = (d: Buffer) => {
      output += d;
      if (output.includes(`127.0.0.1:${port}`)) {
        clearTimeout(timer);
        ok((performance.now() - start) / 1000);
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.on("exit", (code) => fail(new Error(`${command.join(" ")} exited with ${code}:\n${output.slice(-3000)}`)));
  });
  return {child, origin, serves, output: () => output};
}

function stop(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // gone already
  }
}

/** Seconds from navigation to the page's first view, in a fresh context. */
async function firstOpen(browser: Browser, url: string, selector = "[data-first-view]"): Promise<number> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}});
  try {
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(url, {waitUntil: "commit", timeout: FIRST_VIEW_TIMEOUT_MS});
    await page.locator(selector).first().waitFor({state: "attached", timeout: FIRST_VIEW_TIMEOUT_MS});
    return (performance.now() - start) / 1000;
  } finally {
    await context.close();
  }
}

interface Round {
  serves: number;
  pages: Map<string, number>;
  load: number;
}

/** One start of `npm run dev` in `project` and a first open of every page. */
async function devRound(browser: Browser, project: string, log: (m: string) => void): Promise<Round> {
  const load = loadavg()[0]!;
  const port = await freePort();
  const server = await startServer(project, ["npm", "run", "dev", "--", "--port", String(port)], port);
  log(`dev serves after ${server.serves.toFixed(1)} s`);
  const pages = new Map<string, number>();
  try {
    for (const path of PAGES) {
      const seconds = await firstOpen(browser, `${server.origin}${path}`);
      pages.set(path, seconds);
      log(`  ${path}: first view after ${seconds.toFixed(2)} s`);
    }
  } finally {
    stop(server.child);
  }
  return {serves: server.serves, pages, load};
}

/** Framework's preview of one page with no loader: the floor every page pays. */
async function baselineRound(browser: Browser, dir: string): Promise<{serves: number; open: number}> {
  const project = join(dir, "baseline");
  rmSync(project, {recursive: true, force: true});
  mkdirSync(join(project, "src"), {recursive: true});
  writeFileSync(join(project, "src", "index.md"), "# One page\n\n<p data-first-view>Hello.</p>\n");
  writeFileSync(join(project, "observablehq.config.js"), "export default {root: 'src', globalStylesheets: [], search: false};\n");
  symlinkSync(join(REPO, "node_modules"), join(project, "node_modules"), "dir");
  const port = await freePort();
  const server = await startServer(project, [join(REPO, "node_modules", ".bin", "observable"), "preview", "--host", "127.0.0.1", "--port", String(port), "--no-open"], port);
  try {
    return {serves: server.serves, open: await firstOpen(browser, `${server.origin}/`)};
  } finally {
    stop(server.child);
  }
}

export async function run(context: BenchContext): Promise<string> {
  const dir = join(context.dir, "dev");
  rmSync(dir, {recursive: true, force: true});
  mkdirSync(dir, {recursive: true});
  const project = join(dir, "clone");
  execFileSync("git", ["clone", "--quiet", REPO, project]);
  symlinkSync(join(REPO, "node_modules"), join(project, "node_modules"), "dir");
  // What `npm install` runs last in a fresh clone: its postinstall script (the pages' npm packages bundled).
  const installStart = performance.now();
  execFileSync("npm", ["run", "postinstall", "--silent"], {cwd: project, stdio: "ignore"});
  const postinstall = (performance.now() - installStart) / 1000;
  context.log(`postinstall took ${postinstall.toFixed(1)} s`);
  const browser = await launchBrowser();
  try {
    const baseline = await baselineRound(browser, dir);
    context.log(`baseline: serves after ${baseline.serves.toFixed(1)} s, opens in ${baseline.open.toFixed(2)} s`);
    const fresh = await devRound(browser, project, context.log);
    const again = await devRound(browser, project, context.log);
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {cwd: project, encoding: "utf8"}).trim();
    const row = (path: string) => `| \`${path}\` | ${fresh.pages.get(path)!.toFixed(2)} | ${(fresh.pages.get(path)! / baseline.open).toFixed(1)}× | ${again.pages.get(path)!.toFixed(2)} | ${(again.pages.get(path)! / baseline.open).toFixed(1)}× |`;
    const slowest = (r: Round) => Math.max(...r.pages.values());
    return [
      "## Dev server: `npm run dev` on a fresh clone",
      "",
      `${new Date().toISOString().slice(0, 10)}, commit ${commit}, ${machine()}. A clone of HEAD with node_modules linked to this install's (what \`npm install\` leaves); \`npm run dev\` from the clone (no store, no Framework cache), then started again. Each page opened once, one after another, in a fresh Chromium context: navigation → its first chart or table (\`data-first-view\`). Baseline: Framework's preview of a one-page site with no loader (serves after ${baseline.serves.toFixed(1)} s, opens in ${baseline.open.toFixed(2)} s). The clone's postinstall (the end of \`npm install\`: the pages' npm packages bundled) took ${postinstall.toFixed(1)} s before the first start. Load average at the start: ${fresh.load.toFixed(1)} (fresh), ${again.load.toFixed(1)} (again).`,
      "",
      `Serves after **${fresh.serves.toFixed(1)} s** on the fresh clone (${(fresh.serves / baseline.serves).toFixed(1)}× the baseline; the samples store imported first), **${again.serves.toFixed(1)} s** when started again. Slowest first open: ${slowest(fresh).toFixed(2)} s fresh, ${slowest(again).toFixed(2)} s again.`,
      "",
      "| page | fresh clone (s) | × baseline | started again (s) | × baseline |",
      "| --- | --- | --- | --- | --- |",
      ...PAGES.map(row),
    ].join("\n");
  } finally {
    await browser.close();
    if (!context.keep) rmSync(dir, {recursive: true, force: true});
  }
}
