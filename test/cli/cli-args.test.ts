// A misspelt report name or --format value gets the name meant, as a
// misspelt option, command or import format does (README § The CLI), with
// exit code 2.

import {describe, expect, it} from "vitest";
import {cli} from "../helpers/cli.js";

const REPORT_NAMES = "sotopia, sotopia-hard, agreement, reliability, disagreements, lifelong, checkpoint-failures, belext, hsii, cot, stss, stss-action, informativebench, informativebench-ablations, infonav, informativebench-audit";

describe("the name meant", () => {
  it("suggests the report a typo meant, and lists the reports either way", async () => {
    const typo = await cli(["report", "sotopai", "--db", "/nonexistent/store.duckdb"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(`sociometer: unknown report "sotopai"; did you mean sotopia?; reports: ${REPORT_NAMES}\n`);
    const far = await cli(["report", "xyz", "--db", "/nonexistent/store.duckdb"]);
    expect(far.code).toBe(2);
    expect(far.stderr).toBe(`sociometer: unknown report "xyz"; reports: ${REPORT_NAMES}\n`);
  });

  it("suggests the output format a typo meant, for reports, compare and verify-schedule", async () => {
    const report = await cli(["report", "sotopia", "--format", "jsno", "--db", "/nonexistent/store.duckdb"]);
    expect(report.code).toBe(2);
    expect(report.stderr).toBe("sociometer: --format must be table, csv or json, not jsno; did you mean json?\n");
    const compare = await cli(["compare", "--format", "tabel", "--db", "/nonexistent/store.duckdb"]);
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/^sociometer: --format must be table, csv or json, not tabel; did you mean table\?\n/);
    // verify-schedule reads no store; the file need not exist, as --format is checked first.
    const verify = await cli(["verify-schedule", "/nonexistent/schedules.jsonl", "--format", "cvs"]);
    expect(verify.code).toBe(2);
    expect(verify.stderr).toBe("sociometer: --format must be table, csv or json, not cvs; did you mean csv?\n");
  });
});
