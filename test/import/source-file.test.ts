// SourceFile: the fingerprint is of exactly the bytes the parsers were handed,
// and a file that is not, from first look to last, the one opened is refused.

import {describe, expect, it} from "vitest";
import {createHash} from "node:crypto";
import {statSync, writeFileSync} from "node:fs";
import {ImportError} from "../../loaders/import/errors.js";
import {readLines, readSegmentLines} from "../../loaders/import/files.js";
import {fileState, READ_CHUNK_BYTES, SourceFile} from "../../loaders/import/source-file.js";
import {tempDir, writeFile} from "../helpers/store.js";

const sha256 = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const open = (path: string) => SourceFile.open(path, fileState(statSync(path)));

async function refusal(body: () => Promise<unknown> | unknown): Promise<ImportError> {
  const error = await Promise.resolve().then(body).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

describe("SourceFile", () => {
  it("fingerprints the chunks readLines parsed: the file's sha256, across chunk boundaries", async () => {
    // Three 4 MiB read chunks, lines straddling each boundary.
    const text = Array.from({length: 9000}, (_, i) => `${i}:${"x".repeat(1400)}`).join("\n");
    const path = writeFile(tempDir(), "big.jsonl", text);
    const source = open(path);
    try {
      let lines = 0;
      for (const line of readLines(source)) lines += line.text === `${lines}:${"x".repeat(1400)}` ? 1 : 0;
      expect(lines).toBe(9000);
      expect(await source.finish(null)).toBe(sha256(text));
    } finally {
      source.close();
    }
  });

  it("gets each hashed read buffer back to read into again, and still fingerprints every byte once", async () => {
    // Five 4 MiB reads: later ones go into buffers the hash thread has handed back (a fresh buffer each cost page faults).
    const text = Array.from({length: 14000}, (_, i) => `${i}:${"y".repeat(1490)}`).join("\n");
    const path = writeFile(tempDir(), "reuse.jsonl", text);
    const source = open(path);
    try {
      let lines = 0;
      let reused = 0;
      for await (const line of (async function* () {
        yield* readLines(source);
      })()) {
        lines += line.text === `${lines}:${"y".repeat(1490)}` ? 1 : 0;
        // Let the hash thread's replies in between lines, as an import's awaits do.
        if (lines % 2000 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(lines).toBe(14000);
      for (let waited = 0; waited < 100 && !(reused = source.spareBuffer()?.byteLength ?? 0); waited++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(reused).toBe(READ_CHUNK_BYTES);
      expect(await source.finish(null)).toBe(sha256(text));
    } finally {
      source.close();
    }
  });

  it("refuses a read that left bytes out, and a fingerprint planned from other content", async () => {
    const path = writeFile(tempDir(), "f.txt", "0123456789");
    const short = open(path);
    short.give(Buffer.from("01234"), 0);
    const e = await refusal(() => short.finish(null));
    short.close();
    expect([e.file, e.line, e.field]).toEqual([path, null, null]);
    expect(e.problem).toBe("the file changed while it was being imported (10 bytes when it was opened, 5 read); nothing was imported, import it again once it is complete");
    const planned = open(path);
    planned.readAll();
    expect((await refusal(() => planned.finish(sha256("something else")))).problem).toContain("(its content is not what it was when the import began)");
    planned.close();
  });

  it("refuses segments whose lines no longer meet because the file changed between their reads", async () => {
    const dir = tempDir();
    const path = writeFile(dir, "f.jsonl", "aaaa\nbbbb\ncccc\n");
    const source = open(path);
    try {
      // The first segment [0, 6) is read from this version: its lines are bytes [0, 10).
      for (const _ of readSegmentLines(source.fd, 0, 6, (b, at) => source.give(b, at)));
      // Then the same-length file gets other line breaks, and the second segment [6, 15) starts its line at byte 12.
      writeFileSync(path, "aaaaaa\nbbbbbcc\n");
      const e = await refusal(() => {
        for (const _ of readSegmentLines(source.fd, 6, 15, (b, at) => source.give(b, at)));
      });
      expect(e.problem).toBe("the file changed while it was being imported (its lines no longer meet at byte 10: the next read starts at byte 7); nothing was imported, import it again once it is complete");
    } finally {
      source.close();
    }
  });

  it("refuses to open a file that is no longer as the import planned it", async () => {
    const path = writeFile(tempDir(), "f.txt", "one");
    const planned = fileState(statSync(path));
    writeFileSync(path, "three");
    const e = await refusal(() => SourceFile.open(path, planned));
    expect(e.problem).toContain("(its size went from 3 to 5 bytes)");
  });
});
