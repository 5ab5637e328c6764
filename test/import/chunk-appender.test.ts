import {DuckDBInstance} from "@duckdb/node-api";
import {describe, expect, it} from "vitest";
import {ChunkAppender} from "../../loaders/import/chunk-appender.js";
import {rows} from "../../loaders/store/db.js";

async function table() {
  const conn = await (await DuckDBInstance.create(":memory:")).connect();
  await conn.run("CREATE TABLE t (n INTEGER, s VARCHAR, r VARCHAR, d DOUBLE, b BOOLEAN, j JSON)");
  return conn;
}

describe("ChunkAppender", () => {
  // 5,000 rows: two full chunks of 2,048 and a partial one; `r` is one string for all of the first chunk
  // (written as a constant), then three long strings in turn (each written once, its other rows copies of
  // that row's string struct), then a short one, NULL on every third row of the last chunk.
  it("writes every row, in order, across chunks whose repeated column is constant, varied or NULL", async () => {
    const conn = await table();
    const out = new ChunkAppender(await conn.createAppender("t"), new Set([2]));
    for (let i = 0; i < 5000; i++) {
      out.integer(0, i % 7 === 0 ? null : i);
      out.varchar(1, i % 5 === 0 ? null : `row ${i} ${"é".repeat(i % 20)}`);
      out.varchar(2, i < 2048 ? "same" : i < 4096 ? `repeated, longer than 12 bytes: ${i % 3}` : i % 3 === 0 ? null : "late");
      out.double(3, i / 4);
      out.boolean(4, i % 2 === 1);
      out.varchar(5, i === 4999 ? '{"last": true}' : null);
      out.endRow();
    }
    out.closeSync();
    const [sums] = await rows<Record<string, number>>(conn, `
      SELECT count(*)::INT AS rows, count(n)::INT AS n, sum(n)::BIGINT::DOUBLE AS n_sum, count(s)::INT AS s,
             count(*) FILTER (r = 'same')::INT AS same, count(*) FILTER (r = 'repeated, longer than 12 bytes: 0')::INT AS r0, count(*) FILTER (r = 'repeated, longer than 12 bytes: 1')::INT AS r1,
             count(*) FILTER (r = 'repeated, longer than 12 bytes: 2')::INT AS r2, count(*) FILTER (r = 'late')::INT AS late, count(r)::INT AS r,
             sum(d) AS d, count(*) FILTER (b)::INT AS b, count(j)::INT AS j
      FROM t`);
    // n: 5,000 rows less the 715 multiples of 7 (0 … 4998); their sum 12,497,500 less 7·(0 + … + 714) = 1,786,785.
    // r: 2,048 "same"; rows 2,048 … 4,095 by i % 3 (from 2,048 ≡ 2: 683 each of r2 and r0, 682 of r1); rows 4,096 … 4,999 "late" unless i % 3 = 0 (301 of 904).
    expect(sums).toEqual({
      rows: 5000, n: 4285, n_sum: 12_497_500 - 1_786_785, s: 4000, same: 2048, r0: 683, r1: 682, r2: 683, late: 603, r: 2048 + 2048 + 603,
      d: 12_497_500 / 4, b: 2500, j: 1,
    });
    const picked = await rows<{n: number | null; s: string | null; r: string | null; j: string | null}>(conn,
      "SELECT n, s, r, j::VARCHAR AS j FROM t WHERE rowid IN (0, 2047, 2048, 4097, 4098, 4999) ORDER BY rowid");
    expect(picked).toEqual([
      {n: null, s: null, r: "same", j: null},
      {n: 2047, s: `row 2047 ${"é".repeat(7)}`, r: "same", j: null},
      {n: 2048, s: `row 2048 ${"é".repeat(8)}`, r: "repeated, longer than 12 bytes: 2", j: null},
      {n: 4097, s: `row 4097 ${"é".repeat(17)}`, r: "late", j: null},
      {n: 4098, s: `row 4098 ${"é".repeat(18)}`, r: null, j: null},
      {n: 4999, s: `row 4999 ${"é".repeat(19)}`, r: "late", j: '{"last": true}'},
    ]);
  });

  it("refuses a value of the wrong kind for its column, and a column type it cannot write", async () => {
    const conn = await table();
    const out = new ChunkAppender(await conn.createAppender("t"));
    expect(() => out.integer(1, 3)).toThrow("column 1 is not INTEGER");
    expect(() => out.varchar(0, "x")).toThrow("column 0 is not VARCHAR");
    await conn.run("CREATE TABLE u (seen TIMESTAMP)");
    await expect(async () => new ChunkAppender(await conn.createAppender("u"))).rejects.toThrow("column 0 is TIMESTAMP: ChunkAppender writes VARCHAR, INTEGER, DOUBLE and BOOLEAN columns only");
  });
});
