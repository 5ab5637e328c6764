// A rule for the four benchmark pages' modules (LIFELONG-SOTOPIA, HSII, STSS,
// InformativeBench), checked on their text: no group is grown by copying it
// (`m.set(k, [...(m.get(k) ?? []), row])`). Each append copies the whole group,
// so a group of n rows costs n²/2 copies: LIFELONG's validation table took 21 s
// at 100 times its samples (110k checkpoint pairs) this way, and a few ms by push.

import {readdirSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";

const APPEND_BY_COPY = /\.set\([^;]*\[\s*\.\.\.\(?\s*[\w.]+\.get\(/;
const PAGE_MODULE = /^(?:lifelong|hsii|stss|informativebench)[\w-]*\.ts$/;

/** Lines of `text` that grow a map's list by copying it, comments left out. */
function appendsByCopy(text: string): number[] {
  return text.split("\n").flatMap((line, i) => (APPEND_BY_COPY.test(line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "")) ? [i + 1] : []));
}

describe("no group grown by copying it, in the benchmark pages' modules", () => {
  it("recognises the pattern and leaves push and one-off literals alone", () => {
    expect(appendsByCopy("groups.set(k, [...(groups.get(k) ?? []), r]);\nm.set(k, [...m.get(k)!, r]);")).toEqual([1, 2]);
    expect(appendsByCopy("const list = groups.get(k);\nif (list) list.push(r);\nelse groups.set(k, [r]);\nconst all = [...a, ...b];\n// m.set(k, [...(m.get(k) ?? []), r])")).toEqual([]);
  });

  it("holds in src/client and src/lib for LIFELONG-SOTOPIA, HSII, STSS and InformativeBench", () => {
    const found = ["src/client", "src/lib"].flatMap((dir) => readdirSync(join(REPO, dir)).filter((f) => PAGE_MODULE.test(f)).map((f) => join(dir, f)))
      .flatMap((file) => appendsByCopy(readFileSync(join(REPO, file), "utf8")).map((line) => `${file}:${line}`));
    expect(found).toEqual([]);
  });
});
