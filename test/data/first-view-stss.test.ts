// The STSS first view computed one (model, architecture) at a time (the
// loader, stssFirstViewByParts) is the view computed from every conversation
// row at once (stssFirstView, what the loader wrote before), to the byte of its
// JSON: on the samples and on the samples with nine more copies of their logs.

import {readFileSync} from "node:fs";
import {createRequire} from "node:module";
import {join} from "node:path";
import initParquet, {readParquet} from "parquet-wasm/esm";
import {beforeAll, describe, expect, it} from "vitest";
import {STSS_CONVERSATIONS_SQL, STSS_RUNS_ACROSS_PAIRS_SQL, STSS_RUNS_SQL, STSS_TASKS_SQL} from "../../loaders/queries/stss.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {exportQuery} from "../../loaders/store/export.js";
import {readStssFirstView, stssData, stssFirstView} from "../../src/client/stss.js";
import {decodeIpcRows, decodePack, encodeView, type Row} from "../../src/client/tables.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempDir} from "../helpers/store.js";
import {copySamplesStore} from "../helpers/shared-stores.js";

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

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  await initParquet({module_or_path: readFileSync(require.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"))});
});

describe("the STSS first view read one (model, architecture) at a time", () => {
  for (const [label, copies, conversations] of [["the samples", 0, 2176], ["ten times the samples", 9, 21760]] as const) {
    it(`is the view of every row at once, byte for byte, on ${label} (${conversations.toLocaleString("en-US")} conversation rows)`, async () => {
      const dir = tempDir();
      const storePath = join(dir, "store.duckdb");
      await copySamplesStore(storePath, copies);
      const store = await openStore(storePath, {readOnly: true});
      try {
        expect(await rows(store.conn, STSS_RUNS_ACROSS_PAIRS_SQL)).toEqual([{runs: 0}]);
        // More than one pair, so the parts are more than one.
        expect(await rows(store.conn, `SELECT count(DISTINCT (model, architecture))::INTEGER AS pairs FROM (${STSS_CONVERSATIONS_SQL})`)).toEqual([{pairs: 8}]);
      } finally {
        store.close();
      }
      const whole = stssFirstView(stssData({
        stss_conversations: await decodedRows(storePath, dir, STSS_CONVERSATIONS_SQL, "conversations"),
        stss_runs: await decodedRows(storePath, dir, STSS_RUNS_SQL, "runs"),
        stss_tasks: await decodedRows(storePath, dir, STSS_TASKS_SQL, "tasks"),
      }));
      expect(whole.conversations).toBe(conversations);
      const pack = decodePack(new Uint8Array(await runLoaderInProcess(join("src", "data", "stss-first-view.bin.ts"), {store: storePath})), "stss-first-view.bin");
      expect(pack.stss_first![0]!.view).toBe(decodeIpcRows(encodeView(whole))[0]!.view);
      expect(readStssFirstView(pack as never)).toEqual(whole);
    }, 300_000);
  }

  it("is the view of no rows on a store without STSS data (no parts at all)", async () => {
    const dir = tempDir();
    const storePath = join(dir, "empty.duckdb");
    (await openStore(storePath)).close();
    const whole = stssFirstView(stssData({stss_conversations: [], stss_runs: [], stss_tasks: []}));
    const pack = decodePack(new Uint8Array(await runLoaderInProcess(join("src", "data", "stss-first-view.bin.ts"), {store: storePath})), "stss-first-view.bin");
    expect(pack.stss_first![0]!.view).toBe(decodeIpcRows(encodeView(whole))[0]!.view);
    expect(whole.views.modelChoices).toEqual([]);
  }, 60_000);
});
