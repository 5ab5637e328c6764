// Where an import says a file stops being UTF-8: a whole file read at once (a
// CSV, a JSON document) names the line and byte offset of the first
// ill-formed sequence; a JSONL file names the line, read on this thread or by
// workers over segments.

import {isUtf8} from "node:buffer";
import {afterEach, describe, expect, it} from "vitest";
import {decodeWhole, NotUtf8} from "../../loaders/import/files.js";
import {importFiles} from "../../loaders/import/session.js";
import {dumpReading} from "../../loaders/import/sotopia.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {expectImportFailure, tempStore, writeFile} from "../helpers/store.js";

const saved = {...dumpReading};
const savedWorkers = process.env.SOCIOMETER_IMPORT_WORKERS;
afterEach(() => {
  Object.assign(dumpReading, saved);
  if (savedWorkers === undefined) delete process.env.SOCIOMETER_IMPORT_WORKERS;
  else process.env.SOCIOMETER_IMPORT_WORKERS = savedWorkers;
});

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("decodeWhole", () => {
  it("finds the first ill-formed sequence wherever a strict decoder refuses (edges of every range of table 3-7)", () => {
    const edges = [0x0a, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
    const next = random(32);
    const wrong: string[] = [];
    let refused = 0;
    for (let n = 0; n < 20_000; n++) {
      const b = Buffer.from(Array.from({length: Math.floor(next() * 10)}, () => edges[Math.floor(next() * edges.length)]!));
      const got = decodeWhole(b);
      if (isUtf8(b)) {
        if (got !== b.toString("utf8", b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0)) wrong.push(`${b.toString("hex")}: decoded otherwise`);
        continue;
      }
      refused++;
      if (!(got instanceof NotUtf8)) {
        wrong.push(`${b.toString("hex")}: not refused`);
        continue;
      }
      // Everything before the offset decodes; nothing that starts there does.
      const {offset, line} = got;
      if (!isUtf8(b.subarray(0, offset))) wrong.push(`${b.toString("hex")}: bad before ${offset}`);
      for (let k = 1; k <= 4 && offset + k <= b.length; k++) if (isUtf8(b.subarray(offset, offset + k))) wrong.push(`${b.toString("hex")}: ${k} good bytes at ${offset}`);
      if (line !== 1 + b.subarray(0, offset).filter((x) => x === 0x0a).length) wrong.push(`${b.toString("hex")}: line ${line}`);
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(10_000);
  });
});

describe("a file that is not UTF-8 is refused at the line of its first bad byte", () => {
  // Records a and b, then c on line 3 with its scenario ending in a latin-1 é.
  const jsonlWithLatin1OnLine3 = () => {
    const record = JSON.stringify(dumpRecord("c", {scenario: "caf\u0000"}));
    const [before, after] = record.split("\\u0000");
    return Buffer.concat([Buffer.from(jsonl([dumpRecord("a"), dumpRecord("b")]) + before), Buffer.from([0xe9]), Buffer.from(`${after}\n`)]);
  };

  it.each([
    ["on this thread", 0, 0],
    ["by a worker over segments of about one line", 1, 1],
  ])("JSONL, read %s", async (_, workers, segmentLines) => {
    const bytes = jsonlWithLatin1OnLine3();
    Object.assign(dumpReading, {minBytes: 0, segmentBytes: segmentLines ? bytes.indexOf(10) + 1 : saved.segmentBytes});
    process.env.SOCIOMETER_IMPORT_WORKERS = String(workers);
    const store = await tempStore();
    const path = writeFile(store.dir, "l.jsonl", bytes);
    const e = await expectImportFailure(store, "sotopia", [path]);
    expect({file: e.file, line: e.line, field: e.field}).toEqual({file: path, line: 3, field: null});
    expect(e.message).toBe(`${path}:3: the line is not valid UTF-8 (is the file in another encoding?)`);
  });

  it("a JSON document, with the byte offset", async () => {
    const records = JSON.stringify([dumpRecord("a"), dumpRecord("b", {scenario: "caf\u0000"})], null, 2);
    const [before, after] = records.split("\\u0000");
    const store = await tempStore();
    const path = writeFile(store.dir, "episodes.json", Buffer.concat([Buffer.from(before!), Buffer.from([0xe9]), Buffer.from(after!)]));
    const line = before!.split("\n").length;
    expect(line).toBeGreaterThan(40);
    const e = await expectImportFailure(store, "sotopia", [path]);
    expect({file: e.file, line: e.line, field: e.field}).toEqual({file: path, line, field: null});
    expect(e.message).toBe(`${path}:${line}: not valid UTF-8: byte 0xE9 at byte offset ${Buffer.byteLength(before!)} of the file (counting from 0) begins no valid character (is the file in another encoding?)`);
  });
});
