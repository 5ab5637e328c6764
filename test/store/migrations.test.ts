// Stores that upgrade: landed migrations never change (their hashes are
// committed), an old store opens and is brought up to date in one go, and a
// store this version cannot use is refused with what to do, never a Binder error.

import {createHash} from "node:crypto";
import {readdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {migrationFiles} from "../../loaders/store/schema.js";
import {openStore, rows, StoreVersionError} from "../../loaders/store/db.js";
import {COMMITTED_HASHES_PATH} from "../../loaders/store/schema.js";
import {ALL_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {REPO} from "../helpers/fixtures.js";
import {fileSha256, oldStore, onFile, pendingMigrationsMessage, readFile} from "../helpers/old-store.js";
import {tempDir} from "../helpers/store.js";

const MIGRATIONS = join(REPO, "loaders", "store", "migrations");
const committed = JSON.parse(readFileSync(COMMITTED_HASHES_PATH, "utf8")) as Record<string, string>;

// The fixture store is at schema version 5: it lacks every later migration, and the latest names this version.
const AFTER_5 = migrationFiles().filter((m) => m.version > 5).map((m) => m.name);
const LATEST = migrationFiles().at(-1)!;

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as Error);

describe("landed migrations", () => {
  it("each file has exactly the hash committed in hashes.json (a landed migration is never edited; add a new one)", () => {
    const files = readdirSync(MIGRATIONS).filter((f) => f.endsWith(".sql")).sort();
    expect(Object.keys(committed).sort()).toEqual(files);
    for (const file of files) {
      const text = readFileSync(join(MIGRATIONS, file), "utf8").replace(/\r\n/g, "\n");
      expect(createHash("sha256").update(text).digest("hex"), file).toBe(committed[file]);
    }
  });

  it("keeps the hashes of 001..010 as they landed", () => {
    // Written out so that regenerating hashes.json after an edit still fails here.
    expect(committed["001_core.sql"]).toBe("08c4897d496d61eef48554f455477912c19d23d8d74d394d4ec4279df2af4196");
    expect(committed["002_hsii.sql"]).toBe("7ff0fa72607c6439049b8b73981c27a7e45cc5ddaec6dd4d895691524ca5b7b5");
    expect(committed["003_stss.sql"]).toBe("b2cce89b7982e8abac76eb74837f17f0528f7eb39768c7e7fffa920c101b7470");
    expect(committed["004_informativebench.sql"]).toBe("292529ab0f8f9ceed4f8cc447ae54bc04af12aa56f7105eda473b4d9aaf0d44e");
    expect(committed["005_runs.sql"]).toBe("58d4edb395af6b3222da35a2eaa074705fca453acc5dd582314bf53d9f8e38ab");
    expect(committed["006_judge_batches.sql"]).toBe("caf2e2197b7ee95bb699459d4ba1cd28d7be7ae56360d3d7a5a4c3761fec10df");
    expect(committed["007_migration_hashes.sql"]).toBe("eb2897a1a95232897306fe5c9a0279164efb581dc0742cd7402a75835fc8597f");
    expect(committed["008_model_names.sql"]).toBe("2ddb3eb02fd566f6945aabccaf1549830aa9f8db9e85512df2f0aa67667a7f5f");
    expect(committed["009_spoken_words.sql"]).toBe("f6dfd66ac70342ac498a6c2fed0a44e30020f755330d895e803d5ed51ea70588");
    expect(committed["010_reader_versions.sql"]).toBe("cc17fae76d44fbdb64fecc991b81ff09a6e594e7113b1bacbfbf8dec47d578b7");
  });
});

describe("opening a store made at schema version 5", () => {
  it("upgrades it read-write: applies 006 and every later migration, records every hash, keeps its rows, refreshes dimensions", async () => {
    const path = await oldStore();
    // A table of the user's own is no sign of an edited migration.
    await onFile(path, "CREATE TABLE my_notes (note VARCHAR)");
    const store = await openStore(path);
    try {
      expect(store.migrated).toEqual(AFTER_5);
      expect(AFTER_5.slice(0, 2)).toEqual(["006_judge_batches.sql", "007_migration_hashes.sql"]);
      const applied = await rows<{version: number; name: string; sha256: string}>(store.conn, "SELECT version, name, sha256 FROM schema_migrations ORDER BY version");
      expect(applied.map((m) => m.version)).toEqual(migrationFiles().map((m) => m.version));
      for (const m of applied) expect(m.sha256, m.name).toBe(committed[m.name]);
      expect(await rows(store.conn, "SELECT episode_id, agent, value FROM ratings ORDER BY ALL")).toEqual([
        {episode_id: "ep-old-1", agent: 1, value: 8},
        {episode_id: "ep-old-1", agent: 2, value: 7},
        {episode_id: "ep-old-2", agent: 1, value: 3},
      ]);
      expect(await rows(store.conn, "SELECT count(*)::INTEGER AS n FROM judge_batches")).toEqual([{n: 0}]);
      const dims = await rows<{name: string}>(store.conn, "SELECT name FROM dimensions WHERE benchmark = 'sotopia' AND dimension = 'goal'");
      expect(dims).toEqual([{name: "Goal completion"}]);
      expect(await rows(store.conn, "SELECT count(*)::INTEGER AS n FROM dimensions")).toEqual([{n: ALL_DIMENSIONS.length}]);
    } finally {
      store.close();
    }
    const again = await openStore(path);
    again.close();
    expect(again.migrated).toEqual([]);
  });

  it("refuses it read-only (as the site's loaders open it) with what to do, and leaves the file as it was", async () => {
    const path = await oldStore();
    const before = fileSha256(path);
    const error = await refusal(openStore(path, {readOnly: true}));
    expect(error).toBeInstanceOf(StoreVersionError);
    expect(error!.message).toBe(pendingMigrationsMessage());
    expect(fileSha256(path)).toBe(before);
  });

  it("refuses a store with a migration this version does not know (999), naming its version and its sources", async () => {
    const path = await oldStore();
    await onFile(path, "INSERT INTO schema_migrations VALUES (999, '999_future.sql', now())");
    for (const readOnly of [false, true]) {
      const error = await refusal(openStore(path, {readOnly}));
      expect(error).toBeInstanceOf(StoreVersionError);
      expect(error!.message).toBe(
        "store old.duckdb is at schema version 999 (999_future.sql), newer than this sociometer, which knows up to " +
          `schema version ${LATEST.version} (${LATEST.name}): it does not know 999_future.sql. Open the store with the sociometer ` +
          "that wrote it, or rebuild it with this one by importing its sources into a new store (--db NEW_FILE). " +
          "Its 1 source file(s), by format: sociometer import sotopia old-episodes.jsonl.",
      );
    }
    // Refused before anything was applied: 006 and 007 are still missing.
    expect(await readFile(path, "SELECT list(version ORDER BY version) AS versions FROM schema_migrations")).toEqual([{versions: [1, 2, 3, 4, 5, 999]}]);
    expect(await readFile(path, "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'judge_batches'")).toEqual([{n: 0}]);
  });

  it("lists the first 20 sources of a refused store by format and counts the rest", async () => {
    const path = await oldStore();
    await onFile(path, `
      INSERT INTO sources SELECT 'hsii-' || i, '/data/hsii/run-' || lpad(i::VARCHAR, 2, '0') || '.jsonl', 'hsii', 'x', 1, now(), 1, 0, NULL FROM range(21) t(i);
      INSERT INTO schema_migrations VALUES (999, '999_future.sql', now());`);
    const error = await refusal(openStore(path, {readOnly: true}));
    const hsii = Array.from({length: 20}, (_, i) => `run-${String(i).padStart(2, "0")}.jsonl`).join(" ");
    // By format, then path: the 21 hsii files come before the fixture's sotopia one, and the last of them is counted.
    expect(error!.message.endsWith(`(--db NEW_FILE). Its 22 source file(s), by format: sociometer import hsii ${hsii} (and 2 more, in its sources table).`)).toBe(true);
  });

  it("refuses a store made before hashes whose tables show a migration edited since, before applying anything", async () => {
    const path = await oldStore();
    // As if 002 had gained hsii_judgments.rationale and 001 had changed ratings.value's type after the store was made.
    await onFile(path, "ALTER TABLE hsii_judgments DROP COLUMN rationale; ALTER TABLE ratings ALTER value TYPE INTEGER");
    const error = await refusal(openStore(path));
    expect(error).toBeInstanceOf(StoreVersionError);
    expect(error!.message).toBe(
      "store old.duckdb, at schema version 5 (005_runs.sql), was made with migrations that have changed since: " +
        "table hsii_judgments lacks column rationale VARCHAR (002_hsii.sql); column ratings.value is INTEGER, not DOUBLE (001_core.sql). " +
        "`sociometer migrate` cannot repair that; rebuild the store by importing its sources into a new store (--db NEW_FILE). " +
        "Its 1 source file(s), by format: sociometer import sotopia old-episodes.jsonl.",
    );
    expect(await readFile(path, "SELECT list(version ORDER BY version) AS versions FROM schema_migrations")).toEqual([{versions: [1, 2, 3, 4, 5]}]);
  });

  it("applies the pending migrations in one transaction: when 006 fails, 007 is not applied either", async () => {
    const path = await oldStore();
    // A view, not a table: the schema check compares tables, so only 006 itself trips over it.
    await onFile(path, "CREATE VIEW judge_batches AS SELECT 1 AS batch_id");
    const error = await refusal(openStore(path));
    expect(error!.message).toMatch(/^migrating store old\.duckdb failed at 006_judge_batches\.sql: Catalog Error: View with name "judge_batches" already exists.*\(store unchanged: no migration applied\)$/s);
    expect(await readFile(path, "SELECT list(version ORDER BY version) AS versions FROM schema_migrations")).toEqual([{versions: [1, 2, 3, 4, 5]}]);
    expect(await readFile(path, "SELECT count(*)::INTEGER AS n FROM duckdb_columns() WHERE table_name = 'schema_migrations' AND column_name = 'sha256'")).toEqual([{n: 0}]);
  });

  it("refuses a store whose recorded hash of 002 differs from the file, read-write and read-only", async () => {
    const path = await oldStore();
    (await openStore(path)).close();
    await onFile(path, `UPDATE schema_migrations SET sha256 = '${"0".repeat(64)}' WHERE version = 2`);
    for (const readOnly of [false, true]) {
      const error = await refusal(openStore(path, {readOnly}));
      expect(error).toBeInstanceOf(StoreVersionError);
      expect(error!.message).toBe(
        `store old.duckdb, at schema version ${LATEST.version} (${LATEST.name}), recorded migration 002_hsii.sql with sha256 ` +
          "000000000000…, but this sociometer's 002_hsii.sql has sha256 7ff0fa72607c…: the migration changed after the " +
          "store was made, so its tables may not be what this version expects. `sociometer migrate` cannot repair that; " +
          "rebuild the store by importing its sources into a new store (--db NEW_FILE). " +
          "Its 1 source file(s), by format: sociometer import sotopia old-episodes.jsonl.",
      );
    }
  });
});

describe("opening a store made at schema version 9 (before reader versions)", () => {
  it("applies 010 alone; its sources count as read by version 1, so a SOTOPIA log is re-read on its next import and an HSII file stays unchanged", async () => {
    const dir = tempDir();
    const path = join(dir, "v9.duckdb");
    const log = join(dir, "log.jsonl");
    writeFileSync(log, jsonl([dumpRecord("ep-1")]));
    const hsii = join(REPO, "data", "samples", "hsii", "runs.jsonl");
    const made = await openStore(path);
    try {
      await importFiles(made, "sotopia", [log]);
      await importFiles(made, "hsii", [hsii]);
    } finally {
      made.close();
    }
    // What 009 left: no source_readers table, no record of 010.
    await onFile(path, "DROP TABLE source_readers; DELETE FROM schema_migrations WHERE version = 10");

    const store = await openStore(path);
    try {
      expect(store.migrated).toEqual(["010_reader_versions.sql"]);
      expect(await rows(store.conn, "SELECT count(*)::INTEGER AS n FROM source_readers")).toEqual([{n: 0}]);
      expect(await rows(store.conn, "SELECT version, sha256 FROM schema_migrations WHERE version = 10")).toEqual([
        {version: 10, sha256: committed["010_reader_versions.sql"]},
      ]);
      const sotopia = await importFiles(store, "sotopia", [log]);
      expect(sotopia.files.map((f) => [f.status, f.notes])).toEqual([
        ["replaced", ["re-read: the sotopia reader changed since this file was imported (version 1 → 2)"]],
      ]);
      expect(sotopia.episodes).toBe(1);
      const unchanged = await importFiles(store, "hsii", [hsii]);
      expect(unchanged.files.map((f) => [f.status, f.notes])).toEqual([["unchanged", []]]);
      expect(await rows(store.conn, "SELECT s.format, r.reader_version FROM sources s LEFT JOIN source_readers r USING (source_id) ORDER BY 1")).toEqual([
        {format: "hsii", reader_version: null},
        {format: "sotopia", reader_version: 2},
      ]);
    } finally {
      store.close();
    }
  });
});

describe("a current store", () => {
  it("stays byte-identical through a read-write open and close (dimensions are rewritten only when they differ)", async () => {
    const path = join(tempDir(), "current.duckdb");
    (await openStore(path)).close();
    const before = fileSha256(path);
    const store = await openStore(path);
    store.close();
    expect(store.migrated).toEqual([]);
    expect(fileSha256(path)).toBe(before);
  });

  it("rewrites dimensions when they differ from the metric library", async () => {
    const path = join(tempDir(), "stale.duckdb");
    (await openStore(path)).close();
    await onFile(path, "UPDATE dimensions SET name = 'Old name' WHERE benchmark = 'sotopia' AND dimension = 'goal'");
    const store = await openStore(path);
    try {
      expect(await rows(store.conn, "SELECT name FROM dimensions WHERE benchmark = 'sotopia' AND dimension = 'goal'")).toEqual([{name: "Goal completion"}]);
    } finally {
      store.close();
    }
  });
});
