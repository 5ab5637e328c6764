// `sociometer audit FILE` as a user runs it: a child process, verdicts on stdout in three formats, errors on stderr.

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {openStore} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {tempDir, writeFile} from "../helpers/store.js";


const LIFELONG = join("data", "audits", "lifelong-table-1.csv");

describe("sociometer audit", () => {
  it("prints the same verdicts as text, CSV and JSON, with the sentence a reviewer can paste", async () => {
    const [json, csv, text] = await Promise.all([
      cli(["audit", LIFELONG, "--format", "json"]), cli(["audit", LIFELONG, "--format", "csv"]), cli(["audit", LIFELONG]),
    ]);
    for (const r of [json, csv, text]) expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {title: string; notes: string[]; options: {maxN: number}; rows: {line: number; row: string; column: string; verdict: string; computed: number}[]};
    expect(report.title).toBe("Audit of lifelong-table-1.csv");
    expect(report.options.maxN).toBe(10_000);
    expect(report.notes).toHaveLength(1);
    expect(report.notes[0]).toContain("Recall (TP / (TP + FN)) and F1 Score (2PR / (P + R)) are truncated to 2 digits, not rounded");
    expect(report.rows).toHaveLength(24);
    const recall = report.rows.find((r) => r.row === "Consistency with Character Traits" && r.column === "Recall")!;
    expect(recall).toMatchObject({line: 6, verdict: "truncated"});
    expect(recall.computed).toBeCloseTo(43 / 49, 15);

    const lines = csv.stdout.trim().split("\n");
    expect(lines[0]).toBe("line,table,row,column,formula,reported,computed,verdict,face_value,fits,difference,tolerance,tolerance_auto," +
      "claimed_n,count,count_inferred,denominator_rounding,counts_of_claimed_n,smallest_n,smallest_counts");
    expect(lines.slice(1).map((l) => l.split(",")[7])).toEqual(report.rows.map((r) => r.verdict));

    expect(text.stdout).toContain(report.notes[0]);
    expect(text.stdout).toMatch(/Consistency with Character Traits\s+Recall\s+recall\s+0\.87\s+0\.8776\s+truncated\s+\+0\.0076/);
    expect(text.stdout).toMatch(/Episode Beginning\s+Recall\s+recall\s+0\.78\s+0\.7344\s+mismatch\s+-0\.0456/);
  });

  it("prints within-tolerance with the face value apart, and the bound propagated from the inputs' digits (STSS Table 4)", async () => {
    const stss = join("data", "audits", "stss-table-4.csv");
    const [text, csv] = await Promise.all([cli(["audit", stss]), cli(["audit", stss, "--format", "csv"])]);
    // 649/2000 = 0.3245 printed 0.324: truncated at face value, within the ±0.0005 the 3-digit inputs allow; 11.97/30 = 0.399 exact.
    expect(text.stdout).toMatch(/GPT-35 GA\s+Overall\s+weighted_mean\s+0\.324\s+0\.32450\s+within-tolerance\s+truncated\s+\+0\.00050\s+±0\.0005 \(auto\)/);
    expect(text.stdout).toMatch(/GPT-4 GA\s+Overall\s+weighted_mean\s+0\.399\s+0\.39900\s+exact\s+exact\s+\+0\.00000\s+±0\.0005 \(auto\)/);
    const [header, first] = csv.stdout.trim().split("\n");
    const row = Object.fromEntries(header!.split(",").map((k, i) => [k, first!.split(",")[i]]));
    expect(row).toMatchObject({verdict: "within-tolerance", face_value: "truncated", fits: "rounded truncated", tolerance_auto: "true"});
    expect(Number(row.tolerance)).toBeCloseTo(0.0005, 15);
  });

  it("shows the denominators behind shares, and searches as far as --max-n says", async () => {
    const ib = join("data", "audits", "informativebench-table-3.csv");
    const text = await cli(["audit", ib]);
    expect(text.stdout).toContain("n = 222: no count prints 57.94%; smallest n = 107 (62)");
    const small = JSON.parse((await cli(["audit", ib, "--format", "json", "--max-n", "100"])).stdout);
    // With n ≤ 100, FriendsTV's 57.94% (first at 107) has no denominator and the column none in common.
    expect(small.rows.find((r: {row: string; column: string}) => r.row === "GPT 4" && r.column === "FriendsTV").smallestN).toBeNull();
    expect(small.notes[0]).toContain("no single n ≤ 100 gives all 4");
  });

  it("fails a bad CSV with exit code 65 naming file, line and field, and a bad option with 2", async () => {
    const bad = writeFile(tempDir(), "bad.csv", "table,row,column,reported,formula,inputs\nT,r,c,0.5,recall,tp=3; fn=x\n");
    const r = await cli(["audit", bad]);
    expect(r.code).toBe(65);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${bad}:2: inputs: fn: "x" is not a number`);
    const usage = await cli(["audit", LIFELONG, "--max-n", "0"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--max-n must be a whole number ≥ 1, not 0");
    expect((await cli(["audit"])).code).toBe(2);
  });

  it("runs a cell's query over the store given with --db, and says so when there is none", async () => {
    const dir = tempDir();
    const csv = writeFile(dir, "q.csv", 'table,row,column,reported,formula,query\nT,r,c,0.85,recall,"SELECT 48 AS tp, 8 AS fn"\n');
    const none = await cli(["audit", csv, "--db", join(dir, "absent.duckdb")]);
    expect(none.code).toBe(65);
    expect(none.stderr).toContain(`${csv}:2: query: this cell reads the store, and there is none`);
    const db = join(dir, "s.duckdb");
    (await openStore(db)).close(); // an empty store: the query needs no table
    const ok = JSON.parse((await cli(["audit", csv, "--db", db, "--format", "json"])).stdout);
    expect(ok.rows[0]).toMatchObject({verdict: "truncated", row: "r"});
    expect(ok.rows[0].computed).toBeCloseTo(48 / 56, 15);
  });
});
