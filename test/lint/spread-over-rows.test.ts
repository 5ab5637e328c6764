// A rule of the code base, checked on its text: no list is spread into a
// call's arguments where it may hold rows. Math.max(...values) and
// push(...items) put every element on the call stack, and past ~100k
// elements (the agreement page's instances at 100k episodes) they throw
// "Maximum call stack size exceeded". Loops, or extremes() from src/lib/stats.ts.

import {readdirSync, readFileSync} from "node:fs";
import {join, relative} from "node:path";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";

/** Calls that take their arguments one by one: spreading a list into them grows the stack with the list. */
const SPREAD_CALL = /\b(?:Math\.(?:min|max)|\.push|\.unshift)\(\s*(?:[^(){}[\]]*,\s*)?\.\.\./;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => {
    if (e.name.startsWith(".") || e.name === "node_modules") return [];
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs|md)$/.test(e.name) ? [path] : [];
  });
}

/** Lines that spread a list into Math.min / Math.max / push / unshift, comments left out. */
function spreadCalls(text: string): {line: number; text: string}[] {
  return text.split("\n").flatMap((line, i) => {
    const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
    return SPREAD_CALL.test(code) ? [{line: i + 1, text: line.trim()}] : [];
  });
}

describe("no list spread into a call's arguments", () => {
  it("recognises the pattern and leaves loops, array literals and comments alone", () => {
    expect(spreadCalls("const m = Math.max(...xs);\nout.push(...rows);\nconst e = Math.max(1, ...d.map(f));").map((s) => s.line)).toEqual([1, 2, 3]);
    expect(spreadCalls("const all = [...a, ...b];\nfor (const r of rows) out.push(r);\n// not Math.max(...xs)\nf(...args);")).toEqual([]);
  });

  it("holds in src/, loaders/ and scripts/ (pages, metric library, importers, CLI)", () => {
    const found = ["src", "loaders", "scripts"].flatMap((dir) => sourceFiles(join(REPO, dir)))
      .flatMap((file) => spreadCalls(readFileSync(file, "utf8")).map((s) => `${relative(REPO, file)}:${s.line}: ${s.text}`));
    expect(found).toEqual([]);
  });
});
