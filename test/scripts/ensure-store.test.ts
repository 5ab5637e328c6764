// `npm run store` (scripts/ensure-store.ts) before a build: a store of the
// user's own data that needs migrating is left alone but refused up front,
// with what to do, instead of by the first data loader ("loader exited with code 1").

import {execFile} from "node:child_process";
import {promisify} from "node:util";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";
import {fileSha256, oldStore, pendingMigrationsMessage} from "../helpers/old-store.js";

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
});
