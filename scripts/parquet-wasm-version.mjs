// npm postinstall: give parquet-wasm's esm/ folder the package's version.
// parquet-wasm ships esm/package.json holding only {"type": "module"};
// Framework takes the version from the nearest package.json of the file it
// resolves, so it served the module as parquet-wasm@undefined, and a cached
// copy under that name would outlive an upgrade of the package. Idempotent.

import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {createRequire} from "node:module";
import {dirname, join} from "node:path";

const require = createRequire(import.meta.url);
let root;
try {
  root = dirname(require.resolve("parquet-wasm/esm/parquet_wasm_bg.wasm"));
} catch {
  process.exit(0); // not installed (yet): nothing to do
}
const packageDir = dirname(root);
const inner = join(root, "package.json");
const {version} = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const current = existsSync(inner) ? JSON.parse(readFileSync(inner, "utf8")) : {};
if (current.version !== version) writeFileSync(inner, `${JSON.stringify({...current, version})}\n`);
