// `report informativebench --free-text items|commentary`: the two readings of
// ScheduleMedium free text that names no activity of the stored schedule give
// the F1 worked out by hand, the notes say which reading produced it, and the
// other datasets and a question without a stored schedule do not move.

import {join} from "node:path";
import {cliOrThrow} from "../helpers/cli.js";
import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {jsonl} from "../helpers/episodes.js";
import {tempStore, writeFile} from "../helpers/store.js";

const report = async (db: string, ...args: string[]) =>
  JSON.parse((await cliOrThrow(["report", "informativebench", ...args, "--format", "json", "--db", db])).stdout);

const RESULTS = [
  // Stored schedule: items P = {work, "which takes 4 hours"}, G = {work}: 2/3; commentary P = {work}: 1.
  {model: "m", dataset: "ScheduleMedium", question_id: "q1", question: "Longest?", prediction: "Work, which takes 4 hours", gold: "Work"},
  // Stored schedule, a set literal: P = {work, tennis}, G = {work}: 2/3 under both.
  {model: "m", dataset: "ScheduleMedium", question_id: "q2", question: "Longest?", prediction: "{'Work', 'Tennis'}", gold: "Work"},
  // No stored schedule: split at commas, P = {work, "which takes 4 hours"}, G = {work}: 2/3 under both.
  {model: "m", dataset: "ScheduleMedium", question_id: "q3", question: "Longest?", prediction: "Work, which takes 4 hours", gold: "Work"},
  {model: "m", dataset: "NP", question_id: "n1", question: "How many?", prediction: "Two", gold: "2"},
];
const day = (question_id: string) => ({dataset: "ScheduleMedium", question_id, people: [
  {name: "Ann", activities: [{name: "Work", start: "9:00", end: "13:00"}]},
  {name: "Bob", activities: [{name: "Hike", start: "13:00", end: "15:00"}]},
]});

describe("report informativebench --free-text", () => {
  it("scores ScheduleMedium free text as items by default and as commentary when asked, and says which", async () => {
    const store = await tempStore();
    await importFiles(store, "informativebench-schedules", [writeFile(store.dir, "schedules.jsonl", jsonl([day("q1"), day("q2")]))]);
    await importFiles(store, "informativebench", [writeFile(store.dir, "results.jsonl", jsonl(RESULTS))]);
    const db = join(store.dir, "test.duckdb");
    store.close();

    const medium = (t: {rows: {dataset: string; value: number}[]}) => t.rows.find((r) => r.dataset === "ScheduleMedium")!.value;
    const np = (t: {rows: {dataset: string; value: number}[]}) => t.rows.find((r) => r.dataset === "NP")!.value;
    const byDefault = await report(db);
    const items = await report(db, "--free-text", "items");
    const commentary = await report(db, "--free-text", "commentary");
    // (2/3 + 2/3 + 2/3) / 3 under items; (1 + 2/3 + 2/3) / 3 under commentary.
    expect(medium(byDefault)).toBeCloseTo(2 / 3, 12);
    expect(medium(items)).toBeCloseTo(2 / 3, 12);
    expect(medium(commentary)).toBeCloseTo((1 + 2 / 3 + 2 / 3) / 3, 12);
    expect(np(commentary)).toBe(1);
    expect(byDefault.notes[0]).toContain("free text items (a piece of free text that names no activity of the schedule is an item");
    expect(commentary.notes[0]).toContain("free text commentary (a piece of free text that names no activity of the schedule is left out");
    await expect(report(db, "--free-text", "comments")).rejects.toThrow("--free-text must be items or commentary, not comments");
  }, 60_000);
});
