// The table explorer's logic without a browser: error locations read from
// DuckDB's real messages, the paging / search / filter / sort SQL bound
// against DuckDB itself on a hand-built table, the Arrow file → stream step
// behind Parquet downloads run through DuckDB-wasm and parquet-wasm, and the
// default chart's choice.

import {DuckDBInstance, type DuckDBConnection} from "@duckdb/node-api";
import {mkdtempSync, rmSync, writeFileSync} from "node:fs";
import {createRequire} from "node:module";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {
  browseQuery, cellDisplay, formatNumber, INITIAL_BROWSE, ipcFileToStream, locateSqlError, locationAt, pageStatusText, referencedTables, rowCountText, shippedFileUrl,
  type BrowseState, type ColumnInfo,
} from "../../src/client/explorer.js";
import {chooseChart, explorerChartSpec} from "../../src/components/explorer-chart.js";

let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  db = await DuckDBInstance.create(":memory:");
  conn = await db.connect();
  // Eight rows in a known insertion order; ties on score (7 twice, 3 twice) and a NULL.
  await conn.run(`CREATE TABLE people (id INTEGER, name VARCHAR, score DOUBLE, ok BOOLEAN, tags VARCHAR[])`);
  await conn.run(`INSERT INTO people VALUES
    (1, 'Ada',   7,    true,  ['a', 'x']),
    (2, 'Bo',    3,    false, ['b']),
    (3, 'Cy',    NULL, true,  []),
    (4, 'Dee',   7,    false, ['x']),
    (5, 'Eve',   9.5,  true,  NULL),
    (6, 'adam',  3,    true,  ['a']),
    (7, 'Flo',   1,    NULL,  ['f']),
    (8, '<b>x</b>', 2, false, ['x'])`);
});

afterAll(() => {
  conn?.closeSync();
  db?.closeSync();
});

const COLUMNS: ColumnInfo[] = [
  {name: "id", type: "INTEGER"}, {name: "name", type: "VARCHAR"}, {name: "score", type: "DOUBLE"},
  {name: "ok", type: "BOOLEAN"}, {name: "tags", type: "VARCHAR[]"},
];

/** Runs a browse query's page and count in DuckDB. */
async function browse(state: Partial<BrowseState>, fromTheEnd = true): Promise<{ids: number[]; n: number; rows: Record<string, unknown>[]}> {
  const full = {...INITIAL_BROWSE, ...state};
  const count = browseQuery("people", COLUMNS, full).count;
  const n = Number((await conn.runAndReadAll(count.sql, count.params as never)).getRowObjectsJS()[0].n);
  // As the page does: with the count known, a page past the middle is read from the end.
  const q = browseQuery("people", COLUMNS, full, fromTheEnd ? n : undefined);
  const rows = (await conn.runAndReadAll(q.rows.sql, q.rows.params as never)).getRowObjectsJS();
  if (q.reversed) rows.reverse();
  return {ids: rows.map((r) => Number(r.id)), n, rows};
}

describe("browse queries, run by DuckDB", () => {
  it("pages in the table's own order with LIMIT and OFFSET", async () => {
    expect(await browse({pageSize: 3, page: 0})).toMatchObject({ids: [1, 2, 3], n: 8});
    expect(await browse({pageSize: 3, page: 2})).toMatchObject({ids: [7, 8], n: 8});
  });

  it("sorts by a column with NULLs last and ties in table order, both directions", async () => {
    expect((await browse({sort: {column: "score", direction: "asc"}})).ids).toEqual([7, 8, 2, 6, 1, 4, 5, 3]);
    expect((await browse({sort: {column: "score", direction: "desc"}})).ids).toEqual([5, 1, 4, 2, 6, 8, 7, 3]);
    // Descending byte order: adam, Flo, Eve | Dee, Cy, Bo | Ada, <b>x</b> ('a' > 'F' > … > '<'); page 2 of 3 rows.
    expect((await browse({sort: {column: "name", direction: "desc"}, pageSize: 3, page: 1})).ids).toEqual([4, 3, 2]);
  });

  it("reads pages past the middle from the end and gets exactly the rows of the plain ORDER BY … OFFSET", async () => {
    const sorts: BrowseState["sort"][] = [null, {column: "score", direction: "asc"}, {column: "score", direction: "desc"}, {column: "name", direction: "desc"}];
    for (const sort of sorts) {
      for (const page of [0, 1, 2]) {
        const plain = await browse({sort, page, pageSize: 3}, false);
        expect(await browse({sort, page, pageSize: 3}), `${JSON.stringify(sort)} page ${page}`).toEqual(plain);
      }
    }
    // Page 3 of 3 (rows 7–8) is read from the end: the reverse order with LIMIT 2 OFFSET 0.
    const q = browseQuery("people", COLUMNS, {...INITIAL_BROWSE, pageSize: 3, page: 2, sort: {column: "score", direction: "asc"}}, 8);
    expect(q.reversed).toBe(true);
    expect(q.rows.sql).toContain('ORDER BY "score" DESC NULLS FIRST, rowid DESC LIMIT ? OFFSET ?');
    expect(q.rows.params).toEqual([2, 0]);
    expect((await browse({sort: {column: "score", direction: "asc"}, pageSize: 3, page: 2})).ids).toEqual([5, 3]);
  });

  it("searches every column case-insensitively, lists included", async () => {
    expect(await browse({search: "AD"})).toMatchObject({ids: [1, 6], n: 2});
    // 'x' is in Ada's and Dee's tags and in the markup name.
    expect((await browse({search: "x"})).ids).toEqual([1, 4, 8]);
    expect((await browse({search: "9.5"})).ids).toEqual([5]);
  });

  it("filters numbers as numbers, booleans, text, NULLs and lists in their text form, combined with AND", async () => {
    expect((await browse({filters: [{column: "score", op: ">=", value: "7"}]})).ids).toEqual([1, 4, 5]);
    // As text "10" < "7"; as numbers no score is above 10.
    expect((await browse({filters: [{column: "score", op: ">", value: "10"}]})).n).toBe(0);
    expect((await browse({filters: [{column: "ok", op: "=", value: "TRUE"}]})).ids).toEqual([1, 3, 5, 6]);
    expect((await browse({filters: [{column: "score", op: "is null", value: ""}]})).ids).toEqual([3]);
    expect((await browse({filters: [{column: "name", op: "starts with", value: "a"}]})).ids).toEqual([1, 6]);
    expect((await browse({filters: [{column: "tags", op: "contains", value: "x"}]})).ids).toEqual([1, 4, 8]);
    expect((await browse({filters: [{column: "tags", op: "=", value: "[b]"}]})).ids).toEqual([2]);
    const both = await browse({filters: [{column: "ok", op: "=", value: "true"}, {column: "score", op: "<", value: "8"}], search: "a"});
    expect(both.ids).toEqual([1, 6]);
  });

  it("binds what the reader types as parameters: quotes and SQL in a value are only text", async () => {
    expect((await browse({search: "'; DROP TABLE people; --"})).n).toBe(0);
    expect((await browse({filters: [{column: "name", op: "=", value: "Bo' OR '1'='1"}]})).n).toBe(0);
    const [{n}] = (await conn.runAndReadAll("SELECT count(*) AS n FROM people")).getRowObjectsJS();
    expect(Number(n)).toBe(8);
  });

  it("shows lists in DuckDB's text form and refuses a filter value that is not a number", async () => {
    const {rows} = await browse({pageSize: 1});
    expect(rows[0].tags).toBe("[a, x]");
    expect(() => browseQuery("people", COLUMNS, {...INITIAL_BROWSE, filters: [{column: "score", op: "<", value: "seven"}]})).toThrow(/score <: "seven" is not a number/);
    expect(() => browseQuery("people", COLUMNS, {...INITIAL_BROWSE, filters: [{column: "nope", op: "=", value: "1"}]})).toThrow(/no column "nope"/);
  });

  it("states the page and what is filtered", () => {
    expect(pageStatusText({...INITIAL_BROWSE, page: 2, pageSize: 50}, 120, 1_000_000)).toBe("Rows 101–120 of 120 (filtered from 1,000,000).");
    expect(pageStatusText(INITIAL_BROWSE, 0, 8)).toBe("No rows (filtered from 8).");
    expect(rowCountText(1_000_000, 1_234_567)).toBe("showing 1,000,000 of 1,234,567 rows");
    expect(rowCountText(31, 31)).toBe("31 rows");
  });
});

/** DuckDB's message for `sql`, run as written or inside the page's wrapper. */
async function duckdbError(sql: string, wrapped: boolean): Promise<string> {
  try {
    await conn.run(wrapped ? `CREATE OR REPLACE TEMP TABLE r AS SELECT * FROM (\n${sql}\n)` : sql);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`no error from ${sql}`);
}

describe("where an SQL error is", () => {
  for (const wrapped of [false, true]) {
    const how = wrapped ? "inside the page's wrapper" : "as written";

    it(`finds a misspelt keyword on line 3, column 7 (${how})`, async () => {
      const sql = "SELECT name, count(*) AS n\nFROM people\nGRUOP BY name";
      const {summary, location, context} = locateSqlError(await duckdbError(sql, wrapped), sql, wrapped ? 1 : 0);
      expect(summary).toBe('Parser Error: syntax error at or near "BY"');
      // "GRUOP" reads as an alias of people; DuckDB stops at BY.
      expect(location).toEqual({line: 3, column: 7, offset: "SELECT name, count(*) AS n\nFROM people\nGRUOP ".length});
      expect(context).toBe("LINE 3: GRUOP BY name\n              ^");
    });

    it(`finds an unknown column on line 2 (${how})`, async () => {
      const sql = "SELECT name,\n  nope\nFROM people";
      const {summary, location} = locateSqlError(await duckdbError(sql, wrapped), sql, wrapped ? 1 : 0);
      expect(summary).toMatch(/^Binder Error: Referenced column "nope" not found/);
      expect(location).toEqual({line: 2, column: 3, offset: 15});
    });

    it(`finds the spot in a line DuckDB shows only a window of (${how})`, async () => {
      const sql = `SELECT '${"a".repeat(80)}' AS pad, 1 +, '${"b".repeat(80)}' AS pad2`;
      const message = await duckdbError(sql, wrapped);
      expect(message).toContain("...");
      const {location} = locateSqlError(message, sql, wrapped ? 1 : 0);
      // The comma after "1 +": 8 characters of "SELECT '", 80 a's, then "' AS pad, 1 +".
      expect(location).toEqual({line: 1, column: 102, offset: 101});
      expect(sql[101]).toBe(",");
    });
  }

  it("points at the end when the query stops too early", async () => {
    const sql = "SELECT * FROM people WHERE";
    expect(locateSqlError(await duckdbError(sql, true), sql, 1).location).toEqual({line: 1, column: 27, offset: 26});
    expect(locateSqlError(await duckdbError("SELECT (1", false), "SELECT (1").location).toEqual({line: 1, column: 10, offset: 9});
  });

  it("keeps a message with no position whole and locates nothing", () => {
    expect(locateSqlError("Catalog Error: Table with name nope does not exist!", "SELECT 1")).toEqual({
      summary: "Catalog Error: Table with name nope does not exist!", location: null, context: null,
    });
  });
});

describe("what the SQL box runs", () => {
  it("places a refused statement by line and column", () => {
    const sql = "SELECT 1;\n  -- then\n  LOAD httpfs";
    expect(locationAt(sql, sql.indexOf("LOAD"))).toEqual({line: 3, column: 3, offset: 22});
    expect(locationAt(sql, 0)).toEqual({line: 1, column: 1, offset: 0});
  });

  it("loads the tables a query names and no others", () => {
    const names = ["ratings", "episodes", "messages", "pages.ratings", "pages.words_per_turn", "hsii_cases"];
    expect(referencedTables("SELECT * FROM ratings r JOIN episodes e USING (episode_id)", names)).toEqual(["ratings", "episodes"]);
    expect(referencedTables('select * from "messages"', names)).toEqual(["messages"]);
    expect(referencedTables("SELECT * FROM pages.ratings", names)).toEqual(["pages.ratings"]);
    expect(referencedTables('FROM pages."words_per_turn"', names)).toEqual(["pages.words_per_turn"]);
    // A column or alias that only contains a table's name loads nothing.
    expect(referencedTables("SELECT ratings_count, hsii_cases_n FROM t", names)).toEqual([]);
    expect(referencedTables("FROM main.RATINGS", names)).toEqual(["ratings"]);
  });
});

describe("Parquet downloads", () => {
  it("turn DuckDB-wasm's Arrow file into a stream parquet-wasm writes, with every row and value intact", async () => {
    const require = createRequire(import.meta.url);
    const duckdbWasm = require("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs");
    const parquetWasm = require("parquet-wasm/node");
    const dist = join(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-node-blocking.cjs"), "..");
    const wasm = await duckdbWasm.createDuckDB(
      {mvp: {mainModule: join(dist, "duckdb-mvp.wasm"), mainWorker: ""}, eh: {mainModule: join(dist, "duckdb-eh.wasm"), mainWorker: ""}},
      new duckdbWasm.VoidLogger(),
      duckdbWasm.NODE_RUNTIME,
    );
    await wasm.instantiate();
    wasm.open({});
    const wasmConn = wasm.connect();
    // More rows than one Arrow batch, text, NULLs and lists.
    const ipc: Uint8Array = wasm.runQuery(wasmConn._conn, "SELECT range AS i, 'row ' || range AS label, CASE WHEN range % 7 = 0 THEN NULL ELSE range / 4 END AS q, [range, range + 1] AS pair FROM range(5000)");
    const parquet: Uint8Array = parquetWasm.writeParquet(parquetWasm.Table.fromIPCStream(ipcFileToStream(ipc)));
    wasmConn.close();
    const dir = mkdtempSync(join(tmpdir(), "sociometer-explorer-"));
    try {
      const file = join(dir, "result.parquet");
      writeFileSync(file, parquet);
      const [summary] = (await conn.runAndReadAll(`
        SELECT count(*) AS n, sum(i) AS total, count(q) AS q_values, sum(q) AS q_sum, max(label) AS last_label, sum(pair[2] - pair[1]) AS gaps
        FROM read_parquet('${file}')`)).getRowObjectsJS();
      const nulls = Math.ceil(5000 / 7);
      const qSum = Array.from({length: 5000}, (_, i) => (i % 7 === 0 ? 0 : i / 4)).reduce((a, b) => a + b, 0);
      expect(Number(summary.n)).toBe(5000);
      expect(Number(summary.total)).toBe((4999 * 5000) / 2);
      expect(Number(summary.q_values)).toBe(5000 - nulls);
      expect(Number(summary.q_sum)).toBeCloseTo(qSum, 6);
      expect(summary.last_label).toBe("row 999");
      expect(Number(summary.gaps)).toBe(5000);
    } finally {
      rmSync(dir, {recursive: true, force: true});
    }
    expect(() => ipcFileToStream(new Uint8Array([1, 2, 3]))).toThrow(/not an Arrow IPC file/);
  }, 60_000);
});

describe("the default chart", () => {
  it("draws two numeric columns as points and one categorical with one numeric as bars; anything else gets none", () => {
    const num = (name: string) => ({name, type: "DOUBLE"});
    const text = (name: string) => ({name, type: "VARCHAR"});
    expect(chooseChart([num("a"), {name: "b", type: "BIGINT"}])).toMatchObject({mark: "point", x: {name: "a"}, y: {name: "b"}});
    expect(chooseChart([text("model"), num("mean")])).toMatchObject({mark: "bar", x: {name: "model"}, y: {name: "mean"}});
    expect(chooseChart([num("mean"), {name: "cot", type: "BOOLEAN"}])).toMatchObject({mark: "bar", x: {name: "cot"}, y: {name: "mean"}});
    expect(chooseChart([text("a"), text("b")])).toBeNull();
    expect(chooseChart([num("a"), num("b"), num("c")])).toBeNull();
    expect(chooseChart([{name: "t", type: "TIMESTAMP"}, num("b")])).toBeNull();
  });

  it("shows the mean when a category repeats and the values themselves when it does not", () => {
    const choice = chooseChart([{name: "m.odel", type: "VARCHAR"}, {name: "v", type: "DOUBLE"}])!;
    const unique = explorerChartSpec(choice, [{"m.odel": "a", v: 1}, {"m.odel": "b", v: 2}], 400) as {encoding: {x: {title: string}; y: {aggregate?: string; title: string}}; data: {values: unknown[]}};
    expect(unique.encoding.y.aggregate).toBeUndefined();
    expect(unique.encoding.x.title).toBe("m.odel");
    expect(unique.data.values).toEqual([{x: "a", y: 1}, {x: "b", y: 2}]);
    const repeated = explorerChartSpec(choice, [{"m.odel": "a", v: 1}, {"m.odel": "a", v: 3}], 400) as typeof unique;
    expect(repeated.encoding.y).toMatchObject({aggregate: "mean", title: "mean of v"});
  });
});

describe("numbers as the tables show them", () => {
  it("rounds fractions to 6 significant digits and keeps integers whole", () => {
    expect(formatNumber(6.696257197696737)).toBe("6.69626");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatNumber(2 / 3)).toBe("0.666667");
    expect(formatNumber(-123.456789)).toBe("-123.457");
    expect(formatNumber(0.000123456789)).toBe("0.000123457");
    expect(formatNumber(1.23456789e-7)).toBe("1.23457e-7");
    // At a million and beyond the rounding reaches the integer part: a whole number, never exponent form.
    expect(formatNumber(1234567.891)).toBe("1234568");
    expect(formatNumber(999999.99)).toBe("1000000");
    expect(formatNumber(123456789012)).toBe("123456789012");
    expect(formatNumber(24)).toBe("24");
    expect(formatNumber(-0.5)).toBe("-0.5");
    expect(formatNumber(Number.NaN)).toBe("NaN");
    expect(formatNumber(-Infinity)).toBe("-Infinity");
    expect(formatNumber(2 / 3, 3)).toBe("0.667");
  });

  it("gives the full value for the title only when the shown text rounds it", () => {
    expect(cellDisplay(6.696257197696737)).toEqual({text: "6.69626", full: "6.696257197696737"});
    expect(cellDisplay(0.75)).toEqual({text: "0.75"});
    expect(cellDisplay(42)).toEqual({text: "42"});
    expect(cellDisplay(12345678901234567890n)).toEqual({text: "12345678901234567890"});
    expect(cellDisplay(null)).toEqual({text: "NULL"});
    expect(cellDisplay("6.696257197696737")).toEqual({text: "6.696257197696737"});
    // The full text reads back as the exact double.
    expect(Number(cellDisplay(Math.PI).full)).toBe(Math.PI);
  });
});

describe("where a shipped Parquet file is fetched", () => {
  it("under _file/ in `observable preview`, at the fixed address in a built site", () => {
    const file = "data/tables/ratings.parquet";
    expect(shippedFileUrl(file, "http://127.0.0.1:3000/_file/data/explorer-manifest.json?sha=0a1b2c", "http://127.0.0.1:3000/explorer"))
      .toBe("http://127.0.0.1:3000/_file/data/tables/ratings.parquet");
    expect(shippedFileUrl(file, "http://127.0.0.1:3000/_file/data/explorer-manifest.3f9c01d2.json", "http://127.0.0.1:3000/explorer"))
      .toBe("http://127.0.0.1:3000/data/tables/ratings.parquet");
    // A site under a base path keeps it in both.
    expect(shippedFileUrl("data/overview.parquet", "https://host/sm/_file/data/explorer-manifest.json?sha=1", "https://host/sm/explorer"))
      .toBe("https://host/sm/_file/data/overview.parquet");
    expect(shippedFileUrl("data/overview.parquet", "https://host/sm/_file/data/explorer-manifest.77aa88bb.json", "https://host/sm/explorer"))
      .toBe("https://host/sm/data/overview.parquet");
  });
});
