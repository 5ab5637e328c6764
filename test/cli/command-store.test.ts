// A command never leaves behind a store it created for nothing: a failed first
// import, a judge with no store to read, a run that got no answer.

import {describe, expect, it} from "vitest";
import {existsSync} from "node:fs";
import {join} from "node:path";
import {openCommandStore, withCommandStore} from "../../loaders/cli/command-store.js";
import {openStore} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {tempDir} from "../helpers/store.js";

const gone = (db: string) => !existsSync(db) && !existsSync(`${db}.wal`);
const addSource = (store: Awaited<ReturnType<typeof openStore>>) =>
  store.conn.run("INSERT INTO sources (source_id, path, format, sha256, bytes, imported_at, rows) VALUES ('s1', 'x.jsonl', 'sotopia', 'ab', 2, now(), 0)");

describe("openCommandStore", () => {
  it("removes a store it created when nothing was written, even on success", async () => {
    const db = join(tempDir(), "new.duckdb");
    const {close} = await openCommandStore(db);
    expect(existsSync(db)).toBe(true);
    await close({failed: false});
    expect(gone(db)).toBe(true);
  });

  it("keeps a store it created once a row is written, and removes it on failure unless told to keep it", async () => {
    const dir = tempDir();
    for (const [keepOnFailure, failed, kept] of [[false, false, true], [true, true, true], [false, true, false]] as const) {
      const db = join(dir, `s-${keepOnFailure}-${failed}.duckdb`);
      const {store, close} = await openCommandStore(db, {keepOnFailure});
      await addSource(store);
      await close({failed});
      expect([keepOnFailure, failed, existsSync(db)]).toEqual([keepOnFailure, failed, kept]);
    }
  });

  it("never removes a store that was there before, failed or empty", async () => {
    const db = join(tempDir(), "old.duckdb");
    (await openStore(db)).close();
    await expect(withCommandStore(db, {}, async () => {
      throw new Error("boom");
    })).rejects.toThrow("boom");
    expect(existsSync(db)).toBe(true);
  });

  it("refuses a missing store with the command's own message when it must exist", async () => {
    const db = join(tempDir(), "none.duckdb");
    await expect(openCommandStore(db, {missing: "no store here"})).rejects.toThrow("no store here");
    expect(gone(db)).toBe(true);
  });
});

describe("commands on a store that does not exist", () => {
  it("judge says there is nothing to judge and creates no store", async () => {
    const db = join(tempDir(), "none.duckdb");
    const {code, stderr} = await cli(["judge", "sotopia-eval", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--db", db, "--quiet"]);
    expect(code).not.toBe(0);
    expect(stderr).toBe(`sociometer: no store at ${db}: a judge scores the episodes a store holds; ` +
      "import some first (sociometer import-samples, or sociometer import <format> FILE) or make some with sociometer run\n");
    expect(gone(db)).toBe(true);
  });

  it("run stss fails for want of tasks and leaves no store", async () => {
    const db = join(tempDir(), "none.duckdb");
    const {code, stderr} = await cli(["run", "stss", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--db", db, "--quiet"]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`the store at ${db} holds no STSS tasks`);
    expect(gone(db)).toBe(true);
  });
});
