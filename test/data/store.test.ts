// The data loaders' shared store opening (src/data/store.ts withStore), run as
// Framework runs a loader: a store that needs migrating stops the loader with
// the message saying what to do, not a Binder error from its query.

import {execFile} from "node:child_process";
import {promisify} from "node:util";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";
import {fileSha256, oldStore, pendingMigrationsMessage} from "../helpers/old-store.js";

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
