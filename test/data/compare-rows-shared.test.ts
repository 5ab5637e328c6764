// The Compare page's loaders stage each benchmark's rows once per build
// process (src/data/compare-rows.ts, through src/data/shared-query.ts): the
// SOTOPIA pack's loader and compare-summary.json read the same staged rows,
// which at a million episodes were most of either loader's CPU, computed twice.

import {readFileSync, symlinkSync} from "node:fs";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import {readCompareRows} from "../../loaders/cli/compare.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {COMPARE_COLUMNS, stageCompareRows} from "../../src/data/compare-rows.js";
import {runLoaders} from "../../src/data/site-cache.js";
import {COMPARE_BENCHMARKS} from "../../src/lib/compare.js";
import {REPO} from "../helpers/fixtures.js";
import {runLoaderAlone} from "../helpers/run-loader.js";
import {recordingStore} from "../helpers/recording-store.js";
import {tempDir, tempSamplesStore} from "../helpers/store.js";

const db = process.env.SOCIOMETER_DB;
afterEach(() => {
  if (db === undefined) delete process.env.SOCIOMETER_DB;
  else process.env.SOCIOMETER_DB = db;
});

const recording = (store: Store, ran: string[]): Store => recordingStore(store, ran, ["run"]);

describe("the compare rows, staged once per process", () => {
  it("stages SOTOPIA's rows once: a second staging in the same process reads them and runs none of their steps", async () => {
    const store = await tempSamplesStore();
    process.env.SOCIOMETER_DB = store.path;
    const first: string[] = [];
    await stageCompareRows(recording(store, first), ["sotopia"]);
    expect(first.filter((sql) => sql.includes("TEMP TABLE compare_sotopia_keyed"))).toHaveLength(1);

    const second: string[] = [];
    await stageCompareRows(recording(store, second), COMPARE_BENCHMARKS);
    expect(second.filter((sql) => sql.includes("compare_sotopia_"))).toEqual([]);
    // The other benchmarks were staged now, once each.
    expect(second.filter((sql) => sql.includes("TEMP TABLE ib_compare"))).toHaveLength(1);

    // What the view holds is what the CLI reads, in its order.
    const staged = await rows<Record<string, unknown>>(store.conn, `SELECT ${COMPARE_COLUMNS.join(", ")} FROM compare_rows WHERE benchmark = 'sotopia' ORDER BY seq`);
    const cli = await readCompareRows(store, "sotopia");
    expect(staged.length).toBe(cli.length);
    expect(staged.length).toBeGreaterThan(0);
    expect(staged).toEqual(cli.map((r) => Object.fromEntries(COMPARE_COLUMNS.map((c) => [c, r[c]]))));
  });

  it("writes the same bytes for the SOTOPIA pack and the summary in one build process as each loader alone", async () => {
    const store = await tempSamplesStore();
    store.close();
    const env = {...process.env, SOCIOMETER_DB: store.path, SOCIOMETER_LOADER_PROCESSES: "1"};
    const root = tempDir();
    symlinkSync(join(REPO, "src", "data"), join(root, "data"), "dir");
    const outputs = ["data/compare-rows-sotopia.bin", "data/compare-summary.json"];
    await runLoaders(root, outputs, env);
    for (const output of outputs) {
      const alone = await runLoaderAlone(`src/${output}.ts`, {env});
      expect(alone.length, output).toBeGreaterThan(1000);
      expect(readFileSync(join(root, ".observablehq", "cache", output)).equals(alone), output).toBe(true);
    }
  }, 120_000);
});
