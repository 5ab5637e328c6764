// A build reads one copy of the store (snapshotForBuild, called by the site
// config), so an import that lands meanwhile cannot show two pages two
// stores; and a loader or a build that finds the store held by an import
// waits for it, or fails with a message that says so, never DuckDB's lock error.

import {spawn} from "node:child_process";
import {closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, dirname, join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {snapshotStore} from "../../loaders/store/snapshot.js";
import {snapshotForBuild} from "../../src/data/site-cache.js";
import {buildSite, runCli} from "../browser/helpers.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {REPO} from "../helpers/fixtures.js";

/** Runs `npx tsx <script> …args` in the repository, stdout into `out`; `stderr()` is what it wrote to stderr so far. */
function tsx(script: string, args: string[], env: Record<string, string>, out: string): {stderr: () => string; done: Promise<{code: number | null; stderr: string}>} {
  const fd = openSync(out, "w");
  const child = spawn("npx", ["tsx", script, ...args], {cwd: REPO, env: {...process.env, ...env}, stdio: ["ignore", fd, "pipe"]});
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d));
  const done = new Promise<{code: number | null; stderr: string}>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      closeSync(fd);
      resolve({code, stderr});
    });
  });
  return {stderr: () => stderr, done};
}

/** Waits until `ready()` holds, checking every 50 ms. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 50));
}

let holds = 0;

/** Starts a process that holds `store` for writing with a transaction open until `release()`; resolves once it holds it. */
async function holdStore(store: string): Promise<{release: () => Promise<void>}> {
  const signal = join(dirname(store), `release-${++holds}`);
  const child = spawn("npx", ["tsx", "test/helpers/hold-store.ts", store, signal], {cwd: REPO, stdio: ["ignore", "pipe", "inherit"]});
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("held") && resolve());
    child.on("close", (code) => reject(new Error(`hold-store exited with ${code} before holding the store`)));
  });
  return {
    release: async () => {
      writeFileSync(signal, "");
      await exited;
    },
  };
}

/** What a process says when it finds the live store held. */
const WAITING = "store: live.duckdb is in use by another process (an import or a judge run?); waiting up to 120 s for it to finish…";

/**
 * Runs `npx tsx <script> …args` while another process holds the live store:
 * it must say it waits, then finish once the store is free, with no lock error.
 */
async function runWhileHeld(live: string, script: string, args: string[], env: Record<string, string>, out: string): Promise<{code: number | null; stderr: string}> {
  const holder = await holdStore(live);
  const child = tsx(script, args, env, out);
  await until(() => child.stderr().includes(WAITING));
  await holder.release();
  const run = await child.done;
  expect(run.stderr).not.toContain("Could not set lock");
  return run;
}

/** Evaluated SOTOPIA episodes as the overview loader counts them, and rows of the explorer's episodes table, from their Parquet outputs. */
async function shippedCounts(dir: string): Promise<{overview: number; explorer: number}> {
  const probe = await openStore(join(dir, "probe.duckdb"));
  try {
    const [o] = await rows<{n: number}>(probe.conn, `SELECT episodes::INTEGER AS n FROM '${join(dir, "overview.parquet")}' WHERE section = 'benchmark' AND benchmark = 'sotopia'`);
    const [e] = await rows<{n: number}>(probe.conn, `SELECT count(*)::INTEGER AS n FROM '${join(dir, "episodes-table.parquet")}'`);
    return {overview: o.n, explorer: e.n};
  } finally {
    probe.close();
  }
}

const buildDirs = () => new Set(readdirSync(tmpdir()).filter((d) => d.startsWith("sociometer-build-")));

const episodes = (prefix: string, n: number) => jsonl(Array.from({length: n}, (_, i) => dumpRecord(`${prefix}-${i}`)));

describe("the site build's store", () => {
  let dir: string;
  let live: string;
  const savedDb = process.env.SOCIOMETER_DB;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sociometer-snapshot-"));
    live = join(dir, "live.duckdb");
    writeFileSync(join(dir, "first.jsonl"), episodes("first", 3));
    writeFileSync(join(dir, "later.jsonl"), episodes("later", 2));
    await runCli(["import", "sotopia", join(dir, "first.jsonl"), "--db", live, "--quiet"]);
  }, 120_000);

  afterAll(() => {
    if (savedDb === undefined) delete process.env.SOCIOMETER_DB;
    else process.env.SOCIOMETER_DB = savedDb;
    rmSync(dir, {recursive: true, force: true});
  });

  it("every loader of a build reads the copy taken at its start, though an import lands in between", async () => {
    const snapshot = await snapshotForBuild(join(dir, "cache"), live);
    expect(process.env.SOCIOMETER_DB).toBe(snapshot);
    expect(snapshot).not.toBe(live);
    expect(basename(snapshot)).toBe("live.duckdb");
    // The import between the copy and the loaders, as one landing while Framework runs them.
    await runCli(["import", "sotopia", join(dir, "later.jsonl"), "--db", live, "--quiet"]);
    const env = {SOCIOMETER_DB: process.env.SOCIOMETER_DB!};
    expect((await tsx("src/data/overview.parquet.ts", [], env, join(dir, "overview.parquet")).done).code).toBe(0);
    expect((await tsx("src/data/tables/[table].parquet.ts", ["--table=episodes"], env, join(dir, "episodes-table.parquet")).done).code).toBe(0);
    expect(await shippedCounts(dir)).toEqual({overview: 3, explorer: 3});
    // The live store did take the import: the next build shows 5.
    const store = await openStore(live, {readOnly: true});
    const [{n}] = await rows<{n: number}>(store.conn, "SELECT count(*)::INTEGER AS n FROM episodes");
    store.close();
    expect(n).toBe(5);
    // The build's process removes the copy when it exits; this test's worker does not exit, so the test does.
    expect(dirname(snapshot).startsWith(join(tmpdir(), "sociometer-build-"))).toBe(true);
    rmSync(dirname(snapshot), {recursive: true, force: true});
  }, 120_000);

  it("the copy waits while an import holds the store, and holds what it committed", async () => {
    const holder = await holdStore(live);
    const told: string[] = [];
    const copy = join(dir, "waited.duckdb");
    const copying = snapshotStore(live, copy, {onWait: (m) => told.push(m)});
    await until(() => told.length > 0);
    await holder.release();
    await copying;
    expect(told).toEqual([WAITING]);
    const store = await openStore(copy, {readOnly: true});
    const tables = await rows<{n: number}>(store.conn, "SELECT count(*)::INTEGER AS n FROM held_by_test");
    store.close();
    expect(tables).toEqual([{n: 1}]);
    expect(existsSync(`${copy}.wal`)).toBe(false);
  }, 60_000);

  it("a loader run while an import holds the store waits for it instead of failing on the lock", async () => {
    const run = await runWhileHeld(live, "src/data/overview.parquet.ts", [], {SOCIOMETER_DB: live}, join(dir, "overview-live.parquet"));
    expect(run.code).toBe(0);
  }, 60_000);

  it("an import started while another process holds the store waits for it, then lands", async () => {
    const file = join(dir, "late.jsonl");
    writeFileSync(file, episodes("late", 2));
    const run = await runWhileHeld(live, "loaders/cli/main.ts", ["import", "sotopia", file, "--db", live, "--quiet"], {}, join(dir, "late-import.out"));
    expect(run.code).toBe(0);
    const store = await openStore(live, {readOnly: true});
    try {
      expect(await rows(store.conn, "SELECT count(*)::INTEGER AS n FROM episodes WHERE episode_id LIKE 'late-%'")).toEqual([{n: 2}]);
    } finally {
      store.close();
    }
  }, 60_000);

  it("past the wait, a loader fails with a message naming the store and what to do, not DuckDB's lock error", async () => {
    const holder = await holdStore(live);
    const run = await tsx("src/data/overview.parquet.ts", [], {SOCIOMETER_DB: live, SOCIOMETER_LOCK_WAIT_SECONDS: "1"}, join(dir, "overview-late.parquet")).done;
    await holder.release();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/the store live\.duckdb is in use by another process \(an import or a judge run writing to it\), still after 1 s: let it finish and run again, or wait longer with SOCIOMETER_LOCK_WAIT_SECONDS/);
    expect(run.stderr).not.toContain("Could not set lock");
    expect(run.stderr).not.toContain(dir);
  }, 60_000);

  it("`npm run store` (before every build and dev) waits for a store an import holds", async () => {
    const run = await runWhileHeld(live, "scripts/ensure-store.ts", [], {SOCIOMETER_DB: live}, join(dir, "ensure.out"));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`store: ${live} (your data; left as it is)`);
  }, 60_000);

  it("a build started while an import holds the store waits for it, and ships one state though another import lands during the build", async () => {
    const buildStore = join(dir, "build.duckdb");
    await runCli(["import", "sotopia", join(dir, "first.jsonl"), "--db", buildStore, "--quiet"]);
    const before = buildDirs();
    const holder = await holdStore(buildStore);
    const build = buildSite(buildStore, join(dir, "site"));
    // The build's folder for its copy exists: it is about to open the store (the log shows that it waited).
    const fresh = () => [...buildDirs()].filter((d) => !before.has(d));
    await until(() => fresh().length > 0);
    await new Promise((r) => setTimeout(r, 1500));
    await holder.release();
    // Once the build has its copy, import more: the build's loaders are still to run.
    // Other builds may run meanwhile (other test files, other work on the machine): this build's copy is the one of build.duckdb.
    const ours = () => fresh().filter((d) => existsSync(join(tmpdir(), d, "build.duckdb")));
    await until(() => ours().length > 0);
    const copies = ours();
    await runCli(["import", "sotopia", join(dir, "later.jsonl"), "--db", buildStore, "--quiet"]);
    const {dist, log} = await build;
    expect(log).toContain("store: build.duckdb is in use by another process (an import or a judge run?); waiting up to 120 s for it to finish…");
    expect(log).not.toContain("Could not set lock");
    // The footer (the config), the overview and the explorer (loaders) all count the 3 episodes of the copy.
    expect(readFileSync(join(dist, "index.html"), "utf8")).toContain("3 episodes loaded");
    const manifestFile = readdirSync(join(dist, "_file", "data")).find((f) => f.startsWith("explorer-manifest."))!;
    const manifest = JSON.parse(readFileSync(join(dist, "_file", "data", manifestFile), "utf8")) as {tables: {name: string; rows: number}[]};
    expect(manifest.tables.find((t) => t.name === "episodes")?.rows).toBe(3);
    const probe = await openStore(join(dir, "probe-build.duckdb"));
    const [overview] = await rows<{n: number}>(probe.conn, `SELECT episodes::INTEGER AS n FROM '${join(dist, "data", "overview.parquet")}' WHERE section = 'benchmark' AND benchmark = 'sotopia'`);
    const [explorer] = await rows<{n: number}>(probe.conn, `SELECT count(*)::INTEGER AS n FROM '${join(dist, "data", "tables", "episodes.parquet")}'`);
    probe.close();
    expect({overview: overview.n, explorer: explorer.n}).toEqual({overview: 3, explorer: 3});
    // The copy is gone with the build.
    expect(copies.filter((d) => existsSync(join(tmpdir(), d)))).toEqual([]);
  }, 400_000);
});
