// A query that a first-view pack and a Parquet loader both ship runs once per
// build process (src/data/shared-query.ts): the second caller reads the file the
// first one wrote. Counted here by the COPY statements the store's connection runs.

import {join} from "node:path";
import {afterEach, beforeEach, describe, expect, it} from "vitest";
import {rows, type Store} from "../../loaders/store/db.js";
import {sharedResult} from "../../src/data/shared-query.js";
import {tempStore} from "../helpers/store.js";

/** The store with its connection's COPY statements (each query written to a file) counted in `copies`. */
function counting(store: Store): {store: Store; copies: string[]} {
  const copies: string[] = [];
  const conn = new Proxy(store.conn, {
    get(target, key) {
      if (key === "run") {
        return (sql: string, ...rest: unknown[]) => {
          if (/^\s*COPY\b/.test(sql)) copies.push(sql);
          return (target.run as (...a: unknown[]) => unknown).call(target, sql, ...rest);
        };
      }
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {store: {...store, conn}, copies};
}

const KEYS_SQL = "SELECT i::INTEGER AS i, 'token sk-' || repeat('a', 20) AS note FROM range(3) t(i) ORDER BY i";

let previousDb: string | undefined;
beforeEach(() => (previousDb = process.env.SOCIOMETER_DB));
afterEach(() => {
  if (previousDb === undefined) delete process.env.SOCIOMETER_DB;
  else process.env.SOCIOMETER_DB = previousDb;
});

describe("a query shared by a pack and a Parquet loader", () => {
  it("runs once: the second caller gets the first one's file, with the rows redacted as every loader ships them", async () => {
    const plain = await tempStore();
    process.env.SOCIOMETER_DB = plain.path;
    const {store, copies} = counting(plain);
    const first = await sharedResult(store, KEYS_SQL);
    const second = await sharedResult(store, KEYS_SQL);
    expect(second).toBe(first);
    expect(copies).toHaveLength(1);
    const written = await rows<{i: number; note: string}>(plain.conn, `SELECT * FROM read_parquet('${first.replaceAll("'", "''")}')`);
    expect(written).toEqual([0, 1, 2].map((i) => ({i, note: "token [redacted]"})));
    // Another query is another file.
    const other = await sharedResult(store, "SELECT 1 AS one");
    expect(other).not.toBe(first);
    expect(copies).toHaveLength(2);
  });

  it("does not keep a failure: after the missing table is created, the same query runs and gives its rows", async () => {
    const plain = await tempStore();
    process.env.SOCIOMETER_DB = plain.path;
    const {store} = counting(plain);
    const sql = "SELECT x FROM made_later ORDER BY x";
    await expect(sharedResult(store, sql)).rejects.toThrow(/made_later/);
    await plain.conn.run("CREATE TABLE made_later AS SELECT * FROM (VALUES (2), (1)) v(x)");
    const file = await sharedResult(store, sql);
    expect(await rows(plain.conn, `SELECT x FROM read_parquet('${file.replaceAll("'", "''")}')`)).toEqual([{x: 1}, {x: 2}]);
  });
});
