// A store whose connection records the SQL of the calls a test counts, so a
// test can say how many passes over the data a loader made.

import type {DuckDBConnection} from "@duckdb/node-api";
import type {Store} from "../../loaders/store/db.js";

/** `store` with the SQL of every call to one of `methods` on its connection appended to `ran`. */
export function recordingStore(store: Store, ran: string[], methods: readonly string[]): Store {
  const conn = new Proxy(store.conn, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== "function") return value;
      if (typeof name !== "string" || !methods.includes(name)) return value.bind(target);
      return (sql: string, ...rest: unknown[]) => {
        ran.push(sql);
        return (value as (...a: unknown[]) => unknown).call(target, sql, ...rest);
      };
    },
  }) as DuckDBConnection;
  return {...store, conn};
}
