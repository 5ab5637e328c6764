// The scan that finds JSON nested too deep before JSON.parse, and what an import does at the limit.

import {describe, expect, it} from "vitest";
import {MAX_JSON_DEPTH, tooDeep} from "../../loaders/import/json-text.js";
import {importFiles} from "../../loaders/import/session.js";
import {nestsDeeperThan, parseJson} from "../../loaders/import/validate.js";
import {rows} from "../../loaders/store/db.js";
import {tempStore, writeFile} from "../helpers/store.js";

/** `{"a":{"a":…1…}}` with `levels` objects. */
const nested = (levels: number) => '{"a":'.repeat(levels - 1) + '{"a":1' + "}".repeat(levels);

describe("tooDeep", () => {
  it("accepts a document exactly at the limit and names the first level past it", () => {
    expect(tooDeep(nested(3), 3)).toBeNull();
    expect(tooDeep(nested(4), 3)).toEqual({field: "a.a.a…", line: 1, column: 16});
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(tooDeep('{"x": "[[[[{{{{", "y": "\\"[[[[", "z": "\\\\"}', 2)).toBeNull();
    expect(tooDeep('{"x": "\\\\", "y": [[1]]}', 2)).toEqual({field: "y[0]…", line: 1, column: 19});
  });

  it("names array elements by index and counts lines in a whole file", () => {
    expect(tooDeep('[\n {"k": 1},\n {"k": [[[1]]]}\n]', 4)).toEqual({field: "[1].k[0]…", line: 3, column: 10});
  });

  it("nestsDeeperThan counts the levels of a parsed tree as tooDeep counts brackets", () => {
    expect(nestsDeeperThan(JSON.parse(nested(3)), 3)).toBe(false);
    expect(nestsDeeperThan(JSON.parse(nested(4)), 3)).toBe(true);
    expect(nestsDeeperThan(JSON.parse('{"x": "[[[[", "y": [[1]], "z": {"w": {}}}'), 3)).toBe(false);
    expect(nestsDeeperThan(JSON.parse('{"x": 1, "y": [[1, [2]]]}'), 3)).toBe(true);
    expect(nestsDeeperThan(JSON.parse('"[[[["'), 0)).toBe(false);
    // A million levels: no recursion to overflow.
    expect(nestsDeeperThan(JSON.parse("[".repeat(1e6) + "]".repeat(1e6)), MAX_JSON_DEPTH)).toBe(true);
  });

  it("parseJson names the place past the limit, and reports depth before a syntax error further on", () => {
    expect(() => parseJson("[".repeat(1001) + "]".repeat(1001))).toThrow("nested more than 1000 levels deep (at column 1001)");
    expect(() => parseJson('{"a": ' + "[".repeat(1000) + "1,")).toThrow("nested more than 1000 levels deep (at column 1006)");
    expect(() => parseJson('{"a": 1,}')).toThrow(/^not valid JSON \(.*\); is the record truncated\?$/);
    expect(parseJson(nested(MAX_JSON_DEPTH))).toEqual(JSON.parse(nested(MAX_JSON_DEPTH)));
  });

  it(`lets a record nested ${MAX_JSON_DEPTH} deep through the whole import, and stops one level deeper`, async () => {
    const store = await tempStore();
    const record = (id: string, depth: number) => `{"episode_id":"${id}","benchmark":"sotopia","participants":[{"model":"m"}],"settings":${nested(depth - 1)}}`;
    const ok = writeFile(store.dir, "ok.jsonl", record("deep-ok", MAX_JSON_DEPTH) + "\n");
    expect(await importFiles(store, "canonical", [ok])).toMatchObject({episodes: 1});
    expect(await rows(store.conn, "SELECT length(settings::VARCHAR)::INT AS n FROM episodes")).toEqual([{n: nested(MAX_JSON_DEPTH - 1).length}]);
    const bad = writeFile(store.dir, "bad.jsonl", record("deep-bad", MAX_JSON_DEPTH + 1) + "\n");
    // 89 characters come before settings' first brace, which is level 2; its 1000th brace (5 characters each) is level 1001.
    await expect(importFiles(store, "canonical", [bad])).rejects.toThrow(`${bad}:1: settings.a.a…: nested more than 1000 levels deep (at column ${89 + 5 * 999 + 1});`);
  });
});
