// Two things JSON.parse takes without a word are refused in every JSON and
// JSONL input (all of them parse through parseJson): a key given twice in one
// object, where it keeps the last value, and a lone surrogate escape, which the
// store would keep as U+FFFD. Each is refused like any bad record: the file,
// line and path of the key or string, the store left as it was, and skipped
// under --skip-invalid. A SOTOPIA dump read by a worker thread says the same.

import {readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {RecordProblem} from "../../loaders/import/errors.js";
import {duplicateKey, keyColons} from "../../loaders/import/json-text.js";
import {importFiles} from "../../loaders/import/session.js";
import {dumpReading} from "../../loaders/import/sotopia.js";
import {parseJson} from "../../loaders/import/validate.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {REPO} from "../helpers/fixtures.js";
import {expectImportFailure, snapshot, tempDir, tempStore, writeFile} from "../helpers/store.js";

const DUPLICATE = "JSON keeps only the last of its values without a word, so the record is ambiguous: remove one";
const duplicate = (first: string, again: string) => `duplicate key in one object (at ${first}, again at ${again}); ${DUPLICATE}`;
const LONE = "half of a UTF-16 pair without its other half, which UTF-8 text cannot hold (the store would keep U+FFFD); was the text cut inside a character such as an emoji?";
const lone = (escape: string, at: string) => `a lone surrogate escape ${escape} (at ${at}): ${LONE}`;

/** The problem parseJson raises for `text`, as field and problem; null when it parses. */
function problemOf(text: string): {field: string | null; problem: string} | null {
  try {
    parseJson(text);
    return null;
  } catch (e) {
    if (!(e instanceof RecordProblem)) throw e;
    return {field: e.field, problem: e.problem};
  }
}

/** 1-based column of the `nth` (0-based) occurrence of `needle` in `text`. */
function columnOf(text: string, needle: string, nth = 0): number {
  let at = text.indexOf(needle);
  for (let i = 0; i < nth; i++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`${needle} is not in the text`);
  return at + 1;
}

describe("parseJson: a key given twice", () => {
  it("is refused at the top level, naming the key and both places", () => {
    expect(problemOf('{"a":1,"a":2}')).toEqual({field: "a", problem: duplicate("column 2", "column 8")});
  });

  it("is refused in a nested object, named by its path", () => {
    const text = '{"episode_id":"x","scores":{"believability":7,"goal":3,"believability":8}}';
    expect(problemOf(text)).toEqual({field: "scores.believability", problem: duplicate(`column ${columnOf(text, '"believability"')}`, `column ${columnOf(text, '"believability"', 1)}`)});
    expect(problemOf('{"runs":[{"k":1},{"k":1,"x":{"y":[0,{"z":1,"z":1}]}}]}')?.field).toBe("runs[1].x.y[1].z");
  });

  it("is refused when one spelling escapes it or a space stands before its colon", () => {
    expect(problemOf('{"goal":1,"\\u0067oal":2}')).toEqual({field: "goal", problem: duplicate("column 2", "column 11")});
    expect(problemOf('{"a" : 1,\n "a"\t:\n2}')).toEqual({field: "a", problem: duplicate("column 2", "line 2, column 2")});
  });

  it("is not refused inside a string value, in sibling objects, or for a space and colon in text", () => {
    const text = JSON.stringify({content: 'he typed {"a":1,"a":2} : twice', other: {a: 1}, list: [{a: 1}, {a: 2}], note: ":) :"});
    // The text looks like more keys than the record has, so the exact scan runs and finds none.
    expect(keyColons(text)).toBeGreaterThan(7);
    expect(duplicateKey(text)).toBeNull();
    expect(problemOf(text)).toBeNull();
  });
});

describe("parseJson on random documents", () => {
  /** A small seeded generator (mulberry32), so a failure can be replayed. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Strings that look like keys, colons, quotes, escapes and surrogate pairs to a careless scan.
  const PIECES = ['"a":1', ' : ', ":", '\\', '"', "a", "\ud83d\ude00", "\\ud800", "{", "]", ",", "\n", "é"];
  const SPACES = ["", " ", "\n", "\t ", "\r\n"];

  it("refuses a document exactly when one of its objects repeats a key", () => {
    const next = random(32);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const text = (): string => JSON.stringify(Array.from({length: Math.floor(next() * 4)}, () => pick(PIECES)).join(""));
    const space = () => pick(SPACES);
    let repeats = 0;
    // Returns the document's text and whether it repeats a key somewhere.
    const value = (depth: number): [string, boolean] => {
      const r = next();
      if (depth > 3 || r < 0.3) return [r < 0.15 ? text() : String(Math.floor(r * 100)), false];
      if (r < 0.5) {
        const items = Array.from({length: Math.floor(next() * 4)}, () => value(depth + 1));
        return [`[${items.map(([t]) => space() + t + space()).join(",")}]`, items.some(([, d]) => d)];
      }
      const keys = Array.from({length: Math.floor(next() * 5)}, () => text());
      // Now and then a key again, spelt the same or with an escape for its first letter.
      const again = keys.length > 0 && next() < 0.2;
      if (again) {
        const key = pick(keys);
        keys.push(next() < 0.5 && /^"[a-z]/.test(key) ? `"\\u00${key.charCodeAt(1).toString(16)}${key.slice(2)}` : key);
      }
      const members = keys.map((k) => [k, value(depth + 1)] as const);
      const distinct = new Set(keys.map((k) => JSON.parse(k) as string)).size === keys.length;
      return [`{${members.map(([k, [t]]) => `${space()}${k}${space()}:${space()}${t}`).join(",")}}`, !distinct || members.some(([, [, d]]) => d)];
    };
    for (let i = 0; i < 2000; i++) {
      const [doc, repeatsKey] = value(0);
      if (repeatsKey) repeats++;
      const problem = problemOf(doc);
      expect(problem?.problem.startsWith("duplicate key") ?? false, doc).toBe(repeatsKey);
    }
    expect(repeats).toBeGreaterThan(100);
  });

  it("refuses a string exactly when it holds a lone surrogate, written raw or escaped as a Python dump escapes it", () => {
    const next = random(2);
    const UNITS = [0x61, 0x5c, 0x22, 0x75, 0x64, 0x38, 0xe9, 0x2019, 0xd83d, 0xde00, 0xd800, 0xdbff, 0xdc00, 0xdfff];
    // Every code unit past ASCII as \uXXXX, in either case, as json.dumps(ensure_ascii=True) writes it.
    const asciiOnly = (json: string) => json.replace(/[^\x00-\x7f]/g, (c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
      return `\\u${next() < 0.5 ? hex : hex.toUpperCase()}`;
    });
    let lone = 0;
    for (let i = 0; i < 2000; i++) {
      const value = String.fromCharCode(...Array.from({length: 1 + Math.floor(next() * 6)}, () => UNITS[Math.floor(next() * UNITS.length)]!));
      const bad = !/^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/.test(value);
      if (bad) lone++;
      for (const text of [JSON.stringify({v: value}), asciiOnly(JSON.stringify({v: value}))]) {
        expect(problemOf(text)?.field ?? null, text).toBe(bad ? "v" : null);
      }
    }
    expect(lone).toBeGreaterThan(500);
  });
});

describe("parseJson: a lone surrogate escape", () => {
  it("is refused for a high surrogate with no low one after it", () => {
    expect(problemOf('{"m":[["Ada","Bo","cut here \\ud83d"]]}')).toEqual({field: "m[0][2]", problem: lone("\\ud83d", "column 29")});
  });

  it("is refused for a low surrogate with no high one before it, and for a pair in the wrong order", () => {
    expect(problemOf('{"t":"\\uDE00 x"}')).toEqual({field: "t", problem: lone("\\uDE00", "column 7")});
    expect(problemOf('{"t":"\\ude00\\ud83d"}')).toEqual({field: "t", problem: lone("\\ude00", "column 7")});
  });

  it("is refused in a key, the key shown escaped", () => {
    expect(problemOf('{"s":{"\\ud800x":1}}')).toEqual({field: 's."\\ud800x"', problem: lone("\\ud800", "column 8")});
  });

  it("is not refused for a whole pair, or for a backslash and the letters ud800", () => {
    expect(problemOf('{"t":"\\ud83d\\ude00 \\uD83D\\uDE00"}')).toBeNull();
    expect(problemOf('{"t":"C:\\\\ud800"}')).toBeNull();
  });
});

/** A dump line whose first score object gives `believability` twice. */
function withDuplicateScore(id: string): string {
  return JSON.stringify(dumpRecord(id)).replace('"believability":8,', '"believability":8,"believability":9,');
}

/** A dump line whose first utterance ends in half an emoji (JSON.stringify writes a lone surrogate as its escape). */
const withLoneSurrogate = (id: string): string => {
  const record = dumpRecord(id);
  (record.raw_messages as string[][][])[0]![2]![2] = 'said: "Hello there \ud83d"';
  return JSON.stringify(record);
};

describe("importing a SOTOPIA dump", () => {
  it("stops at a record with a key given twice, naming file, line and path, and leaves the store as it was", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "good.jsonl", jsonl([dumpRecord("good")]))]);
    const line = withDuplicateScore("b");
    const file = writeFile(store.dir, "d.jsonl", `${JSON.stringify(dumpRecord("a"))}\n${line}\n`);
    const e = await expectImportFailure(store, "sotopia", [file]);
    expect([e.file, e.line, e.field]).toEqual([file, 2, "raw_rewards[0][1].believability"]);
    expect(e.message).toBe(`${file}:2: raw_rewards[0][1].believability: ${duplicate(`column ${columnOf(line, '"believability"')}`, `column ${columnOf(line, '"believability"', 1)}`)}`);
  });

  it("stops at a record with a lone surrogate escape, naming file, line and path, and leaves the store as it was", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "good.jsonl", jsonl([dumpRecord("good")]))]);
    const line = withLoneSurrogate("b");
    const file = writeFile(store.dir, "d.jsonl", `${JSON.stringify(dumpRecord("a"))}\n${line}\n`);
    const e = await expectImportFailure(store, "sotopia", [file]);
    expect([e.file, e.line, e.field]).toEqual([file, 2, "raw_messages[0][2][2]"]);
    expect(e.message).toBe(`${file}:2: raw_messages[0][2][2]: ${lone("\\ud83d", `column ${columnOf(line, "\\ud83d")}`)}`);
  });

  it("skips both under --skip-invalid and imports the rest, a message that holds key-like text included", async () => {
    const store = await tempStore();
    const quoting = dumpRecord("c");
    (quoting.raw_messages as string[][][])[0]![2]![2] = 'said: "my config says {"a":1,"a":2} : which a?"';
    const file = writeFile(store.dir, "d.jsonl", [JSON.stringify(dumpRecord("a")), withDuplicateScore("b"), JSON.stringify(quoting), withLoneSurrogate("d")].join("\n") + "\n");
    const rejectsPath = join(store.dir, "rejects.jsonl");
    const summary = await importFiles(store, "sotopia", [file], {skipInvalid: true, rejectsPath});
    expect(summary).toMatchObject({episodes: 2, rejected: 2});
    const rejects = readFileSync(rejectsPath, "utf8").trim().split("\n").map((l) => JSON.parse(l) as {line: number; field: string; problem: string});
    expect(rejects.map((r) => [r.line, r.field, r.problem.split(" (")[0]])).toEqual([
      [2, "raw_rewards[0][1].believability", "duplicate key in one object"],
      [4, "raw_messages[0][2][2]", "a lone surrogate escape \\ud83d"],
    ]);
    expect(await rows(store.conn, "SELECT episode_id FROM episodes ORDER BY 1")).toEqual([{episode_id: "a"}, {episode_id: "c"}]);
    expect(await rows(store.conn, "SELECT count(*)::INT AS n FROM messages WHERE episode_id = 'c' AND content LIKE '%{\"a\":1,\"a\":2} : which a?%'")).toEqual([{n: 1}]);
  });

  it("read by a worker thread over many segments, stops at the same line with the same message", async () => {
    const records = Array.from({length: 300}, (_, i) => JSON.stringify(dumpRecord(`w${i}`)));
    const cases = [{bad: withDuplicateScore("w-dup"), field: "raw_rewards[0][1].believability"}, {bad: withLoneSurrogate("w-lone"), field: "raw_messages[0][2][2]"}];
    const saved = {...dumpReading};
    const env = process.env.SOCIOMETER_IMPORT_WORKERS;
    try {
      for (const {bad, field} of cases) {
        const lines = [...records];
        lines[249] = bad;
        const messages: string[] = [];
        for (const workers of ["0", "1"]) {
          const store = await tempStore();
          const file = writeFile(store.dir, "d.jsonl", lines.join("\n") + "\n");
          // 16 KB segments: the 300 lines (about 1.6 KB each) are some thirty segments, the bad line far from the first.
          Object.assign(dumpReading, {minBytes: 0, segmentBytes: 16 * 1024});
          process.env.SOCIOMETER_IMPORT_WORKERS = workers;
          const e = await expectImportFailure(store, "sotopia", [file]);
          expect([e.line, e.field]).toEqual([250, field]);
          messages.push(e.message.replace(store.dir, "{dir}"));
        }
        expect(messages[1]).toBe(messages[0]);
      }
    } finally {
      Object.assign(dumpReading, saved);
      if (env === undefined) delete process.env.SOCIOMETER_IMPORT_WORKERS;
      else process.env.SOCIOMETER_IMPORT_WORKERS = env;
    }
  });

  it("through the CLI: exit code 65, the message on stderr, the store unchanged", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    expect((await cli(["import", "sotopia", writeFile(dir, "good.jsonl", jsonl([dumpRecord("good")])), "--db", db, "--quiet"])).code).toBe(0);
    const contents = async () => {
      const store = await openStore(db, {readOnly: true});
      try {
        return await snapshot(store);
      } finally {
        store.close();
      }
    };
    const before = await contents();
    const line = withDuplicateScore("b");
    const file = writeFile(dir, "d.jsonl", `${line}\n`);
    const result = await cli(["import", "sotopia", file, "--db", db, "--quiet"]);
    const message = `${file}:1: raw_rewards[0][1].believability: ${duplicate(`column ${columnOf(line, '"believability"')}`, `column ${columnOf(line, '"believability"', 1)}`)}`;
    expect(result).toEqual({code: 65, stdout: "", stderr: `sociometer: import failed, store unchanged:\n  ${message}\n`});
    expect(await contents()).toEqual(before);
  });
});

describe("importing a whole JSON file (STSS tasks.json)", () => {
  it("refuses a task with a key given twice, naming its element's path and the line in the file", async () => {
    const store = await tempStore();
    const tasks = JSON.parse(readFileSync(join(REPO, "data/samples/stss/tasks.json"), "utf8")) as Record<string, unknown>[];
    const second = JSON.stringify(tasks[1]).replace('"task_type":', '"task_type":"Private Activity","task_type":');
    const text = `[\n${JSON.stringify(tasks[0])},\n${second}\n]\n`;
    const file = writeFile(store.dir, "tasks.json", text);
    const e = await expectImportFailure(store, "stss-tasks", [file]);
    expect([e.line, e.field]).toEqual([1, "[1].task_type"]);
    expect(e.message).toBe(`${file}:1: [1].task_type: ${duplicate(`line 3, column ${columnOf(second, '"task_type"')}`, `line 3, column ${columnOf(second, '"task_type"', 1)}`)}`);
  });
});
