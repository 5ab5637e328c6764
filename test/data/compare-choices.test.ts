// The Compare page's choices and default sides (src/data/compare-choices.ts):
// two passes over the staged rows whatever the benchmarks, with the
// defaults the library finds from the rows themselves, and the pair counts
// over the rows' counts per keys, metric and task equal to those over the rows.

import {afterEach, describe, expect, it} from "vitest";
import {readCompareRows} from "../../loaders/cli/compare.js";
import {modelPairsSql} from "../../loaders/cli/compare-pairs.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {compareChoices} from "../../src/data/compare-choices.js";
import {stageCompareRows} from "../../src/data/compare-rows.js";
import {COMPARE_BENCHMARKS, defaultSides, type ModelPairCount} from "../../src/lib/compare.js";
import {recordingStore} from "../helpers/recording-store.js";
import {tempSamplesStore} from "../helpers/store.js";

const db = process.env.SOCIOMETER_DB;
afterEach(() => {
  if (db === undefined) delete process.env.SOCIOMETER_DB;
  else process.env.SOCIOMETER_DB = db;
});

const recording = (store: Store, ran: string[]): Store => recordingStore(store, ran, ["run", "runAndReadAll"]);

const sortPairs = (ps: ModelPairCount[]) => ps.slice().sort((x, y) => `${x.model_a}|${x.model_b}|${x.rater}`.localeCompare(`${y.model_a}|${y.model_b}|${y.rater}`));

describe("the Compare page's choices", () => {
  /** A store of the samples with every benchmark's rows staged. */
  const staged = async (): Promise<Store> => {
    const store = await tempSamplesStore();
    process.env.SOCIOMETER_DB = store.path;
    await stageCompareRows(store, COMPARE_BENCHMARKS);
    return store;
  };

  it("reads the staged rows twice, whatever the benchmarks, and finds the defaults the library finds from the rows", async () => {
    const store = await staged();
    const ran: string[] = [];
    const choices = await compareChoices(recording(store, ran));
    expect(ran.filter((sql) => /\bFROM compare_rows\b/.test(sql))).toHaveLength(2);
    expect(choices.length).toBeGreaterThan(2);
    for (const c of choices) {
      const fromRows = defaultSides(c.benchmark, await readCompareRows(store, c.benchmark));
      expect(c.defaults, c.benchmark).toEqual(fromRows);
    }
    // Nothing is left behind for the next loader of the process.
    expect(await rows(store.conn, "SELECT table_name FROM duckdb_tables() WHERE table_name = 'compare_keys'")).toEqual([]);
  }, 120_000);

  it("counts the same pairs of models from the rows' counts per keys, metric and task as over the rows, for every model and for two", async () => {
    const store = await staged();
    await store.conn.run("CREATE TEMP TABLE keys_here AS SELECT benchmark, model, rater, run, source, setting, memory, cot, metric, task, count(*) AS rows FROM compare_rows GROUP BY ALL");
    let compared = 0;
    for (const benchmark of COMPARE_BENCHMARKS) {
      const models = await rows<{model: string}>(store.conn, "SELECT DISTINCT model FROM compare_rows WHERE benchmark = ? AND model IS NOT NULL ORDER BY 1", [benchmark]);
      const ways: (string[] | null)[] = [null, models.slice(0, 2).map((m) => m.model)];
      for (const only of ways) {
        const n = only?.length ?? 0;
        const shared = await rows<ModelPairCount>(store.conn, modelPairsSql("SELECT * FROM keys_here WHERE benchmark = ?", n), [benchmark, ...(only ?? [])]);
        const overRows = await rows<ModelPairCount>(store.conn, modelPairsSql("SELECT * FROM compare_rows WHERE benchmark = ?", n), [benchmark, ...(only ?? [])]);
        expect(sortPairs(shared), `${benchmark} ${only}`).toEqual(sortPairs(overRows));
        compared += shared.length;
      }
    }
    expect(compared).toBeGreaterThan(0);
  }, 120_000);
});
