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
import {loaderMemoryLimit, withStore} from "../../src/data/store.js";

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
  async function settingsWith(memory: string | undefined) {
    const dir = tempDir();
    const db = join(dir, "store.duckdb");
    (await openStore(db)).close();
    const saved = {db: process.env.SOCIOMETER_DB, memory: process.env.SOCIOMETER_LOADER_MEMORY};
    process.env.SOCIOMETER_DB = db;
    if (memory === undefined) delete process.env.SOCIOMETER_LOADER_MEMORY;
    else process.env.SOCIOMETER_LOADER_MEMORY = memory;
    try {
      const [seen] = await withStore((s) => rows<{limit: string; spill: string}>(s.conn,
        "SELECT current_setting('memory_limit') AS limit, current_setting('temp_directory') AS spill"));
      return {...seen!, dir};
    } finally {
      for (const [key, value] of [["SOCIOMETER_DB", saved.db], ["SOCIOMETER_LOADER_MEMORY", saved.memory]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }

  it("is capped by SOCIOMETER_LOADER_MEMORY, spilling to a temporary folder of its own that is gone afterwards", async () => {
    const seen = await settingsWith("1GiB");
    expect(seen.limit).toBe("1.0 GiB");
    expect(basename(seen.spill)).toMatch(/^sociometer-spill-/);
    expect(dirname(seen.spill)).not.toBe(seen.dir);
    expect(existsSync(seen.spill)).toBe(false);
  });

  it("is capped at 1 GiB when SOCIOMETER_LOADER_MEMORY is unset, and refuses an amount it cannot read", async () => {
    expect((await settingsWith(undefined)).limit).toBe("1.0 GiB");
    expect((await settingsWith("1500MB")).limit).toBe("1.3 GiB");
    expect(() => loaderMemoryLimit({SOCIOMETER_LOADER_MEMORY: "1GiB'; SELECT 1; --"})).toThrow(
      `SOCIOMETER_LOADER_MEMORY: expected an amount such as 1GiB or 1500MB, got "1GiB'; SELECT 1; --"`);
    expect(loaderMemoryLimit({SOCIOMETER_LOADER_MEMORY: " 1500MB "})).toBe("1500MB");
    expect(loaderMemoryLimit({})).toBe("1GiB");
  });
});
