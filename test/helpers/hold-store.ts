// Run as a child process: opens a store for writing, as an import does, and
// keeps a transaction open for the given milliseconds before it commits and
// exits. Prints "held" once it holds the store.

import {openStore} from "../../loaders/store/db.js";

const [path, ms] = process.argv.slice(2);
const store = await openStore(path);
await store.conn.run("BEGIN TRANSACTION");
await store.conn.run("CREATE OR REPLACE TABLE held_by_test AS SELECT 1 AS x");
process.stdout.write("held\n");
await new Promise((r) => setTimeout(r, Number(ms)));
await store.conn.run("COMMIT");
store.close();
