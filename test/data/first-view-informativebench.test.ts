// The InformativeBench first view computed one (backend, dataset) at a time
// (the loader, ibFirstViewByParts) is the view computed from every record at
// once (ibFirstView, what the loader wrote before), to the byte of its JSON: on
// the samples and on the samples with four more copies of their InformativeBench
// log.

import {readFileSync, rmSync, writeFileSync} from "node:fs";
import {createRequire} from "node:module";
import {join} from "node:path";
import initParquet, {readParquet} from "parquet-wasm/esm";
import {beforeAll, describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {IB_CONSENSUS_SQL, IB_PLAN_UPDATES_SQL, IB_RESULTS_SQL, IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {exportQuery} from "../../loaders/store/export.js";
import {REPLICATED, replicatedJsonl} from "../../scripts/samples/replicate.js";
import {ibFirstView, informativeBenchData, readIbFirstView} from "../../src/client/informativebench.js";
import {decodeIpcRows, decodePack, encodeView, type Row} from "../../src/client/tables.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempDir} from "../helpers/store.js";
import {openSamplesCopy} from "../helpers/shared-stores.js";

/** The samples plus `copies` more of the InformativeBench sample log. */
async function makeStore(path: string, dir: string, copies: number): Promise<void> {
  const store = await openSamplesCopy(path);
  try {
    if (copies > 0) {
      const entry = REPLICATED.find((e) => e.format === "informativebench")!;
      const file = join(dir, "informativebench-copies.jsonl");
      writeFileSync(file, replicatedJsonl(entry, copies));
      await importFiles(store, entry.format, [file], {});
      rmSync(file, {force: true});
    }
  } finally {
    store.close();
  }
}

/** The rows of `sql` as the loaders decode them: DuckDB's Parquet, read back by parquet-wasm into Arrow, then rows. */
async function decodedRows(storePath: string, dir: string, sql: string, name: string): Promise<Row[]> {
  const store = await openStore(storePath, {readOnly: true});
  try {
    const file = join(dir, `${name}.parquet`);
    await exportQuery(store.conn, sql, file, "parquet");
    return decodeIpcRows(readParquet(readFileSync(file)).intoIPCStream());
  } finally {
    store.close();
  }
}

/** The view as the loader wrote it before: every record, plan, consensus step and schedule at once. */
async function wholeView(storePath: string, dir: string) {
  return ibFirstView(informativeBenchData({
    ib_results: await decodedRows(storePath, dir, IB_RESULTS_SQL, "results"),
    ib_plans: await decodedRows(storePath, dir, IB_PLAN_UPDATES_SQL, "plans"),
    ib_consensus: await decodedRows(storePath, dir, IB_CONSENSUS_SQL, "consensus"),
    ib_schedules: await decodedRows(storePath, dir, IB_SCHEDULES_SQL, "schedules"),
  }));
}

const loader = join("src", "data", "informativebench-first-view.bin.ts");

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  await initParquet({module_or_path: readFileSync(require.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"))});
});

describe("the InformativeBench first view read one (backend, dataset) at a time", () => {
  for (const [label, copies, records, plans] of [["the samples", 0, 2336, 632], ["five times the samples", 4, 11680, 3160]] as const) {
    it(`is the view of every record at once, byte for byte, on ${label} (${records.toLocaleString("en-US")} records, ${plans} plans)`, async () => {
      const dir = tempDir();
      const storePath = join(dir, "store.duckdb");
      await makeStore(storePath, dir, copies);
      const store = await openStore(storePath, {readOnly: true});
      try {
        // Several backends and datasets, so the view is put together from 20 parts.
        expect(await rows(store.conn, `SELECT count(DISTINCT (model, dataset))::INTEGER AS parts FROM (${IB_RESULTS_SQL})`)).toEqual([{parts: 20}]);
        expect(await rows(store.conn, `SELECT count(*)::INTEGER AS plans FROM (SELECT DISTINCT episode_id, plan FROM ib_plan_updates)`)).toEqual([{plans}]);
      } finally {
        store.close();
      }
      const whole = await wholeView(storePath, dir);
      expect(whole.results).toBe(records);
      const pack = decodePack(new Uint8Array(await runLoaderInProcess(loader, {store: storePath})), "informativebench-first-view.bin");
      expect(pack.ib_first![0]!.view).toBe(decodeIpcRows(encodeView(whole))[0]!.view);
      expect(readIbFirstView(pack as never)).toEqual(whole);
    }, 120_000);
  }

  it("is the view of no records on a store without InformativeBench data (no parts at all)", async () => {
    const dir = tempDir();
    const storePath = join(dir, "empty.duckdb");
    (await openStore(storePath)).close();
    const whole = await wholeView(storePath, dir);
    const pack = decodePack(new Uint8Array(await runLoaderInProcess(loader, {store: storePath})), "informativebench-first-view.bin");
    expect(pack.ib_first![0]!.view).toBe(decodeIpcRows(encodeView(whole))[0]!.view);
    expect(whole.table).toEqual({models: [], columns: [], cells: []});
  }, 60_000);
});
