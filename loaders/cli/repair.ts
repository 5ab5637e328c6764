// `sociometer repair [--db FILE]`: finds and removes what an import killed
// while it committed left in the store (loaders/store/integrity.ts), whether
// or not that import left its journal: stores written before the journal
// existed have none. `status` says when this is needed.

import {existsSync} from "node:fs";
import {resolve} from "node:path";
import {defaultStorePath} from "../store/db.js";
import {describeLeftovers, removeLeftovers} from "../store/integrity.js";
import {openStoreWhenFree} from "../store/wait-for-lock.js";
import {parseCommandLine} from "./args.js";

export const REPAIR_HELP = `sociometer repair: remove what an interrupted import left in the store

Usage:
  sociometer repair [--db FILE]

Removes, in one transaction, rows that no finished import accounts for: rows
whose source the store does not record, and rows of episodes the store does
not hold (scores, turns, seats), but for rows of judge and episode runs. An
import killed while it committed can leave such rows; the store's next
read-write open removes them by itself when the import left its journal
(FILE.importing). Then import the interrupted files again.
`;

export async function repairCommand(argv: string[]): Promise<number> {
  const {values, positionals} = parseCommandLine(
    {args: argv, allowPositionals: true, options: {db: {type: "string"}, help: {type: "boolean", short: "h"}}},
    () => "sociometer repair [--db FILE]",
  );
  if (values.help) {
    process.stdout.write(REPAIR_HELP);
    return 0;
  }
  if (positionals.length) throw new Error(`sociometer repair takes no arguments (got ${positionals.join(" ")}); the store is --db FILE`);
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  if (!existsSync(dbPath)) throw new Error(`no store at ${dbPath}; nothing to repair`);
  const store = await openStoreWhenFree(dbPath);
  try {
    // The open removed the leftovers already if it found a journal (and said so); this finds those of journal-less stores.
    const removed = [...store.repaired, ...(await removeLeftovers(store.conn))];
    process.stdout.write(removed.length
      ? `store ${dbPath}: removed ${describeLeftovers(removed)}; import the interrupted files again\n`
      : `store ${dbPath}: nothing to remove; every row belongs to a recorded source and its episode\n`);
  } finally {
    store.close();
  }
  return 0;
}
