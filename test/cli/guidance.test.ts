// Errors and overviews that guide: the wrong format names the right one, a
// misspelt option names the meant one, status groups its sources, and a failed
// first import leaves no store behind.

import {describe, expect, it} from "vitest";
import {createHash} from "node:crypto";
import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {describeWithFixtures, fixture, REPO} from "../helpers/fixtures.js";
import {jsonl} from "../helpers/episodes.js";
import {cli} from "../helpers/cli.js";
import {tempDir, writeFile} from "../helpers/store.js";


const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describeWithFixtures("importing a real file under the wrong format", () => {
  it.each([
    ["stss", "wcx21__Social-Tasks-in-Sandbox-Simulation/environment/data/task_0905/tasks.json",
      "not valid JSON (Unexpected end of JSON input); is the record truncated?", "stss-tasks"],
    ["lifelong", "sonz-ai__sonzai-python/benchmarks/lifelong_sotopia/results/lifelong_sotopia_baseline-none_20260505-175555.jsonl",
      "episode_id: expected a string, got nothing (the field is missing)", "sonzai-lifelong"],
    ["sotopia", "sotopia-lab__sotopia-pi/human_eval/gpt4_final.csv",
      `not valid JSON (Unexpected token 'I', "ID,model,p"... is not valid JSON); is the record truncated?`, "sotopia-ratings"],
  ])("import %s %s names the format and command that fit, and leaves no store", async (format, file, problem, fits) => {
    const db = join(tempDir(), "new.duckdb");
    const path = fixture(file);
    const {code, stdout, stderr} = await cli(["import", format, path, "--db", db, "--quiet"]);
    expect(code).toBe(65);
    expect(stdout).toBe("");
    expect(stderr).toBe(`sociometer: import failed, store unchanged:\n  ${path}:1: ${problem}\n  this looks like ${fits}, not ${format}: sociometer import ${fits} ${path}\n`);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}.wal`)).toBe(false);
  });
});

describe("a misspelt option", () => {
  it("names the option meant and prints the command's usage line, exit 2", async () => {
    const {code, stdout, stderr} = await cli(["report", "sotopia", "--fromat", "csv", "--db", join(tempDir(), "x.duckdb")]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe("sociometer: unknown option --fromat; did you mean --format?\n"
      + "usage: sociometer report <name> [--format table|csv|json] [--db FILE] [options of the report: sociometer --help]\n");
  });

  it("before the command, and without a near name, still gets the usage line of the command", async () => {
    const {code, stderr} = await cli(["--verbose", "status"]);
    expect(code).toBe(2);
    expect(stderr).toBe("sociometer: unknown option --verbose\nusage: sociometer status [--sources] [--format table|csv|json] [--db FILE]\n");
  });

  it("in a command with options of its own (judge) gets that command's usage line", async () => {
    const {code, stderr} = await cli(["judge", "sotopia-eval", "--modle", "gpt-4o", "--dry-run"]);
    expect(code).toBe(2);
    expect(stderr).toBe("sociometer: unknown option --modle; did you mean --model?\nusage: sociometer judge <kind> --model NAME [options]   (options: sociometer judge --help)\n");
  });

  it("a misspelt command or format name gets the name meant", async () => {
    const db = join(tempDir(), "x.duckdb");
    const command = await cli(["stauts", "--db", db]);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(`sociometer: unknown command "stauts"; did you mean status?; see sociometer --help\n`);
    const format = await cli(["import", "stss-task", join(REPO, "data", "samples", "stss", "tasks.json"), "--db", db]);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/^sociometer: unknown format "stss-task"; did you mean stss-tasks\? Known formats: canonical, sotopia, /);
    expect(existsSync(db)).toBe(false);
  });

  it("a missing value is said in words", async () => {
    const {code, stderr} = await cli(["status", "--db"]);
    expect(code).toBe(2);
    expect(stderr).toBe("sociometer: option --db needs a value\nusage: sociometer status [--sources] [--format table|csv|json] [--db FILE]\n");
  });
});

describe("sociometer status", () => {
  it("lists sources one line per folder and format, and every file with --sources", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    expect((await cli(["import-samples", "--db", db, "--quiet"])).code).toBe(0);
    // Three logs in one folder: one line of three files.
    const history = [{speaker: "Ben", content: "Lunch?"}, {speaker: "Ada", content: "Sure, where?"}];
    const files = ["a", "b", "c"].map((name, i) =>
      writeFile(dir, `hsii-logs-${name}.jsonl`, jsonl(Array.from({length: i + 1}, (_, j) => ({case_id: `${name}${j}`, model: "m-1", gold_target: "Ada", history, response: "Ada?"})))));
    expect((await cli(["import", "hsii", ...files, "--db", db, "--quiet"])).code).toBe(0);

    const sources = (csv: string) => csv.split("\n").slice(0, csv.split("\n").indexOf("benchmark,episodes,synthetic,definitions_inputs"));
    const grouped = sources((await cli(["status", "--db", db, "--format", "csv"])).stdout);
    const samples = join(REPO, "data", "samples");
    expect(grouped.map((l) => l.replace(/,[^,]*$/, ""))).toEqual([
      "folder,format,files,rows,rejected",
      `${samples}/sotopia,sotopia,1,232,0`,
      `${samples}/sotopia,sotopia-ratings,2,${2842 + 1680},0`, // human_ratings.csv and judge_reruns.csv
      `${samples}/lifelong,lifelong,1,810,0`,
      `${samples}/hsii,hsii,1,480,0`,
      `${samples}/stss,stss-tasks,1,30,0`,
      `${samples}/stss,stss,1,1088,0`,
      `${samples}/stss,stss-action,1,240,0`,
      `${samples}/informativebench,informativebench-schedules,1,90,0`,
      `${samples}/informativebench,informativebench,1,2336,0`,
      `${dir},hsii,3,6,0`,
    ]);
    expect(grouped[1]).toMatch(/,\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+$/);

    const table = (await cli(["status", "--db", db])).stdout.split("\n");
    expect(table.slice(0, 2)).toEqual(["Sources", "  one line per folder and format; --sources lists every file"]);
    expect(table.slice(2, table.indexOf("Episodes")).filter((l) => l.startsWith("/"))).toHaveLength(10);

    const every = sources((await cli(["status", "--db", db, "--sources", "--format", "csv"])).stdout);
    expect(every[0]).toBe("source_id,file,format,rows,rejected,imported_at");
    expect(every.slice(1).map((l) => l.split(",").slice(1, 5).join(","))).toEqual([
      "episodes.jsonl,sotopia,232,0", "human_ratings.csv,sotopia-ratings,2842,0", "judge_reruns.csv,sotopia-ratings,1680,0", "chains.jsonl,lifelong,810,0", "runs.jsonl,hsii,480,0",
      "tasks.json,stss-tasks,30,0", "conversations.jsonl,stss,1088,0", "actions.jsonl,stss-action,240,0",
      "schedules.jsonl,informativebench-schedules,90,0", "results.jsonl,informativebench,2336,0",
      "hsii-logs-a.jsonl,hsii,1,0", "hsii-logs-b.jsonl,hsii,2,0", "hsii-logs-c.jsonl,hsii,3,0",
    ]);
  }, 120_000);
});

describe("a failed import", () => {
  const bad = (dir: string) => writeFile(dir, "bad.jsonl", jsonl([{case_id: "c1", model: "m-1", gold_target: "Ada", history: "not a list"}]));

  it("into a store it was creating leaves no store file behind", async () => {
    const dir = tempDir();
    const db = join(dir, "new.duckdb");
    const {code} = await cli(["import", "hsii", bad(dir), "--db", db, "--quiet"]);
    expect(code).toBe(65);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}.wal`)).toBe(false);
  });

  it("into an existing store leaves it byte for byte as it was", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    expect((await cli(["import", "stss-tasks", join(REPO, "data", "samples", "stss", "tasks.json"), "--db", db, "--quiet"])).code).toBe(0);
    const before = sha256(db);
    const {code} = await cli(["import", "hsii", bad(dir), "--db", db, "--quiet"]);
    expect(code).toBe(65);
    expect(sha256(db)).toBe(before);
    expect(existsSync(`${db}.wal`)).toBe(false);
  });
});
