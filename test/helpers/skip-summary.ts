// Vitest reporter that ends every run with one plain line counting the skipped
// tests by reason ("17 tests skipped: ../shared/fixtures/external not found"),
// so a skip is never silent. Reasons come from describeUnless (skips.ts).

import type {Reporter, TestModule} from "vitest/node";
import "./skips.js";

/** Said of skipped tests that carry no reason: it.skip, it.todo, or left out by -t or .only. */
export const NO_REASON = "no reason given (it.skip, it.todo, or left out by -t or .only)";
/** Said of tests that never ran because a beforeAll of their suite failed. */
export const SUITE_FAILED = "their suite failed before they ran (see the error above)";

/** The parts of vitest's TestCase this reporter reads. */
interface SkippedTest {
  meta(): {skipReason?: string};
  parent: {state(): string; parent?: SkippedTest["parent"]};
}

const insideFailedSuite = (test: SkippedTest) => {
  for (let suite: SkippedTest["parent"] | undefined = test.parent; suite; suite = suite.parent) if (suite.state() === "failed") return true;
  return false;
};

/** Counts the skipped tests of `modules` by reason, in the order reasons first appear. */
export function skipsByReason(modules: ReadonlyArray<{children: {allTests(state: "skipped"): Iterable<SkippedTest>}}>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const module of modules) {
    for (const test of module.children.allTests("skipped")) {
      const reason = test.meta().skipReason ?? (insideFailedSuite(test) ? SUITE_FAILED : NO_REASON);
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
  }
  return counts;
}

/** The summary line: "0 tests skipped", or each reason with its count, joined by "; ". */
export function skipSummaryLine(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return "0 tests skipped";
  const parts: string[] = [];
  for (const [reason, n] of counts) parts.push(`${n} ${n === 1 ? "test" : "tests"} skipped: ${reason}`);
  return parts.join("; ");
}

export default class SkipSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    process.stdout.write(`${skipSummaryLine(skipsByReason(modules))}\n`);
  }
}
