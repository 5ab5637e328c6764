// The explorer's sealed database, in DuckDB-wasm itself (the Node build of the
// same wasm the page runs): which statements of a script the page runs, read
// with DuckDB's own tokenizer, and that the seal alone, with no check in front
// of it, refuses files, extensions and setting changes while tables still
// arrive as Arrow.

import {rmSync} from "node:fs";
import {createRequire} from "node:module";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {ipcFileToStream} from "../../src/client/explorer.js";
import {checkScript, DOWNLOAD_FILE, SEAL_SQL} from "../../src/client/sealed-sql.js";

interface WasmConnection {
  query(sql: string): {toArray(): {toJSON(): Record<string, unknown>}[]};
  insertArrowFromIPCStream(buffer: Uint8Array, options: {name: string; create: boolean}): void;
  close(): void;
  _conn: number;
}
interface WasmDB {
  tokenize(text: string): {offsets: number[]; types: number[]};
  connect(): WasmConnection;
  runQuery(conn: number, text: string): Uint8Array;
  copyFileToBuffer(name: string): Uint8Array;
  dropFile(name: string): void;
}

/** A fresh DuckDB-wasm (Node, blocking) with one connection. */
async function wasmDuckDB(): Promise<{db: WasmDB; conn: WasmConnection}> {
  const require = createRequire(import.meta.url);
  const duckdbWasm = require("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs");
  const dist = join(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs"), "..");
  const db = await duckdbWasm.createDuckDB(
    {mvp: {mainModule: join(dist, "duckdb-mvp.wasm"), mainWorker: ""}, eh: {mainModule: join(dist, "duckdb-eh.wasm"), mainWorker: ""}},
    new duckdbWasm.VoidLogger(),
    duckdbWasm.NODE_RUNTIME,
  );
  await db.instantiate();
  db.open({});
  return {db, conn: db.connect()};
}

let wasm: {db: WasmDB; conn: WasmConnection};
beforeAll(async () => {
  wasm = await wasmDuckDB();
}, 60_000);
afterAll(() => wasm?.conn.close());

const check = (sql: string) => checkScript(sql, wasm.db.tokenize(sql));
const refusedAt = (sql: string) => {
  const c = check(sql);
  return c.ok ? c : {what: c.message.split(" is not run here: ")[0], offset: c.offset};
};

describe("which statements the SQL box runs, read with DuckDB's tokenizer", () => {
  it("keeps one query as a result and runs local statements and scripts as written", () => {
    for (const q of ["SELECT 1", "  -- note\nWITH a AS (SELECT 1) SELECT * FROM a", "FROM ratings", "(SELECT 1)", "/* x */ describe ratings", "SUMMARIZE ratings", "values (1)", "SHOW TABLES"]) {
      expect(check(q), q).toEqual({ok: true, kind: "query"});
    }
    for (const q of [
      "CREATE TEMP TABLE t AS SELECT 1; SELECT * FROM t", "INSERT INTO t VALUES (1)", "PRAGMA table_info('ratings')", "pragma show_tables",
      "EXPLAIN SELECT 1", "explain analyze FROM ratings", "SELECT 1; SELECT 2", "DROP TABLE t",
    ]) {
      expect(check(q), q).toEqual({ok: true, kind: "statement"});
    }
  });

  it("refuses the first statement it does not run, wherever it is in the script, and says where", () => {
    expect(refusedAt("SET threads = 1; INSTALL httpfs")).toEqual({what: "SET", offset: 0});
    expect(refusedAt("SELECT 1;\nload httpfs")).toEqual({what: "LOAD", offset: 10});
    // A `;` in a string, a quoted name or a comment separates nothing; the one after it does.
    expect(refusedAt("SELECT ';', \"a;b\" /* ; */ -- ;\n; ATTACH 'x.db'")).toEqual({what: "ATTACH", offset: 33});
    expect(refusedAt("SELECT $$;$$; COPY t TO 'x.csv'")).toEqual({what: "COPY", offset: 14});
    expect(refusedAt("/* a comment first */ install httpfs")).toEqual({what: "INSTALL", offset: 22});
    expect(refusedAt("SET VARIABLE u = 'http://x'; SELECT * FROM read_csv(getvariable('u'))")).toEqual({what: "SET", offset: 0});
    expect(refusedAt("PRAGMA enable_external_access = true")).toEqual({what: "PRAGMA enable_external_access", offset: 0});
    expect(refusedAt("PRAGMA table_info = 1")).toEqual({what: "PRAGMA table_info", offset: 0});
    expect(refusedAt("EXPLAIN COPY t TO 'x'")).toEqual({what: "EXPLAIN COPY", offset: 0});
    for (const [sql, what] of [["RESET lock_configuration", "RESET"], ["CALL read_csv('x')", "CALL"], ["DETACH x", "DETACH"], ["EXPORT DATABASE 'x'", "EXPORT"], ["USE x", "USE"]]) {
      expect(refusedAt(sql), sql).toEqual({what, offset: 0});
    }
    expect(check("SET threads = 1")).toEqual({
      ok: false,
      offset: 0,
      message: "SET is not run here: this page's database is sealed off from the network and from files, and its settings are locked. " +
        "It runs queries (SELECT, WITH, FROM, VALUES, DESCRIBE, SUMMARIZE, SHOW, PIVOT, EXPLAIN), " +
        "PRAGMAs that read the catalog (table_info, show_tables, …), and CREATE, INSERT, UPDATE, DELETE, DROP and ALTER on its own tables.",
    });
    expect(check("  -- only a comment\n;")).toEqual({ok: false, message: "There is no statement to run.", offset: 0});
  });
});

describe("the seal, with nothing in front of it", () => {
  /** The error DuckDB gives for `sql`, or "ran". */
  const outcome = (conn: WasmConnection, sql: string): string => {
    try {
      conn.query(sql);
      return "ran";
    } catch (e) {
      return (e as Error).message.split("\n")[0];
    }
  };

  it("refuses URLs, files, extensions, attaching and changing any setting; tables still arrive as Arrow and downloads still write", async () => {
    const {db, conn} = await wasmDuckDB();
    try {
      conn.query(SEAL_SQL);
      const denied = (file: string) => `Permission Error: Cannot access file "${file}" - file system operations are disabled by configuration`;
      expect(outcome(conn, "SELECT * FROM read_csv('http://127.0.0.1:9/a.csv')")).toBe(denied("http://127.0.0.1:9/a.csv"));
      expect(outcome(conn, "SELECT * FROM read_text('/etc/hostname')")).toBe(denied("/etc/hostname"));
      expect(outcome(conn, "ATTACH 'http://127.0.0.1:9/x.duckdb' AS x")).toBe(denied("http://127.0.0.1:9/x.duckdb"));
      expect(outcome(conn, "COPY (SELECT 1) TO 'http://127.0.0.1:9/out.csv'")).toBe(denied("http://127.0.0.1:9/out.csv"));
      expect(outcome(conn, "LOAD httpfs")).toBe("Permission Error: Loading external extensions is disabled through configuration");
      for (const setting of ["enable_external_access = true", "autoload_known_extensions = true", "allowed_directories = ['/']", "lock_configuration = false"]) {
        const name = setting.split(" ")[0];
        expect(outcome(conn, `SET ${setting}`), setting).toBe(`Invalid Input Error: Cannot change configuration option "${name}" - the configuration has been locked`);
      }
      expect(outcome(conn, "RESET enable_external_access")).toBe('Invalid Input Error: Cannot change configuration option "enable_external_access" - the configuration has been locked');

      // What the page itself does after sealing: insert a table as Arrow (as parquet-wasm hands it over), query it, write a CSV download.
      const ipc = db.runQuery(conn._conn, "SELECT range AS i, 'row ' || range AS label FROM range(3)");
      conn.insertArrowFromIPCStream(ipcFileToStream(ipc), {name: "arrived", create: true});
      expect(conn.query("SELECT sum(i)::INTEGER AS total, max(label) AS last FROM arrived").toArray().map((r) => r.toJSON())).toEqual([{total: 3, last: "row 2"}]);
      conn.query(`COPY (SELECT * FROM arrived ORDER BY i) TO '${DOWNLOAD_FILE}' (FORMAT csv, HEADER true)`);
      expect(new TextDecoder().decode(db.copyFileToBuffer(DOWNLOAD_FILE))).toBe("i,label\n0,row 0\n1,row 1\n2,row 2\n");
    } finally {
      conn.close();
      // The Node build writes through to the working directory, where the browser keeps the file in memory.
      db.dropFile(DOWNLOAD_FILE);
      rmSync(DOWNLOAD_FILE, {force: true});
    }
  }, 60_000);
});
