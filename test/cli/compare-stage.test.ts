// The compare rows' queries staged in steps (loaders/cli/compare-stage.ts),
// as `sociometer compare` and the Compare page's loaders run them: the same
// rows in the same order as the query run whole, on a read-only store, with
// nothing left behind.

import {existsSync, mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {boundCompareMemory, COMPARE_QUERIES, withStagedQuery} from "../../loaders/cli/compare-stage.js";
import {readCompareRows} from "../../loaders/cli/compare.js";
import {oneQuery, SOTOPIA_COMPARE_SQL} from "../../loaders/queries/compare.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "sociometer-compare-stage-"));
  const writable = await openSamplesCopy(join(dir, "samples.duckdb"));
  writable.close();
  store = await openStore(join(dir, "samples.duckdb"), {readOnly: true});
}, 120_000);

afterAll(() => {
  store?.close();
  rmSync(dir, {recursive: true, force: true});
});

const tempTables = async () => (await rows<{name: string}>(store.conn, "SELECT table_name AS name FROM duckdb_tables() WHERE temporary ORDER BY name")).map((t) => t.name);

describe("the SOTOPIA compare rows staged in steps", () => {
  it("are the rows of the query run whole, in its order, on a read-only store, and leave no temporary table behind", async () => {
    const whole = await rows<Record<string, unknown>>(store.conn, SOTOPIA_COMPARE_SQL);
    const staged = await withStagedQuery(store.conn, COMPARE_QUERIES.sotopia, async (sql) => {
      // Each step is a table while the last query runs.
      expect(await tempTables()).toEqual(["compare_sotopia_keyed", "compare_sotopia_overall", "compare_sotopia_scored"]);
      return rows<Record<string, unknown>>(store.conn, sql);
    });
    expect(await tempTables()).toEqual([]);
    const overall = staged.filter((r) => r.metric === "overall").length;
    // The samples' SOTOPIA scores: 7,770 dimension values, seven for each of 1,110 seat ratings, so 1,110 overall means;
    // and the annotators pooled (rater humans) on the 168 seats a human rated: 7 × 168 more values, 168 more means.
    expect([staged.length - overall, overall]).toEqual([7770 + 7 * 168, 1110 + 168]);
    expect(staged.filter((r) => r.rater === "humans" && r.metric === "overall").length).toBe(168);
    expect(staged).toEqual(whole);
    expect(SOTOPIA_COMPARE_SQL).toBe(oneQuery(COMPARE_QUERIES.sotopia));
    // The CLI's reader goes through the steps too.
    const read = await readCompareRows(store, "sotopia");
    expect(read.map((r) => [r.episode_id, r.metric, r.rater, r.run, r.value])).toEqual(whole.map((r) => [r.episode_id, r.metric, r.rater, r.run, r.value]));
  }, 60_000);

  it("drops the steps made so far when a step fails", async () => {
    const broken = {steps: [COMPARE_QUERIES.sotopia.steps[0], {name: "compare_broken", sql: "SELECT no_such_column FROM episodes"}], last: "SELECT 1"};
    await expect(withStagedQuery(store.conn, broken, async () => 1)).rejects.toThrow(/no_such_column/);
    expect(await tempTables()).toEqual([]);
  });
});

describe("boundCompareMemory", () => {
  it("caps DuckDB at 1 GiB and spills to a folder of its own, which it removes", async () => {
    const remove = await boundCompareMemory(store.conn);
    const [setting] = await rows<{limit: string; spill: string}>(store.conn, "SELECT current_setting('memory_limit') AS limit, current_setting('temp_directory') AS spill");
    expect(setting.limit).toBe("1.0 GiB");
    expect(setting.spill.startsWith(join(tmpdir(), "sociometer-compare-"))).toBe(true);
    expect(existsSync(setting.spill)).toBe(true);
    remove();
    expect(existsSync(setting.spill)).toBe(false);
  });
});
