// A rule for every TypeScript module under src/ and loaders/, checked on their
// text: no group is grown by copying it (`m.set(k, [...(m.get(k) ?? []), row])`).
// Each append copies the whole group, so a group of n rows costs n²/2 copies:
// LIFELONG's validation table took 21 s at 100 times its samples (110k
// checkpoint pairs) this way, and a few ms by push; `sociometer report belext`
// grouped the same pairs the same way.

import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";

const APPEND_BY_COPY = /\.set\([^;]*\[\s*\.\.\.\(?\s*[\w.]+\.get\(/;

/** Lines of `text` that grow a map's list by copying it, comments left out. */
function appendsByCopy(text: string): number[] {
  return text.split("\n").flatMap((line, i) => (APPEND_BY_COPY.test(line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "")) ? [i + 1] : []));
}

/** Every .ts file under `dir` (relative to the repository), at any depth. */
function typescriptFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), {recursive: true, encoding: "utf8"}).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f));
}

describe("no group grown by copying it, in src/ and loaders/", () => {
  it("recognises the pattern and leaves push and one-off literals alone", () => {
    expect(appendsByCopy("groups.set(k, [...(groups.get(k) ?? []), r]);\nm.set(k, [...m.get(k)!, r]);")).toEqual([1, 2]);
    expect(appendsByCopy("const list = groups.get(k);\nif (list) list.push(r);\nelse groups.set(k, [r]);\nconst all = [...a, ...b];\n// m.set(k, [...(m.get(k) ?? []), r])")).toEqual([]);
  });

  it("holds in every module under src/ and loaders/", () => {
    const files = ["src", "loaders"].flatMap(typescriptFiles);
    // The walk must reach the modules the rule was written for, at every depth.
    expect(files).toEqual(expect.arrayContaining(["src/lib/lifelong.ts", "loaders/cli/reports.ts", "loaders/run/judges/batch.ts"]));
    const found = files
      .flatMap((file) => appendsByCopy(readFileSync(join(REPO, file), "utf8")).map((line) => `${file}:${line}`));
    expect(found).toEqual([]);
  });
});
