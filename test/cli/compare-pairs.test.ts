// Pairing in DuckDB (loaders/cli/compare-pairs.ts) against pairing the same
// rows in JS (src/lib/compare.ts pairItems): the same items, values to the
// bit, order and unpaired lists, on rows with repeats of three, an item on
// one side only, a matched key and keys JS and SQL might order differently.

import {DuckDBInstance, type DuckDBConnection} from "@duckdb/node-api";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {pairInStore} from "../../loaders/cli/compare-pairs.js";
import {matchedKeys, pairItems, type CompareRow} from "../../src/lib/compare.js";

const row = (metric: string, task: string, model: string, value: number, episode: string, rater: string | null = "judge"): CompareRow => ({
  episode_id: episode, task, instance: `${episode} | seat 1`, cluster: task.split(" ")[0], metric, kind: "continuous", value,
  model, rater, run: null, source: "s.csv", setting: null, memory: null, cot: null,
});

// goal first, so metric order is the rows' order, not alphabetical.
const ROWS: CompareRow[] = [
  row("goal", "t2 b", "x", 0.1, "e1"),
  row("goal", "t2 b", "x", 0.2, "e2"),
  row("goal", "t2 b", "x", 0.3, "e3"),
  row("goal", "t1 a", "x", 4, "e4"),
  row("goal", "t1 a", "y", 5, "e5"),
  row("goal", "t2 b", "y", 0.3, "e6"),
  row("goal", "t2 b", "y", 0.2, "e7"),
  row("goal", "t2 b", "y", 0.1, "e8"),
  row("goal", "t3 c", "y", 9, "e9"),
  row("goal", "Z0 z", "x", 1, "e10"),
  row("goal", "Z0 z", "y", 2, "e11"),
  row("believability", "t1 a", "x", 6, "e4"),
  row("believability", "t1 a", "y", 7, "e5"),
  row("believability", "t1 a", "y", 8, "e12", "other"),
];

const SQL_OF_ROWS = `SELECT * FROM (VALUES ${ROWS.map(() => "(?, ?, ?, ?, ?, ?, ?::DOUBLE, ?, ?, ?, ?, ?, ?, ?)").join(", ")})
  AS t(episode_id, task, instance, cluster, metric, kind, value, model, rater, run, source, setting, memory, cot)`;
const PARAMS = ROWS.flatMap((r) => [r.episode_id, r.task, r.instance, r.cluster, r.metric, r.kind, String(r.value), r.model, r.rater, r.run, r.source, r.setting, r.memory, r.cot]) as string[];

let instance: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  conn = await instance.connect();
});

afterAll(() => {
  conn?.closeSync();
  instance?.closeSync();
});

describe("pairInStore", () => {
  it("pairs as pairItems does: three repeats summed in row order, the unpaired item listed, the rater matched, keys in JS order", async () => {
    const a = {model: "x"};
    const b = {model: "y"};
    const matched = matchedKeys(a, b);
    const {paired, matchedPresent} = await pairInStore(conn, SQL_OF_ROWS, PARAMS, a, b, "task", matched);
    const expected = pairItems(ROWS, a, b, "task", matched);
    for (const m of expected) {
      delete m.allA;
      delete m.allB;
    }
    expect(paired).toEqual(expected);
    expect(matchedPresent).toEqual(["rater"]);
    const goal = paired[0];
    expect(goal.metric).toBe("goal");
    // "Z" sorts before "t" in UTF-16 as in bytes; the keys carry the matched rater.
    expect(goal.keys).toEqual(["Z0 z | rater judge", "t1 a | rater judge", "t2 b | rater judge"]);
    // (0.1 + 0.2) + 0.3 = 0.6000000000000001 in row order on A; (0.3 + 0.2) + 0.1 = 0.6 on B.
    expect(Array.from(goal.valuesA)).toEqual([1, 4, 0.6000000000000001 / 3]);
    expect(Array.from(goal.valuesB)).toEqual([2, 5, 0.6 / 3]);
    expect(goal.episodesA).toEqual(["e10", "e4", "e1"]);
    expect(goal.averagedA).toBe(1);
    expect(goal.averagedB).toBe(1);
    expect(goal.unpaired).toEqual([{side: "B", item: "t3 c | rater judge", episode: "e9"}]);
    // The other rater's score pairs with nothing: it is a different item.
    expect(paired[1].unpaired).toEqual([{side: "B", item: "t1 a | rater other", episode: "e12"}]);
  });
});
