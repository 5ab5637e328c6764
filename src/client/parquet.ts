// parquet-wasm, started once per page from the copy Framework serves with the
// site, and Parquet decoded into rows: for what reads Parquet outside DuckDB
// (the reliability section). Apart from tables.ts so that pages drawing their
// first view from a pack never load parquet-wasm's code or its 5 MB module.

import {tableFromIPC} from "@uwdata/flechette";
import initParquet, {ParquetFile} from "parquet-wasm/esm";
import {plainRow, type Row} from "./tables.js";

let parquetReady: Promise<unknown> | null = null;

/** Initialises parquet-wasm once per page. */
export function initParquetOnce(): Promise<unknown> {
  parquetReady ??= initParquet({module_or_path: import.meta.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm")});
  return parquetReady;
}

/**
 * Fetches one Parquet file and decodes it into rows, one row group at a time
 * (decoding a whole large file at once needs several times its size in wasm
 * memory: OFFLINE.md, data size).
 */
export async function readParquetRows(url: string): Promise<Row[]> {
  const [response] = await Promise.all([fetch(url), initParquetOnce()]);
  if (!response.ok) throw new Error(`cannot load ${url}: ${response.status} ${response.statusText}`);
  return decodeParquetRows(await response.blob());
}

/** Decodes Parquet bytes into rows, one row group at a time; parquet-wasm must be initialised. */
export async function decodeParquetRows(parquet: Blob): Promise<Row[]> {
  const file = await ParquetFile.fromFile(parquet);
  const metadata = file.metadata();
  const groups = metadata.rowGroups();
  const rows: Row[] = [];
  try {
    for (let i = 0; i < groups.length; i++) {
      const table = await file.read({rowGroups: [i]});
      // intoIPCStream hands the table's wasm memory over; it is freed with it.
      for (const row of tableFromIPC(table.intoIPCStream()).toArray()) rows.push(plainRow(row as Record<string, unknown>));
    }
    return rows;
  } finally {
    for (const group of groups) group.free();
    metadata.free();
    file.free();
  }
}
