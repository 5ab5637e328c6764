// `npm run store` (scripts/ensure-store.ts) before a build: a store of the
// user's own data that needs migrating is left alone but refused up front,
// with what to do, instead of by the first data loader ("loader exited with code 1").

import {execFile} from "node:child_process";
import {utimesSync} from "node:fs";
import {join} from "node:path";
import {pathToFileURL} from "node:url";
import {promisify} from "node:util";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";
import {fileSha256, oldStore, pendingMigrationsMessage} from "../helpers/old-store.js";
import {tempDir} from "../helpers/store.js";

const run = promisify(execFile);

describe("ensure-store", () => {
  it("refuses a store of the user's data at schema version 5 with the migrate message (exit 1), leaving it as it was", async () => {
    const db = await oldStore();
    const before = fileSha256(db);
    const error = await run("npx", ["tsx", "scripts/ensure-store.ts"], {cwd: REPO, env: {...process.env, SOCIOMETER_DB: db}})
      .then(() => null, (e: {code: number; stderr: string}) => e);
    expect(error?.code).toBe(1);
    const lines = error!.stderr.trim().split("\n");
    expect(lines.at(-2)).toBe(`store: ${db} (your data; left as it is)`);
    expect(lines.at(-1)).toBe(pendingMigrationsMessage());
    expect(fileSha256(db)).toBe(before);
  });

  it("skips the check, loading no DuckDB, while the store, samples and store code are as at the last check that passed", async () => {
    // Run from a folder of its own, so the note of the last check (under src/.observablehq/cache) is this test's.
    const cwd = tempDir();
    const db = join(cwd, "store.duckdb");
    const tsx = pathToFileURL(join(REPO, "node_modules", "tsx", "dist", "loader.mjs")).href;
    const store = async () => (await run(process.execPath, ["--import", tsx, join(REPO, "scripts", "ensure-store.ts")], {cwd, env: {...process.env, SOCIOMETER_DB: db}})).stderr;
    expect(await store()).toContain(`store: building ${db} from the bundled synthetic samples…\n`);
    const built = fileSha256(db);
    expect(await store()).toBe(`store: ${db} (unchanged since it was last checked, as are the samples and the store code)\n`);
    expect(fileSha256(db)).toBe(built);
    // A store touched since (an import would change it) is checked again.
    utimesSync(db, new Date(), new Date(Date.now() + 1000));
    expect(await store()).toBe(`store: ${db} (bundled samples; refreshing any that changed)\n`);
  });
});
