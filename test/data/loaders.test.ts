// The data loaders of src/data, run as Framework runs them (tsx, Parquet on
// stdout) against a store filled through the CLI: what they ship, what they
// cap, and that no absolute path leaves the store.

import {spawn} from "node:child_process";
import {closeSync, mkdtempSync, openSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {DuckDBInstance, type DuckDBConnection} from "@duckdb/node-api";
import {afterAll, beforeAll, expect, it} from "vitest";
import {rows} from "../../loaders/store/db.js";
import {VIEWER_LIMIT} from "../../src/data/store.js";
import {runCli} from "../browser/helpers.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {describeWithFixtures, FIXTURES, fixture, REPO} from "../helpers/fixtures.js";

const LOADERS = ["overview", "sotopia-stats", "episodes", "participants", "messages", "ratings"] as const;
const FILLER = VIEWER_LIMIT + 1; // with the fixture's 20, the store holds more than the viewer ships

/** Runs one loader with SOCIOMETER_DB set, its stdout into `out`. */
function runLoader(name: string, store: string, out: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const fd = openSync(out, "w");
    const child = spawn("npx", ["tsx", `src/data/${name}.parquet.ts`], {
      cwd: REPO,
      env: {...process.env, SOCIOMETER_DB: store},
      stdio: ["ignore", fd, "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      closeSync(fd);
      if (code === 0) resolvePromise();
      else reject(new Error(`loader ${name} exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

describeWithFixtures("data loaders", () => {
  let dir: string;
  let db: DuckDBInstance;
  let conn: DuckDBConnection;
  const parquet = (name: string) => `'${join(dir, `${name}.parquet`)}'`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sociometer-loaders-"));
    const store = join(dir, "store.duckdb");
    const filler = join(dir, "filler.jsonl");
    writeFileSync(filler, jsonl(Array.from({length: FILLER}, (_, i) => dumpRecord(`ep-${String(i).padStart(5, "0")}`))));
    await runCli(["import", "sotopia", fixture("sotopia-lab__sotopia-rl", "example_episodes.jsonl"), filler, "--db", store, "--quiet"]);
    await Promise.all(LOADERS.map((name) => runLoader(name, store, join(dir, `${name}.parquet`))));
    db = await DuckDBInstance.create(":memory:");
    conn = await db.connect();
  }, 180_000);

  afterAll(() => {
    conn?.closeSync();
    db?.closeSync();
    if (dir) rmSync(dir, {recursive: true, force: true});
  });

  it("never ship an absolute path: sources are named by file name only", async () => {
    const sources = await rows<{name: string}>(conn, `SELECT name FROM ${parquet("overview")} WHERE section = 'source' ORDER BY name`);
    expect(sources.map((s) => s.name)).toEqual(["example_episodes.jsonl", "filler.jsonl"]);
    for (const name of LOADERS) {
      const columns = await rows<{column_name: string; column_type: string}>(conn, `DESCRIBE SELECT * FROM ${parquet(name)}`);
      for (const {column_name} of columns.filter((c) => c.column_type === "VARCHAR")) {
        const [{leaks}] = await rows<{leaks: number}>(
          conn,
          `SELECT count(*) AS leaks FROM ${parquet(name)} WHERE contains("${column_name}", $1) OR contains("${column_name}", $2) OR contains("${column_name}", $3)`,
          [dir, FIXTURES, REPO],
        );
        expect(leaks, `${name}.${column_name}`).toBe(0);
      }
    }
  });

  it("ship the viewer's first VIEWER_LIMIT SOTOPIA episodes by id, and count them all in the overview", async () => {
    const [{total}] = await rows<{total: number}>(conn, `SELECT episodes AS total FROM ${parquet("overview")} WHERE section = 'benchmark' AND name = 'sotopia'`);
    expect(total).toBe(FILLER + 20);
    const [{n, last}] = await rows<{n: number; last: string}>(conn, `SELECT count(*) AS n, max(episode_id) AS last FROM ${parquet("episodes")}`);
    expect(n).toBe(VIEWER_LIMIT);
    // The fixture's ids ("01H…") sort before the filler's ("ep-…"): the cut falls in the filler.
    expect(last).toBe(`ep-${String(VIEWER_LIMIT - 20 - 1).padStart(5, "0")}`);
    for (const name of ["participants", "messages", "ratings"]) {
      const [{outside}] = await rows<{outside: number}>(
        conn,
        `SELECT count(*) AS outside FROM ${parquet(name)} WHERE episode_id NOT IN (SELECT episode_id FROM ${parquet("episodes")})`,
      );
      expect(outside, name).toBe(0);
    }
  });

  it("ship the SOTOPIA statistics with every rater's rows", async () => {
    const raters = await rows<{rater: string; rater_kind: string}>(conn, `SELECT DISTINCT rater, rater_kind FROM ${parquet("sotopia-stats")} ORDER BY rater`);
    expect(raters).toEqual([
      {rater: "gpt-4", rater_kind: "llm"},
      {rater: "judge-x", rater_kind: "llm"},
    ]);
  });
});
