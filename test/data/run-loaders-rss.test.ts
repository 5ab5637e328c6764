// Loaders that share one process (src/data/run-loaders.ts) each report their
// own peak RSS: a small loader run after a large one is not charged with the
// large one's peak, so a build's log says which loader needs the memory.

import {spawn} from "node:child_process";
import {mkdirSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {REPO} from "../helpers/fixtures.js";
import {tempDir} from "../helpers/store.js";

const RUN_LOADERS = join(REPO, "src", "data", "run-loaders.ts");

/** Runs run-loaders.ts with `gc` exposed (so the large loader's memory is returned before the next starts); resolves with its stderr. */
function runLoadersLog(root: string, outputs: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", RUN_LOADERS, root, ...outputs], {cwd: REPO, stdio: ["ignore", "ignore", "pipe"]});
    let err = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => (err += c));
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done(err) : fail(new Error(`run-loaders exited with ${code}: ${err}`))));
  });
}

const GiB = 2 ** 30;

describe("run-loaders' log", () => {
  it.runIf(process.platform === "linux")("gives each loader its own peak RSS: a small loader after a 512 MiB one reports well under it", async () => {
    const root = tempDir();
    mkdirSync(join(root, "data"));
    // Filled, so the pages are resident; dropped and collected before the loader ends.
    writeFileSync(
      join(root, "data", "large.txt.ts"),
      "let held: Buffer | null = Buffer.alloc(512 * 2 ** 20, 1);\nprocess.stdout.write(String(held[12345]));\nheld = null;\n(globalThis as {gc?: () => void}).gc?.();\n",
    );
    writeFileSync(join(root, "data", "small.txt.ts"), 'process.stdout.write("small");\n');
    const log = await runLoadersLog(root, ["data/large.txt", "data/small.txt"]);
    const peaks = new Map(Array.from(log.matchAll(/^run-loaders: (\S+) done in [\d.]+ s, [\d.]+ CPU-s, peak RSS ([\d.]+) GiB$/gm), (m) => [m[1], Number(m[2]) * GiB]));
    expect(Array.from(peaks.keys())).toEqual(["data/large.txt", "data/small.txt"]);
    expect(peaks.get("data/large.txt")).toBeGreaterThan(0.5 * GiB);
    expect(peaks.get("data/small.txt")).toBeLessThan(0.35 * GiB);
  });
});
