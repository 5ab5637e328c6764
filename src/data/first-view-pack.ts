// A page's first view ships as one pack: every table the page draws from, as
// Arrow IPC streams that the browser decodes with flechette alone
// (src/client/tables.ts), so no page fetches and compiles parquet-wasm's 5 MB
// module before its first chart (issue 18). Each table is the query of its
// Parquet loader, written by DuckDB's Parquet writer and turned into Arrow by
// the same parquet-wasm reader the browser used, so a page decodes exactly the
// values it decoded from the Parquet file. The Parquet loaders stay: the table
// explorer and DuckDB-wasm read them.

import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {createRequire} from "node:module";
import {tmpdir} from "node:os";
import {join} from "node:path";
import initParquet, {readParquet} from "parquet-wasm/esm";
import {exportQuery} from "../../loaders/store/export.js";
import {encodePack} from "../client/tables.js";
import {redactedQuery} from "./redaction.js";
import {withStore} from "./store.js";

/** Writes the pack of `tables` (table name → query over the store, key-shaped text redacted) to stdout. */
export async function emitFirstViewPack(tables: Readonly<Record<string, string>>): Promise<void> {
  const require = createRequire(import.meta.url);
  await initParquet({module_or_path: readFileSync(require.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"))});
  const pack = await withStore(async (store) => {
    const dir = mkdtempSync(join(tmpdir(), "sociometer-pack-"));
    try {
      const entries: {name: string; ipc: Uint8Array}[] = [];
      for (const [name, sql] of Object.entries(tables)) {
        const file = join(dir, `${name}.parquet`);
        await exportQuery(store.conn, await redactedQuery(store.conn, sql), file, "parquet");
        entries.push({name, ipc: readParquet(readFileSync(file)).intoIPCStream()});
      }
      return encodePack(entries);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
  });
  await new Promise<void>((resolve, reject) => process.stdout.write(pack, (e) => (e ? reject(e) : resolve())));
}
