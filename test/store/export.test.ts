// CSV exports open safely in a spreadsheet: text that starts like a formula is kept as text.

import {readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {exportQuery} from "../../loaders/store/export.js";
import {tempStore} from "../helpers/store.js";

describe("CSV export", () => {
  it("prefixes text cells that start with = + - @, tab or carriage return with an apostrophe, and leaves numbers and other text alone", async () => {
    const store = await tempStore();
    const out = join(store.dir, "cells.csv");
    const sql = `SELECT * FROM (VALUES
      (1, '=cmd|'' /C calc''!A0', -3),
      (2, '+1', 0),
      (3, '-2+3', 0),
      (4, '@SUM(A1)', 0),
      (5, chr(9) || '=1', 0),
      (6, 'said: =fine in the middle', -1),
      (7, NULL, 0)
    ) AS t(id, "odd ""name""", score) ORDER BY id`;
    await exportQuery(store.conn, sql, out);
    expect(readFileSync(out, "utf8").split("\n")).toEqual([
      `id,"odd ""name""",score`,
      `1,'=cmd|' /C calc'!A0,-3`,
      `2,'+1,0`,
      `3,'-2+3,0`,
      `4,'@SUM(A1),0`,
      `5,'\t=1,0`,
      `6,said: =fine in the middle,-1`,
      `7,,0`,
      ``,
    ]);
  });

  it("writes Parquet cells as they are", async () => {
    const store = await tempStore();
    const out = join(store.dir, "cells.parquet");
    await exportQuery(store.conn, "SELECT '=cmd' AS v", out);
    const back = await store.conn.runAndReadAll(`SELECT v FROM '${out}'`);
    expect(back.getRowObjects()).toEqual([{v: "=cmd"}]);
  });
});
