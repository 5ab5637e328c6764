// The SOTOPIA dump read by worker threads (jsonl-workers.ts) must import
// exactly what the single-threaded reader imports: same rows, same rejects with
// the same lines and fields, same errors, with segments cut mid-line.

import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {spawnSync} from "node:child_process";
import {createHash} from "node:crypto";
import {closeSync, openSync, readFileSync, utimesSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {ImportError} from "../../loaders/import/errors.js";
import {readLines, readSegmentLines} from "../../loaders/import/files.js";
import {readJsonlInWorkers, type IntoBatch} from "../../loaders/import/jsonl-workers.js";
import type {ReadItem} from "../../loaders/import/records.js";
import {dumpIntoBatch, episodeItem} from "../../loaders/import/sotopia.js";
import {SourceFile} from "../../loaders/import/source-file.js";
import {importFiles} from "../../loaders/import/session.js";
import {dumpReading} from "../../loaders/import/sotopia.js";
import {rows} from "../../loaders/store/db.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, snapshot, tempDir, tempStore, writeFile} from "../helpers/store.js";

const SAMPLES = join(import.meta.dirname, "../../data/samples/sotopia/episodes.jsonl");
const saved = {...dumpReading};

/** Runs `body` with the dump read in-thread (workers 0) or by two workers over segments of `segmentBytes`. */
async function reading<T>(workers: number, body: () => Promise<T>, segmentBytes = 64 * 1024): Promise<T> {
  dumpReading.segmentBytes = segmentBytes;
  const before = process.env.SOCIOMETER_IMPORT_WORKERS;
  process.env.SOCIOMETER_IMPORT_WORKERS = String(workers);
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.SOCIOMETER_IMPORT_WORKERS;
    else process.env.SOCIOMETER_IMPORT_WORKERS = before;
  }
}

beforeAll(() => Object.assign(dumpReading, {minBytes: 0}));
afterAll(() => Object.assign(dumpReading, saved));

describe("segments of a file", () => {
  it("tile it: every line once, numbered as readLines numbers them, for any segment size", () => {
    const dir = tempDir();
    // CRLF, blank lines, a long line, invalid UTF-8 and no final line break.
    const bytes = Buffer.concat([
      Buffer.from("a\r\n\nbb\nccc\n" + "x".repeat(40) + "\n\n\ndé\n"), Buffer.from([0x66, 0xff, 0x0a]), Buffer.from("last"),
    ]);
    const path = writeFile(dir, "lines.txt", bytes);
    const text = (t: unknown) => (typeof t === "string" ? t : "(bad)");
    const expected = [...readLines(path)].map((l) => [l.number, text(l.text)]);
    expect(expected.map((l) => l[1])).toEqual(["a", "", "bb", "ccc", "x".repeat(40), "", "", "dé", "(bad)", "last"]);
    const fd = openSync(path, "r");
    try {
      for (let size = 1; size <= bytes.length; size++) {
        const got: (string | number)[][] = [];
        let base = 0;
        for (let start = 0; start < bytes.length; start += size) {
          let lines = 0;
          for (const l of readSegmentLines(fd, start, Math.min(bytes.length, start + size))) {
            got.push([base + l.number, text(l.text)]);
            lines = l.number;
          }
          base += lines;
        }
        expect(got, `segments of ${size} bytes`).toEqual(expected);
      }
    } finally {
      closeSync(fd);
    }
  });
  it("hand over every byte of the file once, in order, for the fingerprint", () => {
    const bytes = Buffer.from("a\r\n\nbb\nccc\n" + "x".repeat(40) + "\n\n\nlast");
    const path = writeFile(tempDir(), "lines.txt", bytes);
    const fd = openSync(path, "r");
    try {
      for (let size = 1; size <= bytes.length; size++) {
        const pieces: Buffer[] = [];
        const starts: number[] = [];
        let next = 0;
        for (let start = 0; start < bytes.length; start += size) {
          const give = (b: Buffer, at: number) => {
            starts.push(at - next);
            next = at + b.length;
            pieces.push(Buffer.from(b));
          };
          for (const _ of readSegmentLines(fd, start, Math.min(bytes.length, start + size), give));
        }
        expect(starts.every((gap) => gap === 0), `segments of ${size} bytes meet`).toBe(true);
        expect(Buffer.concat(pieces).equals(bytes), `segments of ${size} bytes`).toBe(true);
      }
    } finally {
      closeSync(fd);
    }
  });

  it("read a last line that runs far past the segment's end (the rest is read in smaller pieces) whole, and hand its bytes over once", () => {
    const lines = [10, 150_000, 70_000, 5, 200_000, 3].map((n, i) => String.fromCharCode(97 + i).repeat(n));
    const bytes = Buffer.from(lines.join("\n"));
    const path = writeFile(tempDir(), "long.txt", bytes);
    const fd = openSync(path, "r");
    try {
      for (const size of [100_000, 150_011, 300_000]) {
        const got: string[] = [];
        const pieces: Buffer[] = [];
        let next = 0;
        const give = (b: Buffer, at: number) => {
          expect(at, `segments of ${size} bytes meet`).toBe(next);
          next = at + b.length;
          pieces.push(Buffer.from(b));
        };
        for (let start = 0; start < bytes.length; start += size) {
          for (const l of readSegmentLines(fd, start, Math.min(bytes.length, start + size), give)) got.push(String(l.text));
        }
        expect(got, `segments of ${size} bytes`).toEqual(lines);
        expect(Buffer.concat(pieces).equals(bytes), `segments of ${size} bytes`).toBe(true);
      }
    } finally {
      closeSync(fd);
    }
  });
});

describe("sotopia dump read by worker threads", () => {
  it("stores the same rows as the single-threaded reader (the sample episodes)", async () => {
    const one = await tempStore();
    const many = await tempStore();
    const a = await reading(0, () => importFiles(one, "sotopia", [SAMPLES]));
    const b = await reading(2, () => importFiles(many, "sotopia", [SAMPLES]));
    expect(b.episodes).toBe(readFileSync(SAMPLES, "utf8").trim().split("\n").length);
    expect({...b, seconds: 0}).toEqual({...a, seconds: 0});
    const [x, y] = [await snapshot(one), await snapshot(many)];
    expect(y.messages.length).toBeGreaterThan(1000);
    expect(y).toEqual(x);
  });

  // Bad lines at several places, so some fall in later segments and next to batch boundaries.
  const messy = () => {
    const lines = [
      JSON.stringify(dumpRecord("e1")),
      "",
      JSON.stringify(dumpRecord("e2", {raw_rewards: [[1, {goal: 11}], [1, {goal: 3}]]})),
      JSON.stringify(dumpRecord("e3")) + "\r",
      JSON.stringify(dumpRecord("e1", {codename: "again"})),
      JSON.stringify(dumpRecord("e4")).slice(0, 300),
      JSON.stringify(dumpRecord("e5", {raw_rewards: [0, 0]})),
      JSON.stringify(dumpRecord("e6", {experiment_model_name_pairs: ["j", "m"]})),
      JSON.stringify(dumpRecord("e7")),
    ];
    return Buffer.concat([Buffer.from(lines.join("\n") + "\n"), Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from(JSON.stringify(dumpRecord("e8")))]);
  };

  it("rejects the same lines, fields and problems with --skip-invalid, in order", async () => {
    const dir = tempDir();
    const file = writeFile(dir, "messy.jsonl", messy());
    const run = async (workers: number) => {
      const store = await tempStore();
      const rejectsPath = join(dir, `rejects-${workers}.jsonl`);
      const summary = await reading(workers, () => importFiles(store, "sotopia", [file], {skipInvalid: true, rejectsPath}), 1500);
      const rejects = readFileSync(rejectsPath, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
      return {summary: {...summary, seconds: 0, rejectsPath: null}, rejects, rows: await snapshot(store)};
    };
    const single = await run(0);
    const threaded = await run(2);
    expect(single.rejects.map((r) => [r.line, r.field])).toEqual([
      [3, "raw_rewards[0][1].goal"], [5, "episode_id"], [6, null], [8, "experiment_model_name_pairs"], [10, null],
    ]);
    expect(single.summary).toMatchObject({episodes: 5, rejected: 5, judgeFailed: 1});
    expect(threaded).toEqual(single);
  });

  it("fails on the first bad line with the same file, line and field, leaving the store as it was", async () => {
    const dir = tempDir();
    const file = writeFile(dir, "messy.jsonl", messy());
    const errors: ImportError[] = [];
    for (const workers of [0, 2]) {
      const store = await tempStore();
      const before = await snapshot(store);
      errors.push(await reading(workers, () => importFiles(store, "sotopia", [file]), 1500).then(() => { throw new Error("imported"); }, (e: ImportError) => e));
      expect(await snapshot(store)).toEqual(before);
    }
    expect(errors[1]).toBeInstanceOf(ImportError);
    expect([errors[1].file, errors[1].line, errors[1].field]).toEqual([file, 3, "raw_rewards[0][1].goal"]);
    expect(errors[1].message).toBe(errors[0].message);
  });

  it("stops its workers when the import fails early, while they wait for the main thread to catch up", async () => {
    const store = await tempStore();
    // Many segments: the worker posts a few batches ahead and then waits for the reader, which has already given up.
    const records = Array.from({length: 300}, (_, i) => dumpRecord(`w${i}`));
    const file = writeFile(store.dir, "late.jsonl", "{not json\n" + jsonl(records));
    const started = Date.now();
    const error = await reading(1, () => importFiles(store, "sotopia", [file]), 1500).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect([(error as ImportError).line, (error as ImportError).field]).toEqual([1, null]);
    expect(Date.now() - started).toBeLessThan(10_000);
    const summary = await reading(1, () => importFiles(store, "sotopia", [file], {skipInvalid: true, rejectsPath: join(store.dir, "r.jsonl")}), 1500);
    expect(summary).toMatchObject({episodes: 300, rejected: 1});
  });

  it("reports progress in bytes up to the file's size", async () => {
    const store = await tempStore();
    const seen: number[] = [];
    const progress = {start: () => {}, update: (n: number) => void seen.push(n), finish: () => {}};
    // Segments much shorter than a line: most hold no line start of their own.
    await reading(2, () => importFiles(store, "sotopia", [SAMPLES], {progress}), 1500);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1])).toBe(true);
    expect(seen.at(-1)).toBe(readFileSync(SAMPLES).length);
  });

  it("refuses a file rewritten (same length) while the workers read it, and leaves the store as it was", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "other.jsonl", jsonl([dumpRecord("other")]))]);
    const original = jsonl(Array.from({length: 40}, (_, i) => dumpRecord(`w${i}`)));
    const variant = original.replaceAll('"desk"', '"dusk"');
    expect(variant.length).toBe(original.length);
    const file = writeFile(store.dir, "dump.jsonl", original);
    utimesSync(file, new Date("2024-01-01T00:00:00Z"), new Date("2024-01-01T00:00:00Z"));
    const before = await snapshot(store);
    let rewritten = false;
    const progress = {start: () => {}, finish: () => {}, update: () => void (rewritten || ((rewritten = true), writeFileSync(file, variant)))};
    const error = await reading(2, () => importFiles(store, "sotopia", [file], {progress}), 1500).then(() => null, (e: unknown) => e);
    expect(rewritten).toBe(true);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).file).toBe(file);
    expect((error as ImportError).problem).toMatch(/^the file changed while it was being imported \(/);
    expect(await snapshot(store)).toEqual(before);
    // The original, written back, is imported in full rather than taken for "unchanged".
    writeFileSync(file, original);
    const again = await reading(2, () => importFiles(store, "sotopia", [file]), 1500);
    expect(again.files.map((f) => [f.status, f.episodes])).toEqual([["imported", 40]]);
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(41);
  });

  it("records the sha256 of the file, the same as the single-threaded reader's", async () => {
    const store = await tempStore();
    await reading(2, () => importFiles(store, "sotopia", [SAMPLES]), 1500);
    const sha = createHash("sha256").update(readFileSync(SAMPLES)).digest("hex");
    expect(await rows(store.conn, "SELECT sha256 FROM sources")).toEqual([{sha256: sha}]);
  });
});

/** A segment size that puts each of these lines in a segment of its own. */
const oneLineSegments = (records: readonly object[]): number => records.reduce((least, r) => Math.min(least, JSON.stringify(r).length), Infinity);

/** The reading thread's parse, made to take 5 ms a line so the tests can set it against the worker's 20 ms. */
const readSlowly = (doc: Parameters<typeof episodeItem>[0], line: number) => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  return episodeItem(doc, line, false);
};

describe("the reading thread while a worker parses", () => {
  it("reads the next segments nobody has taken itself instead of waiting, and yields every line once, in order", async () => {
    const records = Array.from({length: 300}, (_, i) => dumpRecord(`r${String(i).padStart(3, "0")}`));
    const path = writeFile(tempDir(), "slow.jsonl", jsonl(records));
    const source = SourceFile.untracked(path);
    const seen: {kind: ReadItem["kind"]; ids: string[]; lines: number[]}[] = [];
    try {
      // One line a segment. This thread takes 5 ms a line, so the worker is up before it is through the file;
      // the worker takes 20 ms a line, so this thread, waiting for it, has time to read segments of its own.
      const segmentBytes = oneLineSegments(records);
      const read = readJsonlInWorkers(source, () => {}, new URL("./slow-sotopia-worker.ts", import.meta.url), readSlowly, {workers: 1, segmentBytes});
      for await (const item of read) {
        if (item.kind === "batch") {
          const b = item.batch;
          seen.push({kind: "batch", ids: b.episodes.episode_id, lines: Array.from(b.line)});
        } else if (item.kind === "episode") {
          seen.push({kind: "episode", ids: [item.episode.episode_id], lines: [item.line]});
        }
      }
    } finally {
      source.close();
    }
    expect(seen.flatMap((s) => s.ids)).toEqual(records.map((r) => r.episode_id));
    expect(seen.flatMap((s) => s.lines)).toEqual(records.map((_, i) => i + 1));
    // Both threads parsed: some lines came from the worker, and this thread read lines after the worker's first batch.
    const firstBatch = seen.findIndex((s) => s.kind === "batch");
    expect(firstBatch).toBeGreaterThanOrEqual(0);
    expect(seen.slice(firstBatch).some((s) => s.kind === "episode")).toBe(true);
  });
});

describe("the reading thread's own segments", () => {
  it("go into batches as the worker's do, every line once and in order, rejects in their places", async () => {
    // The slow worker (20 ms a line) leaves most segments to this thread, which reads ahead as soon as it would wait.
    const lines: string[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 40; i++) {
      const id = `h${String(i).padStart(2, "0")}`;
      const bad = i % 10 === 9;
      lines.push(JSON.stringify(dumpRecord(id, bad ? {raw_rewards: [[1, {goal: 11}], [1, {goal: 3}]]} : {})));
      expected.push(`${i + 1} ${bad ? "reject raw_rewards[0][1].goal" : id}`);
    }
    const path = writeFile(tempDir(), "mixed.jsonl", lines.join("\n") + "\n");
    const source = SourceFile.untracked(path);
    const here: number[] = [];
    const intoBatchHere: IntoBatch = (doc, line, batch) => {
      here.push(line);
      return dumpIntoBatch(doc, line, batch);
    };
    const seen: string[] = [];
    try {
      const segmentBytes = lines.reduce((least, l) => Math.min(least, l.length), Infinity);
      const plan = {workers: 1, segmentBytes, stealAfterMs: 0};
      const toItem = (doc: Parameters<typeof episodeItem>[0], line: number) => episodeItem(doc, line, false);
      for await (const item of readJsonlInWorkers(source, () => {}, new URL("./slow-sotopia-worker.ts", import.meta.url), toItem, plan, intoBatchHere)) {
        if (item.kind === "batch") for (let i = 0; i < item.batch.count; i++) seen.push(`${item.batch.line[i]} ${item.batch.episodes.episode_id[i]}`);
        else if (item.kind === "reject") seen.push(`${item.line} reject ${item.field}`);
        else seen.push(`${item.kind} on this thread`);
      }
    } finally {
      source.close();
    }
    // No episode comes as a record: this thread's lines went into batches too.
    expect(seen).toEqual(expected);
    expect(here.length).toBeGreaterThan(10);
  });
});

describe("the reading thread while a worker keeps up", () => {
  it("reads no segment ahead until the workers have kept it waiting stealAfterMs", async () => {
    // As above (this thread 5 ms a line, the worker 20 ms), but it may read ahead only after a minute of waiting:
    // once the worker is up, the worker parses every line but those of a turn nobody had claimed yet.
    const records = Array.from({length: 60}, (_, i) => dumpRecord(`k${String(i).padStart(2, "0")}`));
    const path = writeFile(tempDir(), "patient.jsonl", jsonl(records));
    /** One read of the file; this thread's first line takes `firstLineMs`, so a worker slow to start (CI at load 5) can start meanwhile. */
    const readAll = async (firstLineMs: number) => {
      const source = SourceFile.untracked(path);
      const kinds: ReadItem["kind"][] = [];
      const lines: number[] = [];
      let first = true;
      const read = (doc: Parameters<typeof episodeItem>[0], line: number) => {
        if (first) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, firstLineMs);
        first = false;
        return readSlowly(doc, line);
      };
      try {
        const plan = {workers: 1, segmentBytes: oneLineSegments(records), stealAfterMs: 60_000};
        for await (const item of readJsonlInWorkers(source, () => {}, new URL("./slow-sotopia-worker.ts", import.meta.url), read, plan)) {
          if (item.kind === "batch") {
            for (let i = 0; i < item.batch.count; i++) kinds.push("batch"), lines.push(item.batch.line[i]);
          } else if (item.kind === "episode") {
            kinds.push("episode");
            lines.push(item.line);
          }
        }
      } finally {
        source.close();
      }
      return {kinds, lines};
    };
    // Until the worker is up this thread reads every line in its turn (60 × 5 ms): if the worker took longer to start,
    // the run says nothing of the wait, so it is read again with more time for the start.
    let run = await readAll(0);
    for (const firstLineMs of [1000, 5000]) {
      if (run.kinds.includes("batch")) break;
      run = await readAll(firstLineMs);
    }
    const {kinds, lines} = run;
    expect(lines).toEqual(records.map((_, i) => i + 1));
    const firstBatch = kinds.indexOf("batch");
    expect(firstBatch, "the worker parsed no line in three runs").toBeGreaterThanOrEqual(0);
    // Taking whatever nobody had claimed whenever it caught up (stealAfterMs 0), this thread read 30-36 of the lines
    // after the worker's first; now only a turn's own line that it found unclaimed in the moment the worker moved on.
    // How often that happens is the scheduler's: 0-2 on a quiet machine, 3 at load 8, 7-12 beside a CI run on both
    // cores (the worker descheduled as its next turn came up); so the bound is set apart from 30, not from 0.
    expect(kinds.slice(firstBatch).filter((k) => k === "episode").length).toBeLessThanOrEqual(20);
  });
});

describe("workers under node flags", () => {
  // A V8 flag such as --max-old-space-size is the process's own: handed on to a worker, Node refuses to start it
  // ("Initiated Worker with invalid execArgv flags"), so an import of a large dump run that way failed.
  // Retried once: in one clean-clone run of 166 files, two at a time (issue 31), this child printed
  // nothing and failed in 0.4 s, and the run kept no stderr to say why; it passed in every run before
  // and since. Its stderr is now in the message, so a second failure says what happened.
  it("start when the main thread was started with a V8 flag", {retry: 1}, () => {
    const path = writeFile(tempDir(), "flags.jsonl", jsonl(Array.from({length: 40}, (_, i) => dumpRecord(`f${i}`))));
    const script = `
      import {readJsonlInWorkers} from ${JSON.stringify(new URL("../../loaders/import/jsonl-workers.ts", import.meta.url).href)};
      import {SourceFile} from ${JSON.stringify(new URL("../../loaders/import/source-file.ts", import.meta.url).href)};
      import {episodeItem} from ${JSON.stringify(new URL("../../loaders/import/sotopia.ts", import.meta.url).href)};
      const source = SourceFile.untracked(${JSON.stringify(path)});
      let episodes = 0;
      const worker = new URL("../../loaders/import/sotopia-worker.ts", ${JSON.stringify(import.meta.url)});
      for await (const item of readJsonlInWorkers(source, () => {}, worker, (doc, line) => episodeItem(doc, line, false), {workers: 1, segmentBytes: 4096})) {
        episodes += item.kind === "batch" ? item.batch.count : item.kind === "episode" ? 1 : 0;
      }
      source.close();
      process.stdout.write(String(episodes));
    `;
    const run = spawnSync(process.execPath, ["--max-old-space-size=3000", "--import", "tsx", "--input-type=module", "-e", script], {encoding: "utf8"});
    expect(run.stderr).not.toContain("invalid execArgv");
    expect(run.stdout, `stderr: ${run.stderr}`).toBe("40");
    expect(run.status).toBe(0);
  });
});
