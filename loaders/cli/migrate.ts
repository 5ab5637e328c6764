// `sociometer migrate [--db FILE]`: brings an existing store up to this
// version's schema (every pending migration in one transaction) and says what
// it applied. Read-only commands and the site's loaders refuse a store that
// needs this, rather than failing on a missing column.

import {existsSync} from "node:fs";
import {resolve} from "node:path";
import {defaultStorePath} from "../store/db.js";
import {openStoreWhenFree} from "../store/wait-for-lock.js";
import {parseCommandLine} from "./args.js";
import {migrationFiles} from "../store/schema.js";

export const MIGRATE_HELP = `sociometer migrate: upgrade a store to this version's schema

Usage:
  sociometer migrate [--db FILE]

Applies the migrations the store lacks (loaders/store/migrations), all in one
transaction: either all apply or the store is left as it was. A store written
by a newer sociometer, or one made with a migration that has changed since,
is refused with what to do instead (rebuild it from the sources it lists).
`;

export async function migrateCommand(argv: string[]): Promise<number> {
  const {values, positionals} = parseCommandLine(
    {args: argv, allowPositionals: true, options: {db: {type: "string"}, help: {type: "boolean", short: "h"}}},
    () => "sociometer migrate [--db FILE]",
  );
  if (values.help) {
    process.stdout.write(MIGRATE_HELP);
    return 0;
  }
  if (positionals.length) throw new Error(`sociometer migrate takes no arguments (got ${positionals.join(" ")}); the store is --db FILE`);
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  if (!existsSync(dbPath)) throw new Error(`no store at ${dbPath}; nothing to migrate (sociometer import creates one)`);
  const store = await openStoreWhenFree(dbPath);
  store.close();
  const latest = migrationFiles().at(-1)!;
  const now = `schema version ${latest.version} (${latest.name})`;
  process.stdout.write(store.migrated.length
    ? `store ${dbPath}: applied ${store.migrated.join(", ")}; now at ${now}\n`
    : `store ${dbPath}: already at ${now}; nothing to apply\n`);
  return 0;
}
