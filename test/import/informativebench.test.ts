import {cliOrThrow} from "../helpers/cli.js";
import {describe, expect, it} from "vitest";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import {REPO} from "../helpers/fixtures.js";
import {jsonl} from "../helpers/episodes.js";
import {count, expectImportFailure, tempStore, writeFile} from "../helpers/store.js";
import {easyByDefinition, hardByDefinition, mediumByDefinition, type PlainPerson} from "../lib/schedule-definitions.js";
import {IB_RESULTS_SQL, IB_SCHEDULES_SQL} from "../../loaders/queries/informativebench.js";
import {goldChecks, schedulesFromRows, scoreRows, type IbResultRow, type ScheduleRow} from "../../src/lib/informativebench.js";

const sociometer = (...args: string[]) => cliOrThrow(args);
const report = async (db: string, ...args: string[]) => JSON.parse((await sociometer("report", ...args, "--format", "json", "--db", db)).stdout);
const rows_ = (store: {conn: Parameters<typeof rows>[0]}, sql: string) => rows(store.conn, sql);

const MEMORY = {memory: ["distinct", "fuzzy"], recursive: true};
const plan = (known: number, fake: number, total: number, kept: number, dropped: number) => ({
  agent: "A",
  updates: [
    Array.from({length: total}, (_, i) => ({rationale: `r${i}`, status: "unknown"})),
    Array.from({length: total}, (_, i) => ({rationale: `r${i}`, status: i < known ? "known" : i < known + fake ? "fake solved" : "unknown"})),
  ],
  consensus: {kept: Array.from({length: kept}, (_, i) => `r${i}`), dropped: Array.from({length: dropped}, (_, i) => `r${kept + i}`)},
});

// gpt-x: NP 2 of 3 right (one by number words), FriendsTV 1 of 2, ScheduleMedium F1 1 and 2/3, ScheduleHard IoU 1/3;
// gpt-y: NP 1 of 3; and one NP ablation run of gpt-x with InfoNav off.
const RESULTS = [
  {model: "gpt-x", dataset: "NP", question_id: "np-1", question: "How many cats?", prediction: "Two.", gold: "2", turns: 4, trajectory: [plan(3, 0, 4, 3, 1)]},
  {model: "gpt-x", dataset: "NP", question_id: "np-2", question: "Which series?", prediction: "the Expanse", gold: ["The Expanse", "Expanse"], turns: 6, trajectory: [plan(2, 1, 4, 2, 2)]},
  {model: "gpt-x", dataset: "NP", question_id: "np-3", question: "Who?", prediction: "Bob", gold: "Dave", turns: 9, trajectory: [plan(1, 1, 4, 1, 3)]},
  {model: "gpt-y", dataset: "Needle in the Persona", question_id: "np-1", question: "How many cats?", prediction: "3", gold: "2"},
  {model: "gpt-y", dataset: "NP", question_id: "np-2", question: "Which series?", prediction: "Expanse", gold: ["The Expanse"]},
  {model: "gpt-y", dataset: "NP", question_id: "np-3", question: "Who?", prediction: null, gold: "Dave"},
  {model: "gpt-x", dataset: "NP", question_id: "np-1", question: "How many cats?", prediction: "2", gold: "2", settings: {infonav: false}},
  {model: "gpt-x", dataset: "FriendsTV", question_id: "f-1", question: "Who worried?", prediction: "Rachel", gold: "Rachel", settings: MEMORY},
  {model: "gpt-x", dataset: "FriendsTV", question_id: "f-2", question: "Where?", prediction: "Central Perk", gold: "Monica's apartment", settings: MEMORY},
  {model: "gpt-x", dataset: "Schedule Medium", question_id: "m1", question: "Longest?", prediction: "Work and Hike", gold: ["Work", "Hike"]},
  {model: "gpt-x", dataset: "ScheduleMedium", question_id: "m2", question: "Longest?", prediction: "Work", gold: "Work, Hike"},
  {model: "gpt-x", dataset: "ScheduleHard", question_id: "h1", question: "Free?", prediction: "All free 9:00-11:00.", gold: "10:00-12:00"},
];

const SCHEDULES = [
  {dataset: "ScheduleMedium", question_id: "m1", people: [{name: "Ann", activities: [{name: "Work", start: "9:00", end: "12:00"}]}, {name: "Bob", activities: [{name: "Hike", start: "1pm", end: "4pm"}]}]},
  // m2's stated gold in the results says "Work, Hike", but here Work is longer: the check must flag it.
  {dataset: "ScheduleMedium", question_id: "m2", people: [{name: "Ann", activities: [{name: "Work", start: "9:00", end: "13:00"}]}, {name: "Bob", activities: [{name: "Hike", start: "13:00", end: "16:00"}]}]},
  {dataset: "ScheduleHard", question_id: "h1", day: {start: "8:00", end: "12:00"}, people: [{name: "Ann", activities: [{name: "Call", time: "8:00-10:00"}]}, {name: "Bob", activities: []}]},
];

describe("informativebench and informativebench-schedules formats", () => {
  it("imports results and schedules, and reports Table 3, ablations, InfoNav behaviour and gold checks computed by hand", async () => {
    const store = await tempStore();
    await importFiles(store, "informativebench-schedules", [writeFile(store.dir, "schedules.jsonl", jsonl(SCHEDULES))]);
    const results = writeFile(store.dir, "results.jsonl", jsonl(RESULTS));
    const summary = await importFiles(store, "informativebench", [results]);
    expect(summary.episodes).toBe(12);
    expect(await rows(store.conn, "SELECT dataset, metric, count(*)::INT AS n FROM ib_results GROUP BY ALL ORDER BY ALL")).toEqual([
      {dataset: "FriendsTV", metric: "precision", n: 2}, {dataset: "NP", metric: "precision", n: 7},
      {dataset: "ScheduleHard", metric: "iou", n: 1}, {dataset: "ScheduleMedium", metric: "f1", n: 2},
    ]);
    expect(await count(store, "SELECT count(*) FROM ib_plan_updates")).toBe(3 * 2 * 4);
    expect(await count(store, "SELECT count(*) FROM ib_schedule_activities WHERE activity IS NULL")).toBe(1);
    // The same file again adds nothing.
    const again = await importFiles(store, "informativebench", [results]);
    expect(again.files[0]!.status).toBe("unchanged");
    expect(await count(store, "SELECT count(*) FROM ib_results")).toBe(12);
    const db = join(store.dir, "test.duckdb");
    store.close();

    const t3 = await report(db, "informativebench");
    const cell = (m: string, d: string) => t3.rows.find((r: {model: string; dataset: string}) => r.model === m && r.dataset === d);
    expect(cell("gpt-x", "NP")).toMatchObject({metric: "precision", n: 3, value: 2 / 3, correct: 2});
    expect(cell("gpt-y", "NP")).toMatchObject({n: 3, value: 1 / 3, problems: 1});
    expect(cell("gpt-x", "FriendsTV")).toMatchObject({n: 2, value: 0.5});
    expect(cell("gpt-x", "ScheduleMedium").value).toBeCloseTo((1 + 2 / 3) / 2, 12);
    expect(cell("gpt-x", "ScheduleHard").value).toBeCloseTo(1 / 3, 12);
    expect(t3.rows.map((r: {dataset: string}) => r.dataset)).toEqual(["NP", "FriendsTV", "ScheduleMedium", "ScheduleHard", "NP"]);
    expect(t3.notes.join("\n")).toContain("FriendsTV (precision): InfoNav + distinct memory + fuzzy memory + recursive communication");
    // m1 agrees (Work and Hike tie at 3 h), h1 agrees (free 10:00–12:00), m2 does not.
    expect(t3.notes.join("\n")).toContain("gold answers checked by the schedule verifier: 2 of 3 agree");
    expect(t3.notes.join("\n")).toContain("ScheduleMedium m2 (log Work, Hike, verifier Work)");

    const contains = await report(db, "informativebench", "--match", "contains", "--model", "gpt-y");
    expect(contains.rows).toHaveLength(1);
    expect(contains.notes[0]).toContain("match contains");

    const abl = await report(db, "informativebench-ablations");
    // Paired by question: the InfoNav-off run asked np-1 only, which the base got right too.
    expect(abl.rows).toEqual([{dataset: "NP", metric: "precision", model: "gpt-x", variant: "InfoNav off", paired: 1, base_n: 1, base: 1, ablated_n: 1, ablated: 1, delta: 0,
      unpaired_base: 2, unpaired_variant: 0}]);

    // Plans: right np-1 (3 of 4 known, kept 3/4), np-2 (2 known, 1 fake, kept 2/4); wrong np-3 (1 known, 1 fake, kept 1/4).
    const nav = await report(db, "infonav", "--model", "gpt-x");
    const [right, wrong, all] = nav.rows;
    expect(right).toMatchObject({sample: "right", plans: 2, rationales: 4, solved_per_update: 2.5, solved_ratio: 5 / 8, fake_ratio: 1 / 8, consensus_ratio: 5 / 8});
    expect(wrong).toMatchObject({sample: "wrong", plans: 1, solved_per_update: 1, solved_ratio: 0.25, fake_ratio: 0.25, consensus_ratio: 0.25});
    expect(all.solved_ratio).toBeCloseTo(0.5, 12);
    const pooled = await report(db, "infonav", "--average", "pooled", "--right-at", "0.5");
    expect(pooled.rows[2].consensus_ratio).toBeCloseTo(6 / 12, 12);

    const audit = await report(db, "informativebench-audit");
    expect(audit.rows.find((r: {model: string; dataset: string}) => r.model === "GPT 4" && r.dataset === "FriendsTV")).toMatchObject({reported: "57.94%", claimed_n: 222, consistent: "no"});
    expect(audit.notes.join("\n")).toContain("FriendsTV column: claimed n = 222; smallest n printing every cell at once: 126 (73, 45, 43, 36)");
    await expect(report(db, "informativebench", "--match", "fuzzy")).rejects.toThrow("--match must be exact or contains");
    // The open choices are flags, said in the notes.
    const paper = await report(db, "informativebench", "--base", "paper");
    expect(paper.notes.join("\n")).toContain("FriendsTV (precision): InfoNav + distinct memory + fuzzy memory + recursive communication (the paper's base)");
    expect(paper.notes[0]).toContain("base paper (InfoNav on, real names, no privacy prompt");
    const given = await report(db, "informativebench", "--base", "NP=none");
    // NP=none: the base is the InfoNav-off run (gpt-x np-1, right); gpt-y has no NP record under it.
    expect(given.rows.filter((r: {dataset: string}) => r.dataset === "NP")).toEqual([{model: "gpt-x", dataset: "NP", metric: "precision", n: 1, value: 1, correct: 1, problems: 0}]);
    const navAll = await report(db, "infonav", "--per-update", "all", "--fake", "solved");
    expect(navAll.notes[0]).toContain("solved per update all (over every update after the initial plan); fake solved solved");
    // np-2's plan: 2 known and 1 fake of 4; with fake counted as solved, 3 of 4.
    const fakeSolved = await report(db, "infonav", "--model", "gpt-x", "--fake", "solved");
    expect(fakeSolved.rows[0].solved_ratio).toBeCloseTo((3 / 4 + 3 / 4) / 2, 12);
    await expect(report(db, "infonav", "--per-update", "some")).rejects.toThrow("--per-update must be solving or all");
    await expect(report(db, "informativebench", "--base", "infonav+memory")).rejects.toThrow('unknown setting "memory"');
  }, 60_000);

  it("stops on bad input with file, line and field, and imports nothing", async () => {
    const store = await tempStore();
    await importFiles(store, "informativebench", [writeFile(store.dir, "ok.jsonl", jsonl(RESULTS.slice(0, 2)))]);
    const bad = (name: string, record: Record<string, unknown>, format = "informativebench") =>
      expectImportFailure(store, format, [writeFile(store.dir, name, jsonl([RESULTS[2], RESULTS[3], record]))]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{...RESULTS[11], gold: "9:00-25:00"}, "gold", "past 24:00"],
      [{...RESULTS[11], gold: "14:00-13:00"}, "gold", "the end is before the start"],
      [{...RESULTS[11], gold: ["10:00-11:00", "after lunch"]}, "gold[1]", '"after lunch" is not a time span'],
      [{...RESULTS[0], dataset: "MyQA"}, "dataset", 'unknown dataset "MyQA" has no metric'],
      [{...RESULTS[0], dataset: "MyQA", metric: "accuracy"}, "metric", 'unknown metric "accuracy"'],
      [{...RESULTS[0], metric: "iou"}, "metric", "NP is scored by precision"],
      [{...RESULTS[0], gold: "!!!"}, "gold", "empty once normalised"],
      [{...RESULTS[0], settings: {info_nav: false}}, "settings.info_nav", "unknown setting"],
      [{...RESULTS[0], settings: {memory: ["episodic"]}}, "settings.memory[0]", "expected distinct or fuzzy"],
      [{...RESULTS[0], turns: -1}, "turns", "whole number"],
      [{...RESULTS[0], trajectory: [{updates: [[{rationale: "a", status: "solved"}]]}]}, "trajectory[0].updates[0][0].status", "expected unknown, known or fake_solved"],
      // Review H3: an empty gold would read as "nothing".
      [{...RESULTS[11], gold: ""}, "gold", 'empty gold answer: write "none" for no common free span'],
      [{...RESULTS[10], gold: ["Work", " "]}, "gold[1]", 'empty gold answer: write "none" for no activity'],
      [{...RESULTS[11], gold: []}, "gold", 'needs at least one answer (write "none"'],
      // Review M3: consensus names must be the plan's, each kept or dropped once.
      [{...RESULTS[0], trajectory: [{updates: [[{rationale: "x", status: "unknown"}], [{rationale: "x filled: 3", status: "known"}]], consensus: {kept: ["x filled: 3", "nonexistent"]}}]},
        "trajectory[0].consensus.kept[1]", '"nonexistent" is not a rationale of this plan'],
      [{...RESULTS[0], trajectory: [{updates: [[{rationale: "x", status: "known"}]], consensus: {kept: ["x"], dropped: ["x"]}}]},
        "trajectory[0].consensus.dropped[0]", '"x" is already in consensus.kept[0]'],
    ];
    for (const [i, [record, field, problem]] of cases.entries()) {
      const e = await bad(`bad-${i}.jsonl`, record);
      expect([e.line, e.field], problem).toEqual([3, field]);
      expect(e.problem).toContain(problem);
      expect(e.message).toContain(`bad-${i}.jsonl:3: ${field}: `);
    }
    const schedule = (people: unknown, extra: Record<string, unknown> = {}) => ({dataset: "ScheduleEasy", question_id: "e9", people, ...extra});
    const scheduleCases: [Record<string, unknown>, string, string][] = [
      [schedule([{name: "A", activities: [{name: "Gym", start: "9:00", end: "8:30"}]}, {name: "B"}]), "people[0].activities[0].end", "the end is before the start"],
      [schedule([{name: "A", activities: [{name: "Gym", start: "9h", end: "10:00"}]}, {name: "B"}]), "people[0].activities[0].start", "not a clock time"],
      [schedule([{name: "A"}]), "people", "two people"],
      [{...schedule([{name: "A"}]), dataset: "NP"}, "dataset", "not a Schedule dataset"],
      [{...schedule([{name: "A"}]), dataset: "MySchedules"}, "level", "say which question it asks"],
      [schedule([{name: "A"}, {name: "B"}], {day: "20:00-8:00"}), "day", "the end is before the start"],
      [schedule([{name: "A"}, {name: "B"}], {day: {start: "8:00", end: "26:00"}}), "day.end", "past 24:00"],
      [schedule([{name: "A"}, {name: "B"}, {name: "C"}], {pair: ["A", "Z"]}), "pair[1]", '"Z" is not one of the people (A, B, C)'],
      [schedule([{name: "A"}, {name: "B"}, {name: "C"}], {pair: ["A", "A"]}), "pair[1]", "the same person twice"],
      [schedule([{name: "A", activities: [{name: "Sleep", time: "0:00-7:00", fixed: "yes"}]}, {name: "B"}]), "people[0].activities[0].fixed", ""],
      [{...schedule([{name: "A"}, {name: "B"}]), dataset: "ScheduleHard", gold: ""}, "gold", 'empty gold answer: write "none"'],
    ];
    for (const [i, [record, field, problem]] of scheduleCases.entries()) {
      const e = await expectImportFailure(store, "informativebench-schedules", [writeFile(store.dir, `sched-${i}.jsonl`, jsonl([SCHEDULES[0], record]))]);
      expect([e.line, e.field], problem).toEqual([2, field]);
      expect(e.problem).toContain(problem);
    }
    expect(await count(store, "SELECT count(*) FROM ib_results")).toBe(2);
    expect(await count(store, "SELECT count(*) FROM ib_schedules")).toBe(0);
  }, 60_000);

  it("scores a missing or evasive prediction 0 against a gold of \"none\"; only \"none\" in words is right (review H3)", async () => {
    const store = await tempStore();
    await importFiles(store, "informativebench", [writeFile(store.dir, "empty.jsonl", jsonl([
      {model: "m", dataset: "ScheduleHard", question_id: "h1", question: "?", prediction: "I don't know", gold: "none"},
      {model: "m", dataset: "ScheduleHard", question_id: "h2", question: "?", prediction: null, gold: ["none"]},
      {model: "m", dataset: "ScheduleHard", question_id: "h3", question: "?", prediction: "There is no common free time.", gold: "none"},
    ]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const t3 = await report(db, "informativebench");
    // Only h3 says "none" in words: 1 of 3.
    expect(t3.rows).toEqual([{model: "m", dataset: "ScheduleHard", metric: "iou", n: 3, value: 1 / 3, correct: 1, problems: 2}]);
  }, 60_000);

  it("verify-schedule follows InformativeBench's generator by default (sleep fixed, pooled easy overlaps), and the other readings on request (review H1, M2)", async () => {
    const store = await tempStore();
    const sleepy = (extra: object[]) => [{name: "Sleep", time: "0:00-7:00"}, ...extra, {name: "Sleep", time: "22:00-24:00"}];
    const file = writeFile(store.dir, "orig.jsonl", jsonl([
      {dataset: "ScheduleEasy", question_id: "e-sleep", gold: "1", people: [
        {name: "A0", activities: sleepy([{name: "Team Meeting", time: "10:00-10:30"}, {name: "Lunch", time: "12:00-12:30"}])},
        {name: "D0", activities: [{name: "Sleep", time: "0:00-6:30"}, {name: "Team Meeting", time: "10:00-10:30"}, {name: "Reading", time: "14:00-15:30"}, {name: "Sleep", time: "23:00-24:00"}]}]},
      {dataset: "ScheduleMedium", question_id: "m-sleep", gold: "{'Reading'}", people: [
        {name: "A0", activities: sleepy([{name: "Team Meeting", time: "10:00-10:30"}])}, {name: "D0", activities: [{name: "Reading", time: "14:00-15:30"}]}]},
      {dataset: "ScheduleEasy", question_id: "e-self", gold: "1", people: [{name: "A0", activities: [{name: "Gym", time: "9:00-11:00"}, {name: "Call", time: "10:00-10:30"}]}, {name: "D0", activities: []}]},
      {dataset: "ScheduleMedium", question_id: "m-and", gold: "Rock and Roll class", people: [{name: "A0", activities: [{name: "Rock and Roll class", time: "9:00-11:00"}]}, {name: "D0", activities: [{name: "Tea", time: "12:00-12:30"}]}]},
      {dataset: "ScheduleMedium", question_id: "m-comma", gold: ["Lunch, with Tom"], people: [{name: "A0", activities: [{name: "Lunch, with Tom", time: "9:00-11:00"}]}, {name: "D0", activities: [{name: "Tea", time: "12:00-12:30"}]}]},
      {dataset: "ScheduleEasy", question_id: "e-six", pair: ["A", "D"], gold: "0", people: ["A", "B", "C", "D", "E", "F"].map((name) => ({name, activities: name === "B" ? [{name: "Gym", time: "9:00-10:00"}] : name === "A" ? [{name: "Gym", time: "9:00-10:00"}] : []}))},
    ]));
    const out = JSON.parse((await sociometer("verify-schedule", file, "--format", "json")).stdout);
    expect(out.rows.map((r: {question_id: string; answer: string; agrees: string}) => [r.question_id, r.answer, r.agrees])).toEqual([
      ["e-sleep", "1", "yes"], ["m-sleep", "Reading", "yes"], ["e-self", "1", "yes"], ["m-and", "Rock and Roll class", "yes"], ["m-comma", "Lunch, with Tom", "yes"], ["e-six", "0", "yes"],
    ]);
    expect(out.rows[0].explanation).toBe("1 overlapping pair(s); delete 1: D0's Team Meeting; fixed, left out: A0's Sleep, A0's Sleep, D0's Sleep, D0's Sleep");
    expect(out.notes.join("\n")).toContain("fixed activities: sleep");
    const other = await sociometer("verify-schedule", file, "--format", "json", "--easy-overlap", "between", "--fixed-activities", "none").then(() => null, (e: {code: number; stdout: string}) => e);
    expect(other?.code).toBe(1);
    const rows = JSON.parse(other!.stdout).rows;
    expect(rows.map((r: {answer: string}) => r.answer)).toEqual(["3", "Sleep", "0", "Rock and Roll class", "Lunch, with Tom", "0"]);
    // The schedules import with pair and fixed kept, and the stored verifier answers are the defaults'.
    await importFiles(store, "informativebench-schedules", [file]);
    expect(await rows_(store, "SELECT question_id, verifier, gold_agrees, pair FROM ib_schedules ORDER BY question_id")).toEqual([
      {question_id: "e-self", verifier: "1", gold_agrees: true, pair: null}, {question_id: "e-six", verifier: "0", gold_agrees: true, pair: [0, 3]},
      {question_id: "e-sleep", verifier: "1", gold_agrees: true, pair: null}, {question_id: "m-and", verifier: "Rock and Roll class", gold_agrees: true, pair: null},
      {question_id: "m-comma", verifier: "Lunch, with Tom", gold_agrees: true, pair: null}, {question_id: "m-sleep", verifier: "Reading", gold_agrees: true, pair: null},
    ]);
  }, 60_000);

  it("verify-schedule prints the verifier's answers and exits 1 when a stated gold disagrees", async () => {
    const store = await tempStore();
    const ok = writeFile(store.dir, "ok.jsonl", jsonl([{...SCHEDULES[0], gold: "Hike, Work"}, {...SCHEDULES[2], gold: "10:00 to 12:00"}]));
    const out = JSON.parse((await sociometer("verify-schedule", ok, "--format", "json")).stdout);
    expect(out.rows.map((r: {answer: string; agrees: string}) => [r.answer, r.agrees])).toEqual([["Work, Hike", "yes"], ["10:00-12:00", "yes"]]);
    const wrong = writeFile(store.dir, "wrong.jsonl", jsonl([{...SCHEDULES[1], gold: "Work, Hike"}]));
    const failed = await sociometer("verify-schedule", wrong).then(() => null, (e: {code: number; stdout: string}) => e);
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain("NO");
    const invalid = writeFile(store.dir, "invalid.jsonl", jsonl([SCHEDULES[0], {dataset: "ScheduleHard", question_id: "x", people: [{name: "A", activities: [{name: "Nap", time: "14:00-13:00"}]}]}]));
    const error = await sociometer("verify-schedule", invalid).then(() => null, (e: {code: number; stderr: string}) => e);
    expect(error?.code).toBe(2);
    expect(error?.stderr).toContain("invalid.jsonl:2: people[0].activities[0].time: 14:00–13:00: the end is before the start");
  }, 60_000);
});

describe("the bundled InformativeBench samples", () => {
  it("are what the generator writes for seed 42, and import whole", async () => {
    const {informativebenchSamples} = await import("../../scripts/samples/informativebench.js");
    const dir = join(REPO, "data", "samples", "informativebench");
    const fresh = informativebenchSamples(42);
    expect(readFileSync(join(dir, "results.jsonl"), "utf8")).toBe(jsonl(fresh.results));
    expect(readFileSync(join(dir, "schedules.jsonl"), "utf8")).toBe(jsonl(fresh.schedules));
    const store = await tempStore();
    await importFiles(store, "informativebench-schedules", [join(dir, "schedules.jsonl")]);
    await importFiles(store, "informativebench", [join(dir, "results.jsonl")]);
    expect(await count(store, "SELECT count(DISTINCT dataset) FROM ib_results")).toBe(5);
    expect(await count(store, "SELECT count(DISTINCT p.model) FROM ib_results JOIN participants p USING (episode_id)")).toBe(4);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const t3 = await report(db, "informativebench");
    expect(t3.rows).toHaveLength(20);
  }, 60_000);

  it("have gold answers that the Schedule questions' definitions, computed independently of the verifier, give", () => {
    // The generator takes its gold answers from the verifier; checking them with the verifier again would prove nothing.
    const dir = join(REPO, "data", "samples", "informativebench");
    const minutes = (t: string) => {
      const [h, m] = t.split(":").map(Number) as [number, number];
      return h * 60 + m;
    };
    type Raw = {dataset: string; question_id: string; day: {start: string; end: string}; gold: string | string[];
      people: {name: string; activities: {name: string; start: string; end: string}[]}[]};
    const records = readFileSync(join(dir, "schedules.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Raw);
    const counts = {ScheduleEasy: 0, ScheduleMedium: 0, ScheduleHard: 0} as Record<string, number>;
    for (const r of records) {
      const people: PlainPerson[] = r.people.map((p) => ({name: p.name, activities: p.activities.map((a) => ({name: a.name, start: minutes(a.start), end: minutes(a.end)}))}));
      counts[r.dataset]!++;
      if (r.dataset === "ScheduleEasy") expect(r.gold, r.question_id).toBe(String(easyByDefinition(people[0]!, people[1]!)));
      else if (r.dataset === "ScheduleMedium") expect(new Set(r.gold as string[]), r.question_id).toEqual(mediumByDefinition(people));
      else {
        const expected = hardByDefinition(people, minutes(r.day.start), minutes(r.day.end));
        const written = new Set<number>();
        if (r.gold !== "none") {
          for (const piece of (r.gold as string).split(", ")) {
            const [a, b] = piece.split("-") as [string, string];
            for (let m = minutes(a); m < minutes(b); m++) written.add(m);
          }
        }
        expect(written, r.question_id).toEqual(expected);
      }
    }
    expect(counts).toEqual({ScheduleEasy: 30, ScheduleMedium: 30, ScheduleHard: 30});
  });

  it("exercise every verifier option and both match modes: sleep-ins, own overlaps and sentence answers change numbers", async () => {
    const dir = join(REPO, "data", "samples", "informativebench");
    const minutes = (t: string) => Number(t.split(":")[0]) * 60 + Number(t.split(":")[1]);
    type Raw = {dataset: string; question_id: string; gold: string | string[]; people: {name: string; activities: {name: string; start: string; end: string}[]}[]};
    const records = readFileSync(join(dir, "schedules.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Raw);
    // How many stated gold answers each option set would give differently, by the definitions alone.
    const disagreeing = (overlap: "pooled" | "between", fixed: "sleep" | "none") => records.filter((r) => {
      const people: PlainPerson[] = r.people.map((p) => ({name: p.name, activities: p.activities.map((a) => ({name: a.name, start: minutes(a.start), end: minutes(a.end)}))}));
      if (r.dataset === "ScheduleEasy") return r.gold !== String(easyByDefinition(people[0]!, people[1]!, {overlap, fixed}));
      if (r.dataset === "ScheduleMedium") return !sameSet(new Set(r.gold as string[]), mediumByDefinition(people, fixed));
      return false;
    }).map((r) => r.question_id);
    const withSleep = records.filter((r) => r.people.some((p) => p.activities.some((a) => /sleep/i.test(a.name))));
    expect(withSleep.length).toBeGreaterThan(0);
    const expected = {between: disagreeing("between", "sleep"), none: disagreeing("pooled", "none"), both: disagreeing("between", "none")};
    expect(disagreeing("pooled", "sleep")).toEqual([]);
    expect(expected.between.length).toBeGreaterThan(0);
    expect(expected.none.some((q) => q.startsWith("se-")) && expected.none.some((q) => q.startsWith("sm-"))).toBe(true);

    const store = await tempStore();
    await importFiles(store, "informativebench-schedules", [join(dir, "schedules.jsonl")]);
    await importFiles(store, "informativebench", [join(dir, "results.jsonl")]);
    const results = await rows<IbResultRow>(store.conn, IB_RESULTS_SQL);
    const schedules = schedulesFromRows(await rows<ScheduleRow>(store.conn, IB_SCHEDULES_SQL));
    const wrong = (easy: "pooled" | "between", fixed: "sleep" | "none") =>
      goldChecks(results, schedules, {easy, fixed}).checks.filter((c) => !c.agrees).map((c) => c.question_id).sort();
    expect(wrong("pooled", "sleep")).toEqual([]);
    expect(wrong("between", "sleep")).toEqual(expected.between.sort());
    expect(wrong("pooled", "none")).toEqual(expected.none.sort());
    expect(wrong("between", "none")).toEqual(expected.both.sort());

    // Right answers written as a sentence around the answer: only contains accepts them, so for every backend and
    // precision dataset, contains finds exactly that many more right answers than exact.
    const SENTENCE = /^(I believe it was |Everyone was at |We need to delete )|, according to |, which .* is indifferent about\.$/;
    const exact = scoreRows(results, {match: "exact", schedules});
    const contains = scoreRows(results, {match: "contains", schedules});
    let sentences = 0;
    for (const model of new Set(results.map((r) => r.model))) {
      for (const dataset of ["NP", "FriendsTV", "ScheduleEasy"]) {
        const mine = (xs: typeof exact) => xs.filter((r) => r.model === model && r.dataset === dataset);
        const right = (xs: typeof exact) => mine(xs).filter((r) => r.score === 1).length;
        const written = mine(exact).filter((r) => SENTENCE.test(r.prediction ?? ""));
        expect(written.every((r) => r.score === 0), `${model} ${dataset}`).toBe(true);
        expect(right(contains) - right(exact), `${model} ${dataset}`).toBe(written.length);
        sentences += written.length;
      }
    }
    expect(sentences).toBeGreaterThan(100);
  }, 60_000);
});

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));
