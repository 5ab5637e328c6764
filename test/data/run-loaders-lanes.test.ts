// A build runs its loaders in two processes side by side (src/data/site-cache.ts
// runLoaders): the viewer's packs and the agreement loaders in one, every
// other loader in the other, so both cores work while the loaders that share a
// query's result keep one process.

import {readFileSync, mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {loaderLanes, loaderProcesses, runLoaders} from "../../src/data/site-cache.js";
import {tempDir} from "../helpers/store.js";

describe("splitting a build's loaders into processes", () => {
  const outputs = ["data/agreement-summary.json", "data/compare-rows-sotopia.bin", "data/viewer-episodes.bin", "data/compare-summary.json", "data/viewer-list.bin", "data/tables/episodes.parquet"];

  it("puts the viewer's packs and the agreement loaders in a process of their own and keeps every list in the order given", () => {
    expect(loaderLanes(outputs, 2)).toEqual([
      ["data/compare-rows-sotopia.bin", "data/compare-summary.json", "data/tables/episodes.parquet"],
      ["data/agreement-summary.json", "data/viewer-episodes.bin", "data/viewer-list.bin"],
    ]);
  });

  it("runs everything in one list with one process, and drops a list left empty", () => {
    expect(loaderLanes(outputs, 1)).toEqual([outputs]);
    expect(loaderLanes(["data/overview.parquet"], 2)).toEqual([["data/overview.parquet"]]);
    expect(loaderLanes(["data/viewer-list.bin"], 2)).toEqual([["data/viewer-list.bin"]]);
    expect(loaderLanes([], 2)).toEqual([]);
  });

  it("reads SOCIOMETER_LOADER_PROCESSES: 2 unless set, 1 or 2 when set, and refuses anything else by name", () => {
    expect(loaderProcesses({})).toBe(2);
    expect(loaderProcesses({SOCIOMETER_LOADER_PROCESSES: "1"})).toBe(1);
    expect(loaderProcesses({SOCIOMETER_LOADER_PROCESSES: " 2 "})).toBe(2);
    expect(() => loaderProcesses({SOCIOMETER_LOADER_PROCESSES: "4"})).toThrow('SOCIOMETER_LOADER_PROCESSES: expected 1 or 2, got "4"');
  });
});

describe("running the processes", () => {
  /**
   * A loader that writes `mine`, then waits up to 20 s for `theirs` to appear and
   * writes what it saw: each of two such loaders meets the other only if both
   * run at the same time. It waits without top-level await, which a loader
   * outside a "type": "module" package cannot use.
   */
  const handshake = (dir: string, mine: string, theirs: string) => `
import {existsSync, writeFileSync} from "node:fs";
writeFileSync(${JSON.stringify(join(dir, mine))}, "");
const until = Date.now() + 20000;
const pause = new Int32Array(new SharedArrayBuffer(4));
while (!existsSync(${JSON.stringify(join(dir, theirs))}) && Date.now() < until) Atomics.wait(pause, 0, 0, 50);
process.stdout.write(existsSync(${JSON.stringify(join(dir, theirs))}) ? "met" : "alone");
`;

  it("runs the viewer's packs at the same time as the other loaders, each into the cache", async () => {
    const root = tempDir();
    mkdirSync(join(root, "data"));
    writeFileSync(join(root, "data", "overview.txt.ts"), handshake(root, "overview-started", "viewer-started"));
    writeFileSync(join(root, "data", "viewer-list.txt.ts"), handshake(root, "viewer-started", "overview-started"));
    await runLoaders(root, ["data/overview.txt", "data/viewer-list.txt"], {...process.env, SOCIOMETER_LOADER_PROCESSES: ""});
    const cached = (output: string) => readFileSync(join(root, ".observablehq", "cache", output), "utf8");
    expect(cached("data/overview.txt")).toBe("met");
    expect(cached("data/viewer-list.txt")).toBe("met");
  }, 60_000);
});
