// parquet-wasm, started once per page from the copy Framework serves with the
// site. Apart from the DuckDB client so that pages which only decode Parquet
// never load DuckDB-wasm's code.

import initParquet from "parquet-wasm/esm";

let parquetReady: Promise<unknown> | null = null;

/** Initialises parquet-wasm once per page. */
export function initParquetOnce(): Promise<unknown> {
  parquetReady ??= initParquet({module_or_path: import.meta.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm")});
  return parquetReady;
}
