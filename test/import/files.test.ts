// Lines as the importers see them: strict UTF-8, one byte-order mark dropped.

import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {readLines, readSegmentLines} from "../../loaders/import/files.js";
import {RecordProblem} from "../../loaders/import/errors.js";
import {SourceFile} from "../../loaders/import/source-file.js";
import {tempDir} from "../helpers/store.js";

const NOT_UTF8 = "the line is not valid UTF-8 (is the file in another encoding?)";

/** Each line's text, or its problem. */
function linesOf(bytes: Buffer): string[] {
  const path = join(tempDir(), "f.jsonl");
  writeFileSync(path, bytes);
  return [...readLines(path)].map((l) => (l.text instanceof RecordProblem ? `problem: ${l.text.problem}` : l.text));
}

describe("readLines", () => {
  it("drops a byte-order mark at the start of a line, and only that one", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(linesOf(Buffer.concat([bom, Buffer.from('{"a":1}\n'), bom, bom, Buffer.from("x\n")]))).toEqual(['{"a":1}', "\uFEFFx"]);
  });

  it("refuses what a strict decoder refuses: latin-1, overlong forms, encoded surrogates, a cut character", () => {
    const lines = [
      Buffer.from("café", "latin1"),
      Buffer.from([0xc0, 0xaf]), // "/" in two bytes
      Buffer.from([0xed, 0xa0, 0x80]), // U+D800
      Buffer.from("é").subarray(0, 1),
      Buffer.from("naïve ✓ 😀"),
    ];
    expect(linesOf(Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])))).toEqual([
      `problem: ${NOT_UTF8}`, `problem: ${NOT_UTF8}`, `problem: ${NOT_UTF8}`, `problem: ${NOT_UTF8}`, "naïve ✓ 😀",
    ]);
  });

  it("decodes a segment's lines the same way", () => {
    const path = join(tempDir(), "s.jsonl");
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ok\n"), Buffer.from([0xff]), Buffer.from("\nlast")]));
    const source = SourceFile.untracked(path);
    try {
      const got = [...readSegmentLines(source.fd, 0, source.size)].map((l) => (l.text instanceof RecordProblem ? l.text.problem : l.text));
      expect(got).toEqual(["ok", NOT_UTF8, "last"]);
    } finally {
      source.close();
    }
  });
});
