// The import contract: whole or nothing, idempotent, replace on change, and errors that name file, line and field.

import {describe, expect, it} from "vitest";
import {createHash} from "node:crypto";
import {readFileSync, renameSync, utimesSync, writeFileSync} from "node:fs";
import {ImportError} from "../../loaders/import/errors.js";
import {importFiles, importThreads} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, expectImportFailure, snapshot, tempStore, writeFile} from "../helpers/store.js";

const expectRejected = expectImportFailure;

const scores = (overrides: Record<string, unknown>) => {
  const base = dumpRecord("x").raw_rewards as [number, Record<string, unknown>][];
  return [[base[0][0], {...base[0][1], ...overrides}], base[1]];
};

describe("bad input: a clear error, and the store unchanged", () => {
  it("rejects goal 11 (above [0, 10]) without clipping, naming file, line and field", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "good.jsonl", jsonl([dumpRecord("keep")]))]);
    const bad = writeFile(store.dir, "bad.jsonl", jsonl([dumpRecord("a"), dumpRecord("b", {raw_rewards: scores({goal: 11})})]));
    const e = await expectRejected(store, "sotopia", [bad]);
    expect(e.file).toBe(bad);
    expect(e.line).toBe(2);
    expect(e.field).toBe("raw_rewards[0][1].goal");
    expect(e.message).toContain("11 is outside GOAL's range [0, 10]");
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(1);
  });

  it("rejects secret +2 (above [-10, 0])", async () => {
    const store = await tempStore();
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "s.jsonl", jsonl([dumpRecord("a", {raw_rewards: scores({secret: 2})})]))]);
    expect(e.field).toBe("raw_rewards[0][1].secret");
    expect(e.problem).toBe("2 is outside SEC's range [-10, 0]");
  });

  it("rejects a non-integer score", async () => {
    const store = await tempStore();
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "f.jsonl", jsonl([dumpRecord("a", {raw_rewards: scores({knowledge: 2.5})})]))]);
    expect(e.problem).toContain("not a whole number");
  });

  it("rejects an unknown dimension", async () => {
    const store = await tempStore();
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "u.jsonl", jsonl([dumpRecord("a", {raw_rewards: scores({charisma: 3})})]))]);
    expect(e.field).toBe("raw_rewards[0][1].charisma");
    expect(e.problem).toMatch(/^unknown dimension \(expected one of believability, /);
  });

  it("rejects an episode id that appears twice in one import, even across files", async () => {
    const store = await tempStore();
    const one = writeFile(store.dir, "one.jsonl", jsonl([dumpRecord("same")]));
    const two = writeFile(store.dir, "two.jsonl", jsonl([dumpRecord("other"), dumpRecord("same")]));
    const e = await expectRejected(store, "sotopia", [one, two]);
    expect([e.file, e.line, e.field]).toEqual([two, 2, "episode_id"]);
    expect(e.problem).toContain("already in this import (one.jsonl:1)");
  });

  it("rejects an episode id that another file already put in the store", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "first.jsonl", jsonl([dumpRecord("dup")]))]);
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "second.jsonl", jsonl([dumpRecord("dup", {codename: "changed"})]))]);
    expect(e.problem).toContain("already in the store");
  });

  it("rejects truncated JSON, naming the line", async () => {
    const store = await tempStore();
    const text = jsonl([dumpRecord("a"), dumpRecord("b")]);
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "t.jsonl", text.slice(0, text.length - 40))]);
    expect(e.line).toBe(2);
    expect(e.problem).toMatch(/^not valid JSON .*truncated/);
  });

  it("rejects a file that is not UTF-8", async () => {
    const store = await tempStore();
    const latin1 = Buffer.from(jsonl([dumpRecord("a", {scenario: "café"})]), "latin1");
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "l.jsonl", latin1)]);
    expect([e.line, e.problem]).toEqual([1, "the line is not valid UTF-8 (is the file in another encoding?)"]);
  });

  it("rejects a missing field with its name", async () => {
    const store = await tempStore();
    const {experiment_model_name_pairs: _, ...rest} = dumpRecord("a");
    const e = await expectRejected(store, "sotopia", [writeFile(store.dir, "m.jsonl", jsonl([rest]))]);
    expect([e.field, e.problem]).toEqual(["experiment_model_name_pairs", "expected an array, got nothing (the field is missing)"]);
  });

  it("rejects a file that does not exist before touching the store", async () => {
    const store = await tempStore();
    const e = await expectRejected(store, "sotopia", [`${store.dir}/nope.jsonl`]);
    expect(e.problem).toBe("no such file");
  });
});

describe("--skip-invalid", () => {
  it("imports the valid records and writes each rejected one with its reason", async () => {
    const store = await tempStore();
    const file = writeFile(store.dir, "mixed.jsonl", jsonl([dumpRecord("a"), dumpRecord("b", {raw_rewards: scores({goal: 11})}), dumpRecord("c")]) + "{oops\n");
    const rejectsPath = `${store.dir}/rejects.jsonl`;
    const summary = await importFiles(store, "sotopia", [file], {skipInvalid: true, rejectsPath});
    expect(summary).toMatchObject({episodes: 2, rejected: 2, rejectsPath});
    const rejects = readFileSync(rejectsPath, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rejects.map((r) => [r.line, r.field])).toEqual([[2, "raw_rewards[0][1].goal"], [4, null]]);
    expect(rejects[0].raw).toContain('"episode_id":"b"');
    expect(await rows(store.conn, "SELECT rows, rejected FROM sources")).toEqual([{rows: 2, rejected: 2}]);
  });
});

describe("fingerprints", () => {
  it("importing the same file twice is a no-op, reported as unchanged", async () => {
    const store = await tempStore();
    const file = writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("a"), dumpRecord("b")]));
    await importFiles(store, "sotopia", [file]);
    const before = await snapshot(store);
    const again = await importFiles(store, "sotopia", [file]);
    expect(again.files.map((f) => f.status)).toEqual(["unchanged"]);
    expect(again.episodes).toBe(0);
    expect(await snapshot(store)).toEqual(before);
  });

  it("the same file under another format is refused, never reported as unchanged", async () => {
    const store = await tempStore();
    const file = writeFile(store.dir, "tasks.json", readFileSync("data/samples/stss/tasks.json"));
    await importFiles(store, "stss-tasks", [file]);
    const e = await expectImportFailure(store, "stss", [file]);
    expect(e.message).toBe(`${file}: is in the store as stss-tasks, not stss; a file is read as one format (sociometer import stss-tasks ${file} brings it up to date)`);
    // A copy of it under another name is refused the same way, not reported unchanged.
    const copy = writeFile(store.dir, "copy.json", readFileSync(file));
    const c = await expectImportFailure(store, "stss", [copy]);
    expect(c.message).toBe(`${copy}: holds the same bytes as ${file}, which is in the store as stss-tasks, not stss; a file is read as one format`);
  });

  it("the same content at another path is also unchanged, and says where it came from", async () => {
    const store = await tempStore();
    const text = jsonl([dumpRecord("a")]);
    const first = writeFile(store.dir, "a.jsonl", text);
    await importFiles(store, "sotopia", [first]);
    const copy = await importFiles(store, "sotopia", [writeFile(store.dir, "copy.jsonl", text)]);
    expect(copy.files[0]).toMatchObject({status: "unchanged", sameAs: first});
  });

  it("a changed file at the same path replaces its rows, and keeps other files' rows", async () => {
    const store = await tempStore();
    const other = writeFile(store.dir, "other.jsonl", jsonl([dumpRecord("other")]));
    const path = writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("a"), dumpRecord("b")]));
    await importFiles(store, "sotopia", [other, path]);
    writeFileSync(path, jsonl([dumpRecord("a", {codename: "edited"}), dumpRecord("c")]));
    const summary = await importFiles(store, "sotopia", [path]);
    expect(summary.files[0].status).toBe("replaced");
    expect(await rows(store.conn, "SELECT episode_id, codename FROM episodes ORDER BY 1")).toEqual([
      {episode_id: "a", codename: "edited"}, {episode_id: "c", codename: "desk"}, {episode_id: "other", codename: "desk"},
    ]);
    expect(await count(store, "SELECT count(*) FROM sources")).toBe(2);
    expect(await count(store, "SELECT count(*) FROM ratings")).toBe(3 * 14);
    expect(await count(store, "SELECT count(*) FROM messages WHERE episode_id = 'b'")).toBe(0);
  });

  it("a failed replacement leaves the earlier version in place", async () => {
    const store = await tempStore();
    const path = writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("a")]));
    await importFiles(store, "sotopia", [path]);
    writeFileSync(path, jsonl([dumpRecord("a2"), dumpRecord("bad", {raw_rewards: scores({goal: -1})})]));
    await expectRejected(store, "sotopia", [path]);
    expect(await rows(store.conn, "SELECT episode_id FROM episodes")).toEqual([{episode_id: "a"}]);
  });
});

/** A progress reporter that runs `change` once, when the import starts reading (`at: "start"`) or after its first record (`at: "update"`). */
const changeDuring = (at: "start" | "update", change: () => void) => {
  let done = false;
  const once = () => {
    if (!done) (done = true), change();
  };
  return {start: () => void (at === "start" && once()), update: () => void (at === "update" && once()), finish: () => {}};
};

/** Writes `text` to `name` with a modification time well in the past, so a rewrite during the test always moves it. */
const writeOld = (dir: string, name: string, text: string) => {
  const path = writeFile(dir, name, text);
  utimesSync(path, new Date("2024-01-01T00:00:00Z"), new Date("2024-01-01T00:00:00Z"));
  return path;
};

describe("a file that changes while it is imported", () => {
  const original = jsonl([dumpRecord("a"), dumpRecord("b"), dumpRecord("c")]);
  // The same length, other content: the case a size check alone misses.
  const variant = original.replaceAll('"desk"', '"dusk"');

  async function storeWithOther() {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "other.jsonl", jsonl([dumpRecord("other")]))]);
    return store;
  }

  it("is refused when rewritten in place after its first record, naming the file; the original then imports in full", async () => {
    expect(variant.length).toBe(original.length);
    expect(variant).not.toBe(original);
    const store = await storeWithOther();
    const path = writeOld(store.dir, "e.jsonl", original);
    const before = await snapshot(store);
    const error = await importFiles(store, "sotopia", [path], {progress: changeDuring("update", () => writeFileSync(path, variant))})
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    const e = error as ImportError;
    expect([e.file, e.line, e.field]).toEqual([path, null, null]);
    expect(e.problem).toMatch(/^the file changed while it was being imported \(it was modified at 20\d\d-.*\); nothing was imported, import it again once it is complete$/);
    expect(await snapshot(store)).toEqual(before);
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(1);
    // Nothing of the refused run is remembered: the original, written back, is imported, not "unchanged".
    writeFileSync(path, original);
    const again = await importFiles(store, "sotopia", [path]);
    expect(again.files.map((f) => [f.status, f.episodes])).toEqual([["imported", 3]]);
    expect(await rows(store.conn, "SELECT sha256 FROM sources WHERE path = $1", [path])).toEqual([{sha256: createHash("sha256").update(original).digest("hex")}]);
  });

  it("names the change, not the line it cut, when a rewrite breaks a record the import has yet to read", async () => {
    const store = await storeWithOther();
    // Line 2 is longer than a read (4 MiB): its end is read only after the rewrite, which drops its closing brace.
    const long = JSON.stringify(dumpRecord("b")).slice(0, -1) + " ".repeat(5 * 2 ** 20) + "}";
    const text = jsonl([dumpRecord("a")]) + long + "\n";
    const path = writeOld(store.dir, "e.jsonl", text);
    const before = await snapshot(store);
    const cut = () => writeFileSync(path, text.slice(0, -2) + " \n");
    const error = await importFiles(store, "sotopia", [path], {progress: changeDuring("update", cut)}).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect([(error as ImportError).file, (error as ImportError).line]).toEqual([path, null]);
    expect((error as ImportError).problem).toMatch(/^the file changed while it was being imported \(it was modified at /);
    expect(await snapshot(store)).toEqual(before);
  });

  it("is refused when another file is moved into its place while it is read", async () => {
    const store = await storeWithOther();
    const path = writeOld(store.dir, "e.jsonl", original);
    const before = await snapshot(store);
    const replace = () => renameSync(writeFile(store.dir, "e.jsonl.new", variant), path);
    const error = await importFiles(store, "sotopia", [path], {progress: changeDuring("update", replace)}).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).file).toBe(path);
    expect((error as ImportError).problem).toContain("(another file took its place)");
    expect(await snapshot(store)).toEqual(before);
  });

  it("is refused when it grows between the import's plan and its read (a whole-file CSV reader)", async () => {
    const store = await storeWithOther();
    const header = "episode_id,agent,dimension,rater,value,rationale\n";
    const path = writeOld(store.dir, "r.csv", `${header}other,1,goal,ann,6,\n`);
    const before = await snapshot(store);
    const grow = () => writeFileSync(path, `${header}other,1,goal,ann,6,\nother,2,goal,ann,3,\n`);
    const error = await importFiles(store, "sotopia-ratings", [path], {progress: changeDuring("start", grow)}).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).file).toBe(path);
    expect((error as ImportError).problem).toContain(`(its size went from ${header.length + 20} to ${header.length + 40} bytes)`);
    expect(await snapshot(store)).toEqual(before);
    expect(await count(store, "SELECT count(*) FROM ratings")).toBe(14);
  });

  it("is refused when rewritten between plan and read (a whole-file JSON reader)", async () => {
    const store = await storeWithOther();
    const log = JSON.stringify(dumpRecord("log"));
    const path = writeOld(store.dir, "log.json", log);
    const before = await snapshot(store);
    const error = await importFiles(store, "sotopia", [path], {progress: changeDuring("start", () => writeFileSync(path, log.replaceAll('"desk"', '"dusk"')))})
      .then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).file).toBe(path);
    expect((error as ImportError).problem).toMatch(/\(it was modified at /);
    expect(await snapshot(store)).toEqual(before);
  });
});

describe("paths decide first", () => {
  it("a stored file rewritten with another stored file's bytes loses its old rows (not: unchanged, already imported from a)", async () => {
    const store = await tempStore();
    const a = writeFile(store.dir, "a.jsonl", jsonl([dumpRecord("a1"), dumpRecord("a2")]));
    const b = writeFile(store.dir, "b.jsonl", jsonl([dumpRecord("b1")]));
    await importFiles(store, "sotopia", [a, b]);
    writeFileSync(b, readFileSync(a));
    const summary = await importFiles(store, "sotopia", [a, b]);
    expect(summary.files.map((f) => [f.path, f.status, f.sameAs, f.episodes])).toEqual([[a, "unchanged", undefined, 0], [b, "replaced", a, 0]]);
    expect(summary.files[1].sourceId).toBe(summary.files[0].sourceId);
    expect(await rows(store.conn, "SELECT e.episode_id, s.path FROM episodes e JOIN sources s USING (source_id) ORDER BY 1")).toEqual([
      {episode_id: "a1", path: a}, {episode_id: "a2", path: a},
    ]);
    expect(await count(store, "SELECT count(*) FROM messages WHERE episode_id = 'b1'")).toBe(0);
    expect(await count(store, "SELECT count(*) FROM sources")).toBe(1);
    // From now on b is a copy of a, as if it had never been imported on its own.
    expect((await importFiles(store, "sotopia", [b])).files[0]).toMatchObject({status: "unchanged", sameAs: a});
  });

  it("two stored files that swap contents are both replaced, each path with its new rows", async () => {
    const store = await tempStore();
    const one = jsonl([dumpRecord("x")]);
    const two = jsonl([dumpRecord("y")]);
    const a = writeFile(store.dir, "a.jsonl", one);
    const b = writeFile(store.dir, "b.jsonl", two);
    await importFiles(store, "sotopia", [a, b]);
    writeFileSync(a, two);
    writeFileSync(b, one);
    const summary = await importFiles(store, "sotopia", [a, b]);
    expect(summary.files.map((f) => [f.status, f.sameAs, f.episodes])).toEqual([["replaced", undefined, 1], ["replaced", undefined, 1]]);
    expect(await rows(store.conn, "SELECT e.episode_id, s.path FROM episodes e JOIN sources s USING (source_id) ORDER BY 1")).toEqual([
      {episode_id: "x", path: b}, {episode_id: "y", path: a},
    ]);
  });
});

describe("DuckDB's threads during an import", () => {
  const threadsOf = async (conn: Parameters<typeof rows>[0]) =>
    (await rows<{threads: number}>(conn, "SELECT current_setting('threads')::INTEGER AS threads"))[0].threads;

  it("leave the cores the import's main thread and parse worker take", () => {
    expect([1, 2, 3, 4, 8].map((cores) => importThreads(cores))).toEqual([1, 1, 1, 2, 6]);
  });

  it("are lowered while the import runs, and the store's own number comes back after it, succeeded or failed", async () => {
    const store = await tempStore();
    const own = importThreads() + 3;
    await store.conn.run(`SET threads = ${own}`);
    const reader = await store.reader();
    const during: Promise<number>[] = [];
    const progress = {start: () => void during.push(threadsOf(reader)), update: () => {}, finish: () => {}};
    await importFiles(store, "sotopia", [writeFile(store.dir, "a.jsonl", jsonl([dumpRecord("a")]))], {progress});
    expect(await threadsOf(store.conn)).toBe(own);
    expect(await Promise.all(during)).toEqual([importThreads()]);
    await expectRejected(store, "sotopia", [writeFile(store.dir, "bad.jsonl", jsonl([dumpRecord("d", {raw_rewards: scores({goal: 11})})]))]);
    expect(await threadsOf(store.conn)).toBe(own);
  });

  it("are left alone when the store uses fewer", async () => {
    const store = await tempStore();
    await store.conn.run("SET threads = 1");
    const reader = await store.reader();
    const during: Promise<number>[] = [];
    const progress = {start: () => void during.push(threadsOf(reader)), update: () => {}, finish: () => {}};
    await importFiles(store, "sotopia", [writeFile(store.dir, "a.jsonl", jsonl([dumpRecord("a")]))], {progress});
    expect(await Promise.all(during)).toEqual([1]);
    expect(await threadsOf(store.conn)).toBe(1);
  });
});

describe("DuckDB's memory during an import", () => {
  const limitOf = async (conn: Parameters<typeof rows>[0]) =>
    (await rows<{limit: string}>(conn, "SELECT current_setting('memory_limit') AS limit"))[0].limit;

  it("is bounded to 2 GiB while the import runs, and the store's own limit comes back after it, succeeded or failed", async () => {
    const store = await tempStore();
    await store.conn.run("SET memory_limit = '8GB'");
    expect(await limitOf(store.conn)).toBe("7.4 GiB");
    const reader = await store.reader();
    const during: Promise<string>[] = [];
    const progress = {start: () => void during.push(limitOf(reader)), update: () => {}, finish: () => {}};
    // Three imports in a row: the limit put back is the one shown before, not a little lower each time.
    for (const id of ["a", "b", "c"]) {
      await importFiles(store, "sotopia", [writeFile(store.dir, `${id}.jsonl`, jsonl([dumpRecord(id)]))], {progress});
      expect(await limitOf(store.conn)).toBe("7.4 GiB");
    }
    expect(await Promise.all(during)).toEqual(["2.0 GiB", "2.0 GiB", "2.0 GiB"]);
    await expectRejected(store, "sotopia", [writeFile(store.dir, "bad.jsonl", jsonl([dumpRecord("d", {raw_rewards: scores({goal: 11})})]))]);
    expect(await limitOf(store.conn)).toBe("7.4 GiB");
  });

  it("is left alone when the store's limit is 2 GiB or less", async () => {
    const store = await tempStore();
    await store.conn.run("SET memory_limit = '500MB'");
    const reader = await store.reader();
    const during: Promise<string>[] = [];
    const progress = {start: () => void during.push(limitOf(reader)), update: () => {}, finish: () => {}};
    await importFiles(store, "sotopia", [writeFile(store.dir, "a.jsonl", jsonl([dumpRecord("a")]))], {progress});
    expect(await Promise.all(during)).toEqual(["476.8 MiB"]);
    expect(await limitOf(store.conn)).toBe("476.8 MiB");
  });
});
