// A build runs its loaders in two processes side by side (src/data/site-cache.ts
// runLoaders) that take them from one queue, longest expected first, so both
// cores work until the queue is empty; loaders that share a query's result
// are handed out together and run in one process, where the result is kept.

import {mkdirSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {loaderProcesses, loaderQueue, recordedLoaderCpu, runLoaders} from "../../src/data/site-cache.js";
import {tempDir} from "../helpers/store.js";

describe("the build's queue of loaders", () => {
  const outputs = [
    "data/agreement-summary.json",
    "data/compare-rows-sotopia.bin",
    "data/overview.parquet",
    "data/viewer-episodes.bin",
    "data/compare-summary.json",
    "data/sotopia-first-view.bin",
    "data/viewer-list.bin",
    "data/tables/episodes.parquet",
    "data/audits.json",
  ];

  it("orders groups by the CPU seconds the last build recorded, longest first, a shared result's loaders together in the order given", () => {
    const recorded = {
      "data/agreement-summary.json": 27,
      "data/compare-rows-sotopia.bin": 208,
      "data/overview.parquet": 10,
      "data/viewer-episodes.bin": 345,
      "data/compare-summary.json": 32,
      "data/sotopia-first-view.bin": 70,
      "data/viewer-list.bin": 27,
      "data/tables/episodes.parquet": 4,
      "data/audits.json": 0.2,
    };
    expect(loaderQueue(outputs, recorded)).toEqual([
      ["data/viewer-episodes.bin"], // 345
      ["data/compare-rows-sotopia.bin", "data/compare-summary.json"], // 240
      ["data/overview.parquet", "data/sotopia-first-view.bin"], // 80
      ["data/agreement-summary.json"], // 27, given before viewer-list
      ["data/viewer-list.bin"], // 27
      ["data/tables/episodes.parquet"], // 4
      ["data/audits.json"], // 0.2
    ]);
    // Another record turns the order round: the record, not the names, decides.
    const reversed = {...recorded, "data/viewer-episodes.bin": 1, "data/audits.json": 500};
    expect(loaderQueue(outputs, reversed).map((g) => g[0])).toEqual([
      "data/audits.json",
      "data/compare-rows-sotopia.bin",
      "data/overview.parquet",
      "data/agreement-summary.json",
      "data/viewer-list.bin",
      "data/tables/episodes.parquet",
      "data/viewer-episodes.bin",
    ]);
  });

  it("falls back to the static order when the record misses an output (a first build, or a new loader)", () => {
    const partial = {"data/audits.json": 500};
    expect(loaderQueue(outputs, partial)).toEqual([
      ["data/viewer-episodes.bin"], // 345
      ["data/compare-rows-sotopia.bin", "data/compare-summary.json"], // 208 + 32
      ["data/agreement-summary.json"], // 26
      ["data/viewer-list.bin"], // 26
      ["data/overview.parquet", "data/sotopia-first-view.bin"], // 5 + 10
      ["data/tables/episodes.parquet"], // 5
      ["data/audits.json"], // 1
    ]);
    expect(loaderQueue([], {})).toEqual([]);
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

  it("drains one queue from both processes: the short loaders all run beside the long one, in the order of their recorded cost, and the new costs are recorded", async () => {
    const root = tempDir();
    mkdirSync(join(root, "data"));
    const smalls = ["small-a", "small-b", "small-c"];
    // The long loader waits for every short one to finish: it sees them all only if the other process took them meanwhile.
    writeFileSync(
      join(root, "data", "long.txt.ts"),
      `
import {existsSync} from "node:fs";
const done = ${JSON.stringify(smalls.map((n) => join(root, `${n}-done`)))};
const until = Date.now() + 20000;
const pause = new Int32Array(new SharedArrayBuffer(4));
while (!done.every((f) => existsSync(f)) && Date.now() < until) Atomics.wait(pause, 0, 0, 50);
process.stdout.write(done.every((f) => existsSync(f)) ? "beside all three" : "alone");
`,
    );
    for (const name of smalls) {
      writeFileSync(
        join(root, "data", `${name}.txt.ts`),
        `
import {appendFileSync, writeFileSync} from "node:fs";
appendFileSync(${JSON.stringify(join(root, "order.log"))}, ${JSON.stringify(`${name}\n`)});
writeFileSync(${JSON.stringify(join(root, `${name}-done`))}, "");
process.stdout.write(String(process.pid));
`,
      );
    }
    const outputs = ["data/small-a.txt", "data/small-b.txt", "data/small-c.txt", "data/long.txt"];
    const cacheDir = join(root, ".observablehq", "cache");
    mkdirSync(cacheDir, {recursive: true});
    // The last build's record: the long one first, then c, b, a (against the order given).
    writeFileSync(join(cacheDir, "loader-cpu.json"), JSON.stringify({"data/long.txt": 100, "data/small-a.txt": 1, "data/small-b.txt": 2, "data/small-c.txt": 3}));
    await runLoaders(root, outputs, {...process.env, SOCIOMETER_LOADER_PROCESSES: "2"});
    const cached = (output: string) => readFileSync(join(cacheDir, output), "utf8");
    expect(cached("data/long.txt")).toBe("beside all three");
    expect(readFileSync(join(root, "order.log"), "utf8")).toBe("small-c\nsmall-b\nsmall-a\n");
    // One process ran the three short ones (the other was busy with the long one all along).
    expect(new Set(smalls.map((n) => cached(`data/${n}.txt`))).size).toBe(1);
    const record = recordedLoaderCpu(cacheDir);
    expect(Object.keys(record).sort()).toEqual(["data/long.txt", "data/small-a.txt", "data/small-b.txt", "data/small-c.txt"]);
    for (const output of outputs) expect(record[output]).toBeGreaterThan(0);
  }, 60_000);

  it("runs two loaders at the same time, each into the cache, at the default of two processes", async () => {
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
