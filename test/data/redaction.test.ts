// redactedQuery, the rule every page data loader ships through: key-shaped text
// is replaced wherever a column can hold text, including inside JSON, structs
// and maps, while columns that cannot hold text keep their type.

import {DuckDBInstance} from "@duckdb/node-api";
import {expect, it} from "vitest";
import {rows} from "../../loaders/store/db.js";
import {KEY_PATTERN, redactedQuery, redactStrings, redactText} from "../../src/data/redaction.js";

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

// Text a page loader computed in JavaScript (a scored answer's problem, say) is redacted there: it must lose exactly what DuckDB's rule takes.
it("redacts in JavaScript exactly the substrings DuckDB's regexp_replace takes, over key shapes, case, folding and whitespace", async () => {
  const conn = await (await DuckDBInstance.create(":memory:")).connect();
  const pieces = [
    KEY, `task-${"a".repeat(20)}`, `ask-${"b".repeat(20)}`, ["hf", "A".repeat(24)].join("_"), ["ghp", "x".repeat(22)].join("_"),
    `AIza${"Q".repeat(31)}`, `AKIA${"Z".repeat(16)}`, "Bearer abcdefghijkl.mn", "bearer\tshort", "BEARER\u00a0abcdefghijklmnop",
    "password: hunter22", "PASSWORD=swordfish1", "Secret: Monica", "ſecret: Monicaa", "api_\u212Aey = 'abcdef12'", "x-api-key: zzzzzz",
    "Authorization: Bearer tok_123456", "authorization:\n basic   abcdefgh", "secret: 😀😀😀", "secret: 😀😀😀😀😀😀", "password:\u000babcdefgh",
    "api-key:\"abc,def\"", "my password is long", "", "plain", "İ password: ıııııı",
  ];
  const texts = [...pieces];
  for (const a of pieces) for (const b of pieces.slice(0, 8)) texts.push(`${a} ${b}`, `${b}${a}`);
  await conn.run("CREATE TABLE texts (i INTEGER, t VARCHAR)");
  for (const [i, t] of texts.entries()) await conn.run("INSERT INTO texts VALUES ($1, $2)", [i, t]);
  const got = await rows<{out: string}>(conn, "SELECT regexp_replace(t, $1, '[redacted]', 'g') AS out FROM texts ORDER BY i", [KEY_PATTERN]);
  expect(got.map((r) => r.out)).toEqual(texts.map(redactText));
  // The cases that differ between the engines unless the pattern spells them out, as DuckDB reads them.
  expect(redactText("secret: 😀😀😀")).toBe("secret: 😀😀😀");
  expect(redactText("ſecret: Monicaa")).toBe("[redacted]");
  expect(redactText("BEARER\u00a0abcdefghijklmnop")).toBe("BEARER\u00a0abcdefghijklmnop");
  expect(redactText("password: hunter22 and jazz")).toBe("[redacted] and jazz");
});

it("redacts every string of a computed value, at any depth, keys included, and keeps numbers and nulls", () => {
  expect(redactStrings({model: "m", problems: [null, `left out ${KEY}`], nested: {[`${KEY}`]: 1, n: NaN}})).toEqual({
    model: "m", problems: [null, "left out [redacted]"], nested: {"[redacted]": 1, n: NaN},
  });
});
