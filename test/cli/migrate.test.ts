// `sociometer migrate`, and what the other commands do with a store that is
// not at this version's schema: a clear refusal, never a Binder error, and
// read-only commands leave the store's bytes as they were.

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {migrationFiles} from "../../loaders/store/schema.js";
import {fileSha256, oldStore, pendingMigrationsMessage, readFile} from "../helpers/old-store.js";
import {cli} from "../helpers/cli.js";
import {tempDir} from "../helpers/store.js";


// The fixture store is at schema version 5: it lacks every later migration, and the latest names this version.
const AFTER_5 = migrationFiles().filter((m) => m.version > 5).map((m) => m.name).join(", ");
const LATEST = migrationFiles().at(-1)!;
const AT_LATEST = `schema version ${LATEST.version} (${LATEST.name})`;

const PENDING = `sociometer: ${pendingMigrationsMessage()}\n`;

describe("sociometer migrate", () => {
  it("upgrades a schema-version-5 store, says what it applied, and has nothing to do the second time", async () => {
    const db = await oldStore();
    const first = await cli(["migrate", "--db", db]);
    expect(first).toEqual({code: 0, stderr: "",
      stdout: `store ${db}: applied ${AFTER_5}; now at ${AT_LATEST}\n`});
    expect(await readFile(db, "SELECT list(version ORDER BY version) AS versions, count(sha256)::INTEGER AS hashed FROM schema_migrations"))
      .toEqual([{versions: migrationFiles().map((m) => m.version), hashed: migrationFiles().length}]);
    const before = fileSha256(db);
    const second = await cli(["migrate", "--db", db]);
    expect(second).toEqual({code: 0, stderr: "", stdout: `store ${db}: already at ${AT_LATEST}; nothing to apply\n`});
    expect(fileSha256(db)).toBe(before);
  });

  it("refuses a missing store rather than creating one", async () => {
    const db = join(tempDir(), "none.duckdb");
    expect(await cli(["migrate", "--db", db])).toEqual({code: 2, stdout: "",
      stderr: `sociometer: no store at ${db}; nothing to migrate (sociometer import creates one)\n`});
  });
});

describe("read-only commands on a store", () => {
  it("status and report refuse a store that needs migrating with the message saying so, and leave it as it was", async () => {
    const db = await oldStore();
    const before = fileSha256(db);
    expect(await cli(["status", "--db", db])).toEqual({code: 2, stdout: "", stderr: PENDING});
    expect(await cli(["report", "sotopia", "--db", db])).toEqual({code: 2, stdout: "", stderr: PENDING});
    expect(fileSha256(db)).toBe(before);
  });

  it("status and report leave a migrated store byte-identical", async () => {
    const db = await oldStore();
    expect((await cli(["migrate", "--db", db])).code).toBe(0);
    const before = fileSha256(db);
    const status = await cli(["status", "--db", db, "--format", "json"]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).raters).toEqual([{rater: "gpt-4", rater_kind: "llm", episodes: 2, scores: 3}]);
    expect((await cli(["report", "sotopia", "--db", db])).code).toBe(0);
    expect(fileSha256(db)).toBe(before);
  });
});
