// redactedQuery, the rule every page data loader ships through: key-shaped text
// is replaced wherever a column can hold text, including inside JSON, structs
// and maps, while columns that cannot hold text keep their type.

import {DuckDBInstance} from "@duckdb/node-api";
import {expect, it} from "vitest";
import {rows} from "../../loaders/store/db.js";
import {redactedQuery} from "../../src/data/redaction.js";

// Built from parts so that no line of the repository looks like a key.
const KEY = ["sk", "proj", "abcdefghijklmnop1234"].join("-");

it("replaces keys in text, lists of text, JSON, structs and maps, and leaves numbers, booleans and their lists as they are", async () => {
  const conn = await (await DuckDBInstance.create(":memory:")).connect();
  await conn.run(`CREATE TABLE t AS SELECT
      'plain text' AS note, 'key ${KEY} here' AS text, ['ok', '${KEY}'] AS texts,
      '{"settings": {"token": "${KEY}"}}'::JSON AS settings,
      {'model': 'm', 'secret_note': 'used ${KEY}'} AS config,
      MAP {'k': '${KEY}'} AS headers,
      3 AS n, 0.5::DOUBLE AS x, [true, false] AS flags, [1, 2] AS ints`);
  const sql = await redactedQuery(conn, "SELECT * FROM t");
  const [row] = await rows<Record<string, unknown>>(conn, sql);
  expect(JSON.stringify(row)).not.toContain(KEY);
  expect(row).toMatchObject({note: "plain text", text: "key [redacted] here", texts: ["ok", "[redacted]"], n: 3, x: 0.5, flags: [true, false], ints: [1, 2]});
  expect(row!.settings).toBe('{"settings": {"token": "[redacted]"}}');
  expect(row!.config).toBe("{'model': m, 'secret_note': used [redacted]}");
  expect(row!.headers).toBe("{k=[redacted]}");
  const types = await rows<{column_name: string; column_type: string}>(conn, `DESCRIBE ${sql}`);
  expect(Object.fromEntries(types.map((t) => [t.column_name, t.column_type]))).toEqual({
    note: "VARCHAR", text: "VARCHAR", texts: "VARCHAR[]", settings: "VARCHAR", config: "VARCHAR", headers: "VARCHAR",
    n: "INTEGER", x: "DOUBLE", flags: "BOOLEAN[]", ints: "INTEGER[]",
  });
});
