// DuckDB locks a file per process, so a second instance of a store this
// process already has open would open without error and lose one side's
// writes when both close. openStore refuses it instead.

import {linkSync, symlinkSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {openStore, rows} from "../../loaders/store/db.js";
import {tempDir} from "../helpers/store.js";

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as Error);

describe("opening a store twice in one process", () => {
  it("refuses a second open while the first is open for writing, by any spelling of its path, and keeps the first's rows", async () => {
    const dir = tempDir();
    const path = join(dir, "store.duckdb");
    const first = await openStore(path);
    try {
      await first.conn.run("CREATE TABLE probe (x INTEGER); INSERT INTO probe VALUES (1)");
      const link = join(tempDir(), "link");
      symlinkSync(dir, link);
      for (const spelling of [path, join(dir, ".", "store.duckdb"), join(link, "store.duckdb")]) {
        const writer = await refusal(openStore(spelling));
        expect(writer?.message).toBe(
          `${spelling}: the store is already open for writing in this process; a second DuckDB instance of the same file would lose one side's writes. Use the open store, or close it first.`,
        );
        expect((await refusal(openStore(spelling, {readOnly: true})))?.message).toContain("already open for writing in this process");
      }
    } finally {
      first.close();
    }
    // Closed, it opens again, with the first instance's row.
    const again = await openStore(path);
    try {
      expect(await rows(again.conn, "SELECT x FROM probe")).toEqual([{x: 1}]);
    } finally {
      again.close();
    }
  });

  it("lets read-only opens share a file, refuses a writer beside them, and frees the file when the last closes", async () => {
    const path = join(tempDir(), "store.duckdb");
    (await openStore(path)).close();
    const a = await openStore(path, {readOnly: true});
    const b = await openStore(path, {readOnly: true});
    expect((await refusal(openStore(path)))?.message).toBe(
      `${path}: the store is already open read-only in this process; a second DuckDB instance of the same file would lose one side's writes. Use the open store, or close it first.`,
    );
    a.close();
    a.close();
    expect((await refusal(openStore(path)))?.message).toContain("already open read-only");
    b.close();
    const writer = await openStore(path);
    writer.close();
  });

  it("frees the claim when the open itself fails", async () => {
    const path = join(tempDir(), "missing", "store.duckdb");
    expect(await refusal(openStore(path))).not.toBeNull();
    const dir = tempDir();
    const store = await openStore(join(dir, "store.duckdb"));
    store.close();
    // The failed path is not held: a second failure is DuckDB's own error again, not "already open".
    expect((await refusal(openStore(path)))?.message).not.toContain("already open");
  });
});

describe("opening a store twice by names that are not one path", () => {
  it("refuses a hard link to a store open for writing, and a writer through a hard link beside a read-only open", async () => {
    const dir = tempDir();
    const path = join(dir, "store.duckdb");
    const first = await openStore(path);
    const hardLink = join(tempDir(), "other-name.duckdb");
    try {
      await first.conn.run("CREATE TABLE probe (x INTEGER); INSERT INTO probe VALUES (1)");
      linkSync(path, hardLink);
      expect((await refusal(openStore(hardLink)))?.message).toBe(
        `${hardLink}: the store is already open for writing in this process; a second DuckDB instance of the same file would lose one side's writes. Use the open store, or close it first.`,
      );
    } finally {
      first.close();
    }
    const reader = await openStore(path, {readOnly: true});
    try {
      expect((await refusal(openStore(hardLink)))?.message).toContain("already open read-only in this process");
      const alsoReading = await openStore(hardLink, {readOnly: true});
      alsoReading.close();
    } finally {
      reader.close();
    }
    const again = await openStore(hardLink);
    try {
      expect(await rows(again.conn, "SELECT x FROM probe")).toEqual([{x: 1}]);
    } finally {
      again.close();
    }
  });

  it("refuses the target of a symlink that pointed at no file until the first open created it, and the other way round", async () => {
    const dir = tempDir();
    const target = join(dir, "store.duckdb");
    const link = join(tempDir(), "link.duckdb");
    symlinkSync(target, link);
    const throughLink = await openStore(link);
    try {
      expect((await refusal(openStore(target)))?.message).toContain("already open for writing in this process");
    } finally {
      throughLink.close();
    }
    const otherTarget = join(tempDir(), "store.duckdb");
    const danglingLink = join(tempDir(), "link.duckdb");
    symlinkSync(otherTarget, danglingLink);
    const direct = await openStore(otherTarget);
    try {
      expect((await refusal(openStore(danglingLink)))?.message).toContain("already open for writing in this process");
    } finally {
      direct.close();
    }
  });
});
