// The run's last line: skipped tests counted by reason, and a real vitest run
// without the shared fixtures that collects cleanly and ends with that line.

import {spawn} from "node:child_process";
import {describe, expect, it} from "vitest";
import {REPO} from "./fixtures.js";
import {NO_REASON, skipsByReason, skipSummaryLine, SUITE_FAILED} from "./skip-summary.js";

const passedSuite = {state: () => "passed"};
/** A suite whose beforeAll failed, inside a module that therefore failed too. */
const failedSuite = {state: () => "failed", parent: {state: () => "failed"}};

/** A stand-in for vitest's TestModule: just the skipped tests, each with its meta and suite. */
const moduleSkipping = (...reasons: (string | undefined)[]) => moduleOf(reasons.map((skipReason) => ({skipReason, suite: passedSuite})));
const moduleOf = (tests: {skipReason?: string; suite: {state(): string}}[]) => ({
  children: {
    *allTests(state: string) {
      if (state !== "skipped") throw new Error(`asked for ${state} tests, not skipped ones`);
      for (const {skipReason, suite} of tests) yield {meta: () => (skipReason === undefined ? {} : {skipReason}), parent: suite};
    },
  },
});

describe("skipSummaryLine", () => {
  it("counts skips by reason across files, in the order reasons first appear, and names unexplained skips", () => {
    const modules = [moduleSkipping("fixtures gone", "fixtures gone", undefined), moduleSkipping("SOCIOMETER_BROWSER_TESTS=off", "fixtures gone")];
    const counts = skipsByReason(modules);
    expect([...counts]).toEqual([["fixtures gone", 3], [NO_REASON, 1], ["SOCIOMETER_BROWSER_TESTS=off", 1]]);
    expect(skipSummaryLine(counts)).toBe(`3 tests skipped: fixtures gone; 1 test skipped: ${NO_REASON}; 1 test skipped: SOCIOMETER_BROWSER_TESTS=off`);
  });

  it("tests that never ran because their suite's beforeAll failed are counted as that, not as marked skip", () => {
    const counts = skipsByReason([moduleOf([{suite: failedSuite}, {suite: failedSuite}, {suite: passedSuite}, {skipReason: "fixtures gone", suite: failedSuite}])]);
    expect(skipSummaryLine(counts)).toBe(`2 tests skipped: ${SUITE_FAILED}; 1 test skipped: ${NO_REASON}; 1 test skipped: fixtures gone`);
  });

  it("says so when nothing was skipped", () => {
    expect(skipSummaryLine(skipsByReason([moduleSkipping()]))).toBe("0 tests skipped");
  });
});

/** Runs vitest on one file in a child process; resolves with its exit code and output. */
function vitestRun(file: string, env: Record<string, string>): Promise<{code: number | null; stdout: string; stderr: string}> {
  const childEnv: NodeJS.ProcessEnv = {...process.env, NO_COLOR: "1", ...env};
  // The child is a run of its own, not a worker of this one; CI would forbid the missing fixtures.
  for (const name of Object.keys(childEnv)) if (name.startsWith("VITEST") || name === "CI") delete childEnv[name];
  return new Promise((resolvePromise, reject) => {
    const child = spawn("npx", ["vitest", "run", file], {cwd: REPO, env: childEnv, stdio: ["ignore", "pipe", "pipe"]});
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({code, stdout, stderr}));
  });
}

describe("a run without the shared fixtures", () => {
  it("collects test/run/episodes.test.ts, skips its 2 fixture tests, and ends with the line that says why", async () => {
    const missing = "/nonexistent/sociometer-fixtures";
    const {code, stdout, stderr} = await vitestRun("test/run/episodes.test.ts", {SOCIOMETER_FIXTURES: missing});
    expect(stdout + stderr).not.toMatch(/Failed Suites/);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toMatch(/Tests\s+\d+ passed \| 2 skipped/);
    expect(stdout.trimEnd().split("\n").at(-1)).toBe(`2 tests skipped: ${missing} not found`);
  });
});
