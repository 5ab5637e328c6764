// The CLI as a user runs it: stdout for results, stderr for messages, exit codes;
// in this process (test/helpers/cli.ts), and once as the real program, whose
// exit code and output must be the in-process run's.

import {describe, expect, it} from "vitest";
import {existsSync, readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {REPO, describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {cli, cliProcess} from "../helpers/cli.js";
import {tempDir, writeFile} from "../helpers/store.js";
import {pearson} from "../../src/lib/inference.js";
import {mean} from "../../src/lib/stats.js";


describe("sociometer CLI", () => {
  it("prints help listing formats and reports", async () => {
    const {code, stdout} = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("sotopia-ratings");
    expect(stdout).toContain("report <name>");
    // Beside --positive: the default is METRICS.md's "fail", and LIFELONG-SOTOPIA Table 1 counts "pass" as positive.
    expect(stdout).toContain("(belext --positive: default fail, as METRICS.md; LIFELONG-SOTOPIA Table 1 counts pass as positive, so use pass to compare with it)");
    expect(stdout).toContain("[--label-runs majority|unanimous]");
    expect(stdout).toContain("[--best-among models|all]");
  });

  it("fails an import with exit code 65 and a message naming file, line and field, leaving no store data", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const bad = writeFile(dir, "bad.jsonl", jsonl([dumpRecord("a", {raw_rewards: [[0, {goal: 11}], [0, {goal: 1}]]})]));
    const {code, stdout, stderr} = await cli(["import", "sotopia", bad, "--db", db]);
    expect(code).toBe(65);
    expect(stdout).toBe("");
    expect(stderr).toContain(`${bad}:1: raw_rewards[0][1].goal: 11 is outside GOAL's range [0, 10]`);
    // The store did not exist before the failed import, so it does not exist after it.
    expect(existsSync(db)).toBe(false);
  });

  it("says a re-imported file whose new content is another file's was replaced, not unchanged", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const a = writeFile(dir, "a.jsonl", jsonl([dumpRecord("a1")]));
    const b = writeFile(dir, "b.jsonl", jsonl([dumpRecord("b1")]));
    expect((await cli(["import", "sotopia", a, b, "--db", db])).code).toBe(0);
    writeFileSync(b, readFileSync(a));
    const again = await cli(["import", "sotopia", a, b, "--db", db]);
    expect(again.code).toBe(0);
    const [first, second] = again.stdout.split("\n");
    expect(first).toMatch(/^ {2}a\.jsonl: unchanged, already imported on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(nothing to do\)$/);
    expect(second).toBe(`  b.jsonl: replaced; its earlier rows are removed, and its new content is already imported from ${a}`);
  });

  it("gives an unchanged file, and an unchanged copy of it, the notes of the import that read it", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const log = writeFile(dir, "e.jsonl", jsonl([dumpRecord("ep-1"), dumpRecord("ep-2")]));
    expect((await cli(["import", "sotopia", log, "--db", db])).code).toBe(0);
    // A wide annotation file that scores one of the seven dimensions: its reader says so.
    const wide = "ID,model,pk,prolific_id,goal_1,goal_2\n1,gpt-4,ep-1,r1,5,6\n2,gpt-4,ep-2,r1,3,3\n";
    const csv = writeFile(dir, "goal.csv", wide);
    const note = "    note: scores 1 of the 7 SOTOPIA dimensions, for every seat: goal (no columns for believability, relationship, knowledge, secret, social_rules, financial_and_material_benefits)";
    const first = await cli(["import", "sotopia-ratings", csv, "--db", db]);
    expect(first.stdout.split("\n").slice(0, 2)).toEqual(["  goal.csv: imported, 0 episodes, 4 scores", note]);

    const again = await cli(["import", "sotopia-ratings", csv, "--db", db]);
    const lines = again.stdout.split("\n");
    expect(lines[0]).toMatch(/^ {2}goal\.csv: unchanged, already imported on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(nothing to do\)$/);
    expect(lines.slice(1, 3)).toEqual([note, "sotopia-ratings: 0 episodes and 0 scores imported in " + lines[2].split(" in ")[1]]);

    const copy = writeFile(dir, "copy.csv", wide);
    const copied = (await cli(["import", "sotopia-ratings", copy, "--db", db])).stdout.split("\n");
    expect(copied[0]).toMatch(new RegExp(`^ {2}copy\\.csv: unchanged, already imported from ${csv.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} on [\\d: -]+ UTC \\(nothing to do\\)$`));
    expect(copied[1]).toBe(note);
  });

  it("as a child process, exits with the code and prints the output the in-process run gives", async () => {
    const dir = tempDir();
    const bad = writeFile(dir, "bad.jsonl", jsonl([dumpRecord("a", {raw_rewards: [[0, {goal: 11}], [0, {goal: 1}]]})]));
    const args = ["import", "sotopia", bad, "--db", join(dir, "s.duckdb")];
    const child = await cliProcess(args);
    expect(child.code).toBe(65);
    expect(child).toEqual(await cli(args));
    const help = await cliProcess(["--help"]);
    expect(help).toEqual(await cli(["--help"]));
  });

  it("reports a usage error with exit code 2", async () => {
    const {code, stderr} = await cli(["report", "nonsense", "--db", join(tempDir(), "x.duckdb")]);
    expect(code).toBe(2);
    expect(stderr).toContain(`unknown report "nonsense"; reports: sotopia`);
  });
});

describeWithFixtures("sociometer CLI on real data", () => {
  it("imports, reports the same numbers in every output format, and exports tables", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const imported = await cli(["import", "sotopia", fixture("sotopia-lab__sotopia-rl/example_episodes.jsonl"), "--db", db]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("20 episodes and 280 scores imported");

    const again = await cli(["import", "sotopia", fixture("sotopia-lab__sotopia-rl/example_episodes.jsonl"), "--db", db]);
    expect(again.stdout).toContain("unchanged, already imported");

    const json = JSON.parse((await cli(["report", "sotopia", "--db", db, "--format", "json"])).stdout);
    expect(json.notes[0]).toMatch(/^rater: gpt-4/);
    const goal4 = json.rows.find((r: {model: string; dimension: string}) => r.model === "gpt-4" && r.dimension === "goal");
    expect(goal4.n).toBe(17);

    const csv = (await cli(["report", "sotopia", "--db", db, "--format", "csv"])).stdout.trim().split("\n");
    expect(csv[0]).toBe("model,dimension,abbrev,n,mean,sd,best,p_vs_second");
    const csvGoal4 = csv.find((l) => l.startsWith("gpt-4,goal,"))!.split(",");
    expect(Number(csvGoal4[4])).toBe(goal4.mean);

    const table = (await cli(["report", "sotopia", "--db", db])).stdout;
    expect(table).toContain(goal4.mean.toFixed(3));

    const status = JSON.parse((await cli(["status", "--db", db, "--format", "json"])).stdout);
    expect(status.episodes).toEqual([{benchmark: "sotopia", episodes: 20, synthetic: 0, definitions_inputs: 0}]);
    expect(status.raters).toEqual([{rater: "gpt-4", rater_kind: "llm", episodes: 20, scores: 280}]);

    const out = join(dir, "ratings.csv");
    const exported = await cli(["export", "ratings", "--out", out, "--db", db]);
    expect(exported.code).toBe(0);
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(281);
    const parquet = join(dir, "episodes.parquet");
    expect((await cli(["export", "episodes", "--out", parquet, "--db", db])).code).toBe(0);
    expect(existsSync(parquet)).toBe(true);
  }, 60_000);
});

describe("sociometer report agreement", () => {
  it("pairs the judge with the mean of human annotators and reports Pearson r, side by side for several raters", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    // Ten episodes: the judge's goal score for seat 1 and two annotators' scores.
    const judge = [8, 9, 9, 3, 5, 7, 0, 10, 4, 6];
    const h1 = [7, 6, 9, 4, 4, 8, 2, 9, 5, 5];
    const h2 = [9, 5, 8, 2, 6, 6, 3, 10, 3, 7];
    const episodes = judge.map((g, i) => dumpRecord(`ep-${i}`, {
      raw_rewards: [[0, {...(dumpRecord("x").raw_rewards as [number, Record<string, number>][])[0][1], goal: g}], (dumpRecord("x").raw_rewards as unknown[])[1]],
    }));
    const csv = "episode_id,agent,dimension,rater,value\n" +
      judge.flatMap((_, i) => [`ep-${i},1,goal,h1,${h1[i]}`, `ep-${i},1,goal,h2,${h2[i]}`, `ep-${i},1,secret,h1,${-(i % 3)}`, `ep-${i},1,secret,h2,${-(i % 2)}`]).join("\n") + "\n";
    expect((await cli(["import", "sotopia", writeFile(dir, "e.jsonl", jsonl(episodes)), "--db", db])).code).toBe(0);
    expect((await cli(["import", "sotopia-ratings", writeFile(dir, "h.csv", csv), "--db", db])).code).toBe(0);

    const out = await cli(["report", "agreement", "--rater", "judge-x", "--rater", "h1", "--format", "json", "--db", db]);
    expect(out.code).toBe(0);
    const rows = JSON.parse(out.stdout).rows as {a: string; dimension: string; played_by: string; n: number; r: number; bias: number; inside: number; above: number; below: number}[];
    const goal = (a: string) => rows.find((r) => r.a === a && r.dimension === "goal" && r.played_by === "all")!;
    const humanMean = h1.map((v, i) => (v + h2[i]) / 2);
    expect(goal("judge-x").n).toBe(10);
    expect(goal("judge-x").r).toBeCloseTo(pearson(judge, humanMean).r, 12);
    expect(goal("judge-x").bias).toBeCloseTo(mean(judge) - mean(humanMean), 12);
    // Perceived ranges by hand: episode 1 (judge 9, annotators 6 and 5) is above, episode 6 (0 against 2 and 3) below, the other 8 inside.
    expect([goal("judge-x").inside, goal("judge-x").above, goal("judge-x").below]).toEqual([0.8, 0.1, 0.1]);
    // An annotator compared with "humans" is left out of the human score: h1 against h2 alone.
    expect(goal("h1").r).toBeCloseTo(pearson(h1, h2).r, 12);
    // GOAL and SEC pooled: no correlation (null), the reason in the notes; the pooled kappa stays.
    const pooled = rows.find((r) => r.a === "judge-x" && r.dimension === "all" && r.played_by === "all")! as unknown as Record<string, unknown>;
    expect(pooled.n).toBe(20);
    expect([pooled.r, pooled.p, pooled.ci_low, pooled.ci_high, pooled.rho, pooled.rho_p]).toEqual([null, null, null, null, null, null]);
    expect(typeof pooled.kappa_humans).toBe("number");
    expect(JSON.parse(out.stdout).notes.join("\n")).toContain("dimension all: r, p, CI and rho left blank (null in JSON), not computed over several dimensions pooled");
  });
});

describe("sociometer report sotopia-hard", () => {
  it("names each task by codename and characters beside its id, and says how many tie at the bound and why fewer than N are listed", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    expect((await cli(["import", "sotopia", join(REPO, "data", "samples", "sotopia", "episodes.jsonl"), "--db", db, "--quiet"])).code).toBe(0);
    const out = await cli(["report", "sotopia-hard", "--hard-target", "gpt-3.5-turbo", "--hard-n", "500", "--format", "json", "--db", db]);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as {notes: string[]; rows: {task: string; task_id: string; difficulty: number}[]};
    // Every row: "codename: Name & Name" beside "scenario id | profile id & profile id".
    for (const r of report.rows) {
      expect(r.task).toMatch(/^synthetic_[a-z_]+: [^&|]+ & [^&|]+$/);
      expect(r.task_id).toMatch(/^\w+ \| \w+ & \w+$/);
    }
    const bound = report.rows.filter((r) => r.difficulty === 10).length;
    expect(bound).toBeGreaterThan(0);
    expect(report.notes).toContain(`${bound} task(s) tie at the bound: difficulty 10, the whole range [0, 10] (upper bound clamped to 10, the target's mean − 3 sd clamped to 0); ` +
      "the 3 sd bounds saturate on so few episodes, and tied tasks are ordered by task id only");
    // N = 500 is more than there are tasks: the notes say how many qualify and why.
    expect(report.notes.some((n) => n.startsWith(`only ${report.rows.length} task(s) of the target have a difficulty`) && n.endsWith("not 500"))).toBe(true);
  }, 60_000);
});

describe("sociometer report lifelong and belext", () => {
  it("prints curves with penalised BEL and the checkpoint validation table for a chosen positive class", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const episode = (i: number, bel: number, judge: number[], human: number[]) => ({
      episode_id: `e${i}`, chain_id: "pair", chain_index: i, memory_mode: "summary", harder: i === 3,
      agents: [{model: "m"}, {model: "m"}],
      ratings: [
        {agent: 1, rater: "judge", scores: {believability: bel, goal: 5}, checkpoints: judge},
        {agent: 1, rater: "ann", rater_kind: "human", checkpoints: human},
      ],
    });
    const pass = [1, 1, 1, 1, 1, 1, 1, 1];
    const failFirst = [0, 1, 1, 1, 1, 1, 1, 1];
    // Checkpoint 1: judge fails e1 and e2, the human fails e1 and e3 → with "fail" positive TP 1, FP 1, FN 1, TN 0.
    const file = writeFile(dir, "l.jsonl", jsonl([episode(1, 9, failFirst, failFirst), episode(2, 8, failFirst, pass), episode(3, 7, pass, failFirst)]));
    expect((await cli(["import", "lifelong", file, "--db", db])).code).toBe(0);

    const curve = JSON.parse((await cli(["report", "lifelong", "--format", "json", "--db", db])).stdout).rows;
    expect(curve.map((r: {index: number; bel: number; penalised_bel: number; harder: string}) => [r.index, r.bel, r.penalised_bel, r.harder])).toEqual([
      [1, 9, 4, ""], [2, 8, 3, ""], [3, 7, 7, "yes"],
    ]);

    const byFail = JSON.parse((await cli(["report", "belext", "--format", "json", "--db", db])).stdout).rows;
    const first = byFail.find((r: {checkpoint: string}) => r.checkpoint === "no_repeated_sentences");
    expect(first).toMatchObject({n: 3, tp: 1, fp: 1, tn: 0, fn: 1, precision: 0.5, recall: 0.5, f1: 0.5});
    // The other seven checkpoints never fail: no positive at all under "fail", so precision and recall are n/a (null in JSON).
    expect(byFail.find((r: {checkpoint: string}) => r.checkpoint === "no_stalling")).toMatchObject({tp: 0, fp: 0, tn: 3, fn: 0, precision: null, recall: null});
    const byPass = JSON.parse((await cli(["report", "belext", "--positive", "pass", "--format", "json", "--db", db])).stdout).rows;
    expect(byPass.find((r: {checkpoint: string}) => r.checkpoint === "no_repeated_sentences")).toMatchObject({tp: 0, fp: 1, tn: 1, fn: 1});

    // The page's failure chart: the judge (the curves' default rater) fails checkpoint 1 at indices 1 and 2, not 3.
    type FailureRow = {checkpoint: string; from: number; to: number; n: number; runs: number; rate: number};
    const failures = async (...args: string[]) => (JSON.parse((await cli(["report", "checkpoint-failures", "--format", "json", "--db", db, ...args])).stdout).rows as FailureRow[])
      .filter((r) => r.checkpoint === "no_repeated_sentences").map((r) => [r.from, r.to, r.n, r.runs, r.rate]);
    expect(await failures()).toEqual([[1, 3, 3, 3, 2 / 3]]);
    expect(await failures("--window", "1", "--model", "m")).toEqual([[1, 1, 1, 1, 1], [2, 2, 1, 1, 1], [3, 3, 1, 1, 0]]);
    expect(await failures("--rater", "ann", "--window", "2")).toEqual([[1, 2, 2, 2, 0.5], [3, 3, 1, 1, 1]]);
    expect((await cli(["report", "checkpoint-failures", "--window", "0", "--db", db])).stderr).toContain("--window must be a whole number of chain indices ≥ 1, not 0");
  });
});

describe("sociometer status", () => {
  it("counts STSS task definitions and InformativeBench schedules apart from episodes, in status and in the import summary, and lists no `dataset` model", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const samples = join(REPO, "data", "samples");
    const tasks = (JSON.parse(readFileSync(join(samples, "stss", "tasks.json"), "utf8")) as unknown[]).length;
    const schedules = readFileSync(join(samples, "informativebench", "schedules.jsonl"), "utf8").split("\n").filter(Boolean).length;
    // Two HSII cases whose dialogue histories have two speakers each: stored as seats of model `dataset`.
    const history = [{speaker: "Ben", content: "Lunch?"}, {speaker: "Ada", content: "Sure, where?"}];
    const hsii = writeFile(dir, "hsii.jsonl", jsonl(["c1", "c2"].map((case_id) => ({case_id, model: "m-1", gold_target: "Ada", history, response: "Ada, how about noon?"}))));
    const said: string[] = [];
    for (const args of [["stss-tasks", join(samples, "stss", "tasks.json")], ["informativebench-schedules", join(samples, "informativebench", "schedules.jsonl")], ["hsii", hsii]]) {
      const run = await cli(["import", ...args, "--db", db, "--quiet"]);
      expect(run.code, args[0]).toBe(0);
      said.push(run.stdout.split("\n")[0]);
    }
    // The import's summary counts them as status does.
    expect(said).toEqual([
      `  tasks.json: imported, ${tasks} definitions and inputs (nobody played them), 0 scores`,
      `  schedules.jsonl: imported, ${schedules} definitions and inputs (nobody played them), 0 scores`,
      "  hsii.jsonl: imported, 2 episodes, 0 scores",
    ]);
    const status = JSON.parse((await cli(["status", "--db", db, "--format", "json"])).stdout);
    expect(status.episodes).toEqual([
      {benchmark: "hsii", episodes: 2, synthetic: 0, definitions_inputs: 0},
      {benchmark: "informativebench", episodes: 0, synthetic: 0, definitions_inputs: schedules},
      {benchmark: "stss", episodes: 0, synthetic: 0, definitions_inputs: tasks},
    ]);
    expect(status.models).toEqual([{benchmark: "hsii", model: "m-1", episodes: 2}]);
  }, 60_000);
});
