// Run as a child process: opens a store for writing, as an import does, and
// keeps a transaction open until the file `release` exists; then commits and
// exits. Prints "held" once it holds the store.

import {existsSync} from "node:fs";
import {openStore} from "../../loaders/store/db.js";

const [path, release] = process.argv.slice(2);
const store = await openStore(path);
await store.conn.run("BEGIN TRANSACTION");
await store.conn.run("CREATE OR REPLACE TABLE held_by_test AS SELECT 1 AS x");
process.stdout.write("held\n");
while (!existsSync(release)) await new Promise((r) => setTimeout(r, 50));
await store.conn.run("COMMIT");
store.close();
