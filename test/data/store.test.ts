// The data loaders' shared store opening (src/data/store.ts withStore), run as
// Framework runs a loader: a store that needs migrating stops the loader with
// the message saying what to do, not a Binder error from its query.

import {execFile} from "node:child_process";
import {existsSync} from "node:fs";
import {basename, dirname, join} from "node:path";
import {promisify} from "node:util";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";
import {fileSha256, oldStore, pendingMigrationsMessage} from "../helpers/old-store.js";
import {tempDir} from "../helpers/store.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {LOADER_MEMORY_LIMIT, withStore} from "../../src/data/store.js";

const run = promisify(execFile);

describe("data loaders on a store at an older schema", () => {
  it("exit 1 with the migrate message, naming the store by file name only, and leave it as it was", async () => {
    const db = await oldStore();
    const before = fileSha256(db);
    const result = await run("npx", ["tsx", "src/data/ratings.parquet.ts"], {cwd: REPO, env: {...process.env, SOCIOMETER_DB: db}, encoding: "buffer"})
      .then(() => ({code: 0, stdout: Buffer.alloc(0), stderr: ""}), (e: {code: number; stdout: Buffer; stderr: Buffer}) => ({code: e.code, stdout: e.stdout, stderr: e.stderr.toString("utf8")}));
    expect(result.code).toBe(1);
    expect(result.stdout.length).toBe(0);
    // npx may add its own warnings: the loader's message is the last line.
    expect(result.stderr.trim().split("\n").at(-1)).toBe(pendingMigrationsMessage());
    expect(result.stderr).not.toContain(db);
    expect(fileSha256(db)).toBe(before);
  });
});

describe("withStore: a loader's DuckDB memory", () => {
  it("is limited to LOADER_MEMORY_LIMIT (1 GiB), spilling to a temporary folder of its own that is gone afterwards", async () => {
    const dir = tempDir();
    const db = join(dir, "store.duckdb");
    (await openStore(db)).close();
    const saved = process.env.SOCIOMETER_DB;
    process.env.SOCIOMETER_DB = db;
    try {
      const seen = await withStore((s) => rows<{limit: string; spill: string}>(s.conn,
        "SELECT current_setting('memory_limit') AS limit, current_setting('temp_directory') AS spill"));
      expect(LOADER_MEMORY_LIMIT).toBe("1GiB");
      expect(seen[0]!.limit).toBe("1.0 GiB");
      expect(basename(seen[0]!.spill)).toMatch(/^sociometer-spill-/);
      expect(dirname(seen[0]!.spill)).not.toBe(dir);
      expect(existsSync(seen[0]!.spill)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.SOCIOMETER_DB;
      else process.env.SOCIOMETER_DB = saved;
    }
  });
});
