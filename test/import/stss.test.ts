import {cliOrThrow} from "../helpers/cli.js";
import {describe, expect, it} from "vitest";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {arrayElementLines} from "../../loaders/import/json-text.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {jsonl} from "../helpers/episodes.js";
import {count, expectImportFailure, tempStore, writeFile} from "../helpers/store.js";

const TASKS = fixture("wcx21__Social-Tasks-in-Sandbox-Simulation", "environment", "data", "task_0905", "tasks.json");
const TASKS_DLC = fixture("wcx21__Social-Tasks-in-Sandbox-Simulation", "environment", "data", "task_0905", "tasks_dlc.json");
const PARTY = "base_1124_party_0"; // Isabella Rodriguez's party, 13 characters
const APPOINTMENT = "base_1124_personal_appointment_8"; // Klaus Mueller meets Mei Lin
const HELP = "base_1124_ask_for_others_17"; // buy medicine, then deliver medicine
const FIND_PARTNER = "base_1124_find_partner_11";

const report = async (db: string, ...args: string[]) =>
  JSON.parse((await cliOrThrow(["report", ...args, "--format", "json", "--db", db])).stdout);

/** A conversation run: `held` of invited, location_conveyed, time_conveyed hold at the conversation level. */
function conversation(task: string, i: number, held: number, extra: Record<string, unknown> = {}) {
  const names = ["invited", "location_conveyed", "time_conveyed"];
  return {
    task_id: task, conversation_id: `${task}-c${i}`, model: "gpt-35", architecture: "GA", performer: task === PARTY ? "Isabella Rodriguez" : "Klaus Mueller",
    partner: task === PARTY ? `Guest ${i}` : "Mei Lin", rater: "gpt-35-turbo",
    transcript: [{speaker: task === PARTY ? "Isabella Rodriguez" : "Klaus Mueller", text: "Hello!"}, {speaker: task === PARTY ? `Guest ${i}` : "Mei Lin", text: "Hi."}],
    summary: "They said hello.",
    conditions: {conversation: names.map((name, k) => ({name, verdict: k < held ? "yes" : "no"}))},
    ...extra,
  };
}

/** The hand-worked example: ten party conversations (3 succeed) and one appointment conversation (it succeeds). */
const HELD = [3, 3, 3, 2, 2, 2, 1, 1, 0, 0];
const CONVERSATIONS = [...HELD.map((h, i) => conversation(PARTY, i, h)), conversation(APPOINTMENT, 0, 3)];

async function withTasks(): Promise<Store & {dir: string}> {
  const store = await tempStore();
  await importFiles(store, "stss-tasks", [TASKS, TASKS_DLC]);
  return store;
}

const stssRows = async (store: Store) => ({
  conversations: await count(store, "SELECT count(*) FROM stss_conversations"),
  runs: await count(store, "SELECT count(*) FROM stss_runs"),
  tasks: await count(store, "SELECT count(*) FROM stss_tasks"),
});

describe("stss-tasks: where element lines are found", () => {
  it("finds the line each element of a JSON array starts on, ignoring brackets inside strings", () => {
    expect(arrayElementLines('[\n {"a": "[x, {y}]"},\n\n {"b": [1,\n 2]}, 3\n]')).toEqual([2, 4, 5]);
    expect(arrayElementLines("[]")).toEqual([]);
  });
});

describeWithFixtures("STSS import of the real task files", () => {
  it("imports the 30 task definitions and maps their six types onto the paper's five (10 / 5 / 5 / 5 / 5)", async () => {
    const store = await withTasks();
    expect(await rows(store.conn, "SELECT category, count(*)::INT AS n FROM stss_tasks GROUP BY ALL ORDER BY 1")).toEqual([
      {category: "appointment", n: 5}, {category: "asking_for_help", n: 5}, {category: "inviting_companions", n: 5},
      {category: "online_activity", n: 5}, {category: "public_activity", n: 10},
    ]);
    expect(await rows(store.conn, "SELECT source_type, count(*)::INT AS n FROM stss_tasks WHERE category = 'public_activity' GROUP BY ALL ORDER BY 1"))
      .toEqual([{source_type: "Party", n: 2}, {source_type: "Public Activity", n: 8}]);
    expect(await rows(store.conn, `SELECT performer, targets, target_num, len(characters)::INT AS chars FROM stss_tasks WHERE task_id = '${APPOINTMENT}'`))
      .toEqual([{performer: "Klaus Mueller", targets: ["Mei Lin"], target_num: 2, chars: 13}]);
    // 'N/A' times and places are stored as unknown, and the help task's two sub-tasks keep their order.
    expect(await rows(store.conn, `SELECT g.ord, g.keyword, g.start_time, g.location FROM stss_task_goals g JOIN stss_tasks t USING (episode_id) WHERE t.task_id = '${HELP}' ORDER BY g.ord`))
      .toEqual([
        {ord: 0, keyword: "buy medicine", start_time: null, location: "The Willows Market and Pharmacy"},
        {ord: 1, keyword: "deliver medicine", start_time: null, location: "Moore family's house"},
      ]);
    expect(await count(store, "SELECT count(*) FROM episodes WHERE benchmark = 'stss-task' AND NOT synthetic")).toBe(30);
    // Again: nothing changes.
    const again = await importFiles(store, "stss-tasks", [TASKS, TASKS_DLC]);
    expect(again.files.map((f) => f.status)).toEqual(["unchanged", "unchanged"]);
    expect(await count(store, "SELECT count(*) FROM stss_task_goals")).toBe(35); // 25 one-goal tasks, 5 two-goal help tasks
  });

  it("reports Table 3 with micro ≠ macro for a task with ten conversations and one with one", async () => {
    const store = await withTasks();
    await importFiles(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl(CONVERSATIONS))]);
    expect(await count(store, "SELECT count(*) FROM messages WHERE action_type = 'summary' AND agent = 2")).toBe(11);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const t3 = await report(db, "stss");
    const [row] = t3.rows;
    expect(row).toMatchObject({model: "gpt-35", architecture: "GA", conversations: 11, tasks: 2, judged_conversation: 11, judged_summary: 0});
    expect(row.conversation_sr_micro).toBeCloseTo(4 / 11, 12);
    expect(row.conversation_sr_macro).toBeCloseTo(0.65, 12);
    expect(row.conversation_gcsr_micro).toBeCloseTo((17 / 3 + 1) / 11, 12);
    expect(row.conversation_gcsr_macro).toBeCloseTo((17 / 30 + 1) / 2, 12);
    expect(row.summary_sr_micro).toBeNull(); // not judged at that level: n/a, not 0
    expect(t3.notes[0]).toContain("condition rater: gpt-35-turbo");
    const byTask = await report(db, "stss", "--by", "task");
    expect(byTask.rows.map((r: {task_id: string; conversations: number; sr: number; most_failed: string}) => [r.task_id, r.conversations, r.sr, r.most_failed])).toEqual([
      [PARTY, 10, 0.3, "time_conveyed (7/10)"], [APPOINTMENT, 1, 1, ""],
    ]);
    const byType = await report(db, "stss", "--by", "type");
    expect(byType.rows[0]).toMatchObject({type: "public_activity", condition: "time_conveyed", judged: 10, failed: 7, fail_rate: 0.7});
    // 7 of 10: the 95% Wilson interval is 0.396778–0.892209; the appointment's one conversation is under the default minimum n of 5.
    expect(byType.rows[0].low).toBeCloseTo(0.396778, 6);
    expect(byType.rows[0].high).toBeCloseTo(0.892209, 6);
    expect(byType.rows.every((r: {type: string}) => r.type === "public_activity")).toBe(true);
    expect(byType.notes.at(-2)).toBe("lower-bound: by the lower end of the fail rate's 95% Wilson interval (small n ranks lower)");
    expect(byType.notes.at(-1)).toMatch(/^Order \(--order\): lower-bound \(default\); ties: .* Minimum judged \(--min-n\): 5 \(default\); 3 condition row\(s\) judged by fewer conversations left out\.$/);
    const everyRow = await report(db, "stss", "--by", "type", "--min-n", "1", "--order", "rate");
    expect(everyRow.rows.filter((r: {type: string}) => r.type === "appointment")).toHaveLength(3);
    expect(everyRow.notes.at(-1)).toContain("0 condition row(s) judged by fewer conversations left out");
  }, 60_000);

  it("lets a judge add verdicts by its own name to conversations already imported, and reports them with --rater", async () => {
    const store = await withTasks();
    await importFiles(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl(CONVERSATIONS.map((c) => ({...c, conditions: undefined}))))]);
    // What an `stss-conditions` judge writes: one ratings row per (conversation, level:condition).
    const ids = (await rows<{episode_id: string}>(store.conn, "SELECT episode_id FROM stss_conversations ORDER BY conversation_id")).map((r) => r.episode_id);
    for (const [i, id] of ids.entries()) {
      for (const cond of ["invited", "time_conveyed"]) {
        await store.conn.run("INSERT INTO ratings VALUES ($1, 1, $2, 'judge-x', 'llm', $3, NULL, '', 'judge-run')", [id, `summary:${cond}`, cond === "invited" || i % 2 === 0 ? 1 : 0]);
      }
    }
    const db = join(store.dir, "test.duckdb");
    store.close();
    const [row] = (await report(db, "stss", "--rater", "judge-x")).rows;
    expect(row).toMatchObject({judged_conversation: 0, judged_summary: 11});
    // Sorted by conversation id, the appointment's is first (i = 0, success); party c0..c9 are i = 1..10, odd ones fail.
    expect(row.summary_sr_micro).toBeCloseTo(6 / 11, 12);
    expect(row.summary_sr_macro).toBeCloseTo((5 / 10 + 1) / 2, 12);
  }, 60_000);

  it("scores simulation runs from their outcomes (Appendix A.1) and lists a logged score that disagrees", async () => {
    const store = await withTasks();
    const base = {model: "gpt-4", architecture: "GA + TDP"};
    await importFiles(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([
      // 12 background characters: 6 expected; 5 came. The log divided by 5 and says 1.
      {...base, task_id: PARTY, background_characters: 12, participants: ["Tom Moreno", "Arthur Burton", "Ayesha Khan", "Mei Lin", "Jane Moreno"],
        conversations_initiated: 8, conversations_demanded: 6, score: 1},
      {...base, task_id: APPOINTMENT, background_characters: 12, appointment: "place_mismatch", conversations_initiated: 1, conversations_demanded: 1, score: 0.5},
      {...base, task_id: HELP, background_characters: 11, subtasks_done: ["deliver medicine", "buy medicine"], conversations_initiated: 2, conversations_demanded: 1},
      {...base, task_id: FIND_PARTNER, background_characters: 11, participants: 2, performer_attended: true, conversations_initiated: 2, conversations_demanded: 4},
    ]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const t4 = await report(db, "stss-action");
    const [row] = t4.rows;
    expect(row).toMatchObject({model: "gpt-4", architecture: "GA+TDP", appo: 0.5, help: 0.5, inv_com: 0.5, online_act: null, tasks: 4, runs: 4});
    expect(row.pub_act).toBeCloseTo(5 / 6, 12);
    expect(row.overall).toBeCloseTo((5 / 6 + 0.5 + 0.5 + 0.5) / 4, 12);
    expect(row.conv_ratio).toBeCloseTo((8 / 6 + 1 + 2 / 4) / 3, 12); // the help task is left out
    expect(t4.notes.join("\n")).toContain(`2 run(s) carry one; 1 disagree with the rule by more than 0.0005: ${PARTY} (gpt-4, GA+TDP) logged 1 by log, rule 0.833`);
    expect(row).toMatchObject({conv_tasks: 3, no_conv_counts: 0});
    const perRun = await report(db, "stss-action", "--by", "task");
    expect(perRun.rows.map((r: {task_id: string; agrees: string}) => [r.task_id, r.agrees])).toEqual([
      [HELP, ""], [FIND_PARTNER, ""], [PARTY, "NO (log)"], [APPOINTMENT, "yes"],
    ]);
    const pooled = await report(db, "stss-action", "--conv-ratio", "pooled");
    expect(pooled.rows[0].conv_ratio).toBeCloseTo(11 / 11, 12);
  }, 60_000);
});

describeWithFixtures("STSS bad input: clear errors, nothing half-imported", () => {
  it("rejects a verdict that is not yes or no, naming file, line and field", async () => {
    const store = await withTasks();
    const before = await stssRows(store);
    const bad = [conversation(PARTY, 0, 3), conversation(PARTY, 1, 2, {conditions: {conversation: [{name: "invited", verdict: "yes"}, {name: "time_conveyed", verdict: "maybe"}]}})];
    const e = await expectImportFailure(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl(bad))]);
    expect(e.line).toBe(2);
    expect(e.field).toBe("conditions.conversation[1].verdict");
    expect(e.message).toMatch(/c\.jsonl:2: conditions\.conversation\[1\]\.verdict: expected "yes" or "no", got string "maybe"/);
    expect(await stssRows(store)).toEqual(before);
  });

  it("rejects results for a task with no definition", async () => {
    const store = await withTasks();
    const e = await expectImportFailure(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl([conversation(PARTY, 0, 3), conversation("base_9999_party_9", 1, 3)]))]);
    expect([e.line, e.field]).toEqual([2, "task_id"]);
    expect(e.problem).toContain('task "base_9999_party_9" has no task definition');
    const a = await expectImportFailure(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([{task_id: "nope", model: "m", architecture: "GA", background_characters: 10, participants: 1}]))]);
    expect([a.line, a.field]).toEqual([1, "task_id"]);
  });

  it("keeps a runner's tag, settings and goal conditions listed without verdicts; a bad condition name is refused with line and field", async () => {
    const store = await withTasks();
    const run = {tag: "run:r9", settings: {runner: "stss", ended: "leave", architecture: "overridden"},
      goal_conditions: [{name: "invited", label: "the partner is invited"}, {name: "time_conveyed"}]};
    const {conditions: _, ...unjudged} = conversation(PARTY, 0, 3, run);
    await importFiles(store, "stss", [writeFile(store.dir, "ok.jsonl", jsonl([unjudged]))]);
    const [e] = await rows<{tag: string; settings: string}>(store.conn, "SELECT tag, settings::VARCHAR AS settings FROM episodes WHERE benchmark = 'stss'");
    expect(e!.tag).toBe("run:r9");
    expect(JSON.parse(e!.settings)).toEqual({runner: "stss", ended: "leave", architecture: "GA", stss_record: "conversation",
      goal_conditions: [{name: "invited", label: "the partner is invited"}, {name: "time_conveyed", label: null}]});
    expect(await count(store, "SELECT count(*) FROM ratings")).toBe(0);
    const bad = conversation(PARTY, 1, 3, {goal_conditions: [{name: "invited"}, {name: "Time conveyed"}]});
    const err = await expectImportFailure(store, "stss", [writeFile(store.dir, "bad.jsonl", jsonl([conversation(PARTY, 2, 3), bad]))]);
    expect([err.line, err.field]).toEqual([2, "goal_conditions[1].name"]);
    expect(err.problem).toBe(`"Time conveyed" is not a condition name (lower-case letters, digits and _ , starting with a letter)`);
  });

  it("rejects negative counts and impossible ones", async () => {
    const store = await withTasks();
    const run = (extra: Record<string, unknown>) => ({task_id: PARTY, model: "m", architecture: "GA", background_characters: 12, participants: 3, ...extra});
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [run({participants: -1}), "participants", /negative/],
      [run({background_characters: -12}), "background_characters", /negative/],
      [run({conversations_initiated: -2}), "conversations_initiated", /negative/],
      [run({participants: 13}), "participants", /only 12 background characters/],
      [run({participants: 2.5}), "participants", /whole number/],
      [run({architecture: "TDP"}), "architecture", /GA or GA\+TDP/],
      [run({score: 1.5}), "score", /outside \[0, 1\]/],
    ];
    for (const [record, field, problem] of cases) {
      const e = await expectImportFailure(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([run({}), record]))]);
      expect([e.line, e.field], field).toEqual([2, field]);
      expect(e.problem).toMatch(problem);
    }
    expect(await stssRows(store)).toEqual({conversations: 0, runs: 0, tasks: 30});
  });

  it("rejects an outcome that does not fit the task's type, after reading, with its line", async () => {
    const store = await withTasks();
    const ok = {task_id: PARTY, model: "m", architecture: "GA", background_characters: 12, participants: 3};
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{...ok, task_id: APPOINTMENT, appointment: "met"}, "participants", /only collective tasks/],
      [{...ok, participants: undefined}, "participants", /scored by its participants/],
      [{...ok, appointment: "met"}, "appointment", /only appointment tasks have an appointment outcome; this is a public activity task/],
      [{...ok, task_id: APPOINTMENT, participants: undefined}, "appointment", /met, place_mismatch or failed/],
      [{...ok, task_id: HELP, background_characters: 11, participants: undefined, subtasks_done: ["buy medicine", "fly a kite"]}, "subtasks_done", /unknown sub-task\(s\) \["fly a kite"\]/],
      [{...ok, participants: ["Isabella Rodriguez"]}, "participants", /lists the performer/],
    ];
    for (const [record, field, problem] of cases) {
      // A second run of a task is told apart by its run label.
      const e = await expectImportFailure(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([ok, {...record, run: "2"}]))]);
      expect([e.line, e.field], field).toEqual([2, field]);
      expect(e.problem).toMatch(problem);
    }
    expect(await stssRows(store)).toEqual({conversations: 0, runs: 0, tasks: 30});
  });

  it("rejects an unknown task type and a task file that is not an array", async () => {
    const store = await tempStore();
    const e = await expectImportFailure(store, "stss-tasks", [writeFile(store.dir, "t.json", '[\n  {"task_type": "Picnic", "env_name": "x", "performer": "A", "task": {"goal": []}}\n]\n')]);
    expect([e.line, e.field]).toEqual([2, "[0].task_type"]);
    expect(e.problem).toContain("Public Activity, Party, Personal appointment, Find partner, Online meeting, Ask for others");
    const o = await expectImportFailure(store, "stss-tasks", [writeFile(store.dir, "o.json", '{"task_type": "Party"}')]);
    expect(o.problem).toMatch(/expected a JSON array/);
    expect(await count(store, "SELECT count(*) FROM stss_tasks")).toBe(0);
  });
});

describeWithFixtures("STSS review fixes: verdict sets, partners, options", () => {
  /** What a judge run writes: one ratings row per (conversation, level:condition), rater = its model, run_id = its run. */
  async function judgeRun(store: Store, rater: string, runId: string, level: string, verdict: (i: number, condition: string) => number) {
    const ids = (await rows<{episode_id: string}>(store.conn, "SELECT episode_id FROM stss_conversations ORDER BY conversation_id")).map((r) => r.episode_id);
    for (const [i, id] of ids.entries()) {
      for (const cond of ["invited", "location_conveyed", "time_conveyed"]) {
        await store.conn.run("INSERT INTO ratings VALUES ($1, 1, $2, $3, 'llm', $4, NULL, $5, 'judge-run')", [id, `${level}:${cond}`, rater, verdict(i, cond), runId]);
      }
    }
  }

  it("keeps a second judging run under the same rater apart from the imported verdicts (H1)", async () => {
    const store = await withTasks();
    await importFiles(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl(CONVERSATIONS))]);
    // The judge, run again under the imported rater's name, finds every condition met.
    await judgeRun(store, "gpt-35-turbo", "stss-conditions-gpt-35-turbo-0badc0de", "conversation", () => 1);
    const db = join(store.dir, "test.duckdb");
    store.close();
    // 33 verdicts each: the tie goes to the imported ones, which alone give the hand-worked numbers.
    const t3 = await report(db, "stss");
    expect(t3.rows[0]).toMatchObject({conversations: 11, judged_conversation: 11});
    expect(t3.rows[0].conversation_sr_micro).toBeCloseTo(4 / 11, 12);
    expect(t3.rows[0].conversation_gcsr_micro).toBeCloseTo((17 / 3 + 1) / 11, 12); // 0.6061; merged with the rerun it would read 0.8030
    expect(t3.notes[0]).toBe("condition rater: gpt-35-turbo; run: imported (the rater and run with the most verdicts; choose with --rater and --run-id); only this one set of verdicts is combined into the numbers");
    expect(t3.notes[1]).toBe("other verdict sets, not used: gpt-35-turbo · stss-conditions-gpt-35-turbo-0badc0de (33 verdicts)");
    const rerun = await report(db, "stss", "--rater", "gpt-35-turbo", "--run-id", "stss-conditions-gpt-35-turbo-0badc0de");
    expect(rerun.rows[0]).toMatchObject({judged_conversation: 11, conversation_sr_micro: 1, conversation_gcsr_macro: 1});
    expect(rerun.notes[0]).toContain("run: stss-conditions-gpt-35-turbo-0badc0de; only this one");
    expect((await report(db, "stss", "--run-id", "imported")).rows[0].conversation_sr_micro).toBeCloseTo(4 / 11, 12);
    // Per type, the party's ten conversations are judged ten times, not twenty.
    const byType = await report(db, "stss", "--by", "type");
    expect(byType.rows[0]).toMatchObject({type: "public_activity", condition: "time_conveyed", conversations: 10, judged: 10, failed: 7});
    await expect(report(db, "stss", "--run-id", "nope")).rejects.toThrow(/no STSS goal-condition verdicts by run "nope"; verdict sets \(rater · run\): gpt-35-turbo · imported, gpt-35-turbo · stss-conditions/);
  }, 60_000);

  it("leaves appointment conversations with someone other than the target out by default, and counts them (§3.2)", async () => {
    const store = await withTasks();
    // Klaus Mueller's appointment is with Mei Lin; a conversation with Tom Moreno (every condition held) is not part of the benchmark.
    const other = {...conversation(APPOINTMENT, 1, 3), partner: "Tom Moreno",
      transcript: [{speaker: "Klaus Mueller", text: "Hello!"}, {speaker: "Tom Moreno", text: "Hi."}]};
    const failedTarget = conversation(APPOINTMENT, 0, 0); // with Mei Lin, nothing held
    await importFiles(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl([failedTarget, other]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const t3 = await report(db, "stss");
    expect(t3.rows[0]).toMatchObject({conversations: 1, judged_conversation: 1, conversation_sr_micro: 0, conversation_gcsr_micro: 0});
    expect(t3.notes).toContain("appointment partners (--appointment-partners): target (default; STSS §3.2 counts only conversations between the performer and the target person): 1 appointment conversation(s) with someone else left out");
    const all = await report(db, "stss", "--appointment-partners", "all");
    expect(all.rows[0]).toMatchObject({conversations: 2, judged_conversation: 2, conversation_sr_micro: 0.5, conversation_gcsr_macro: 0.5});
  }, 60_000);

  it("warns when one verdict set judged a task's conversations on different condition lists, and rejects an empty list", async () => {
    const store = await withTasks();
    const fewer = conversation(PARTY, 1, 1, {conditions: {conversation: [{name: "invited", verdict: "yes"}]}});
    const e = await expectImportFailure(store, "stss", [writeFile(store.dir, "e.jsonl", jsonl([conversation(PARTY, 0, 2), conversation(PARTY, 2, 2, {conditions: {conversation: []}})]))]);
    expect([e.line, e.field]).toEqual([2, "conditions.conversation"]);
    expect(e.problem).toMatch(/empty list/);
    await importFiles(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl([conversation(PARTY, 0, 2), fewer]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const t3 = await report(db, "stss");
    expect(t3.rows[0].conversation_sr_micro).toBe(0.5);
    expect(t3.notes.find((n: string) => n.startsWith("warning"))).toBe(
      `warning: condition names differ within 1 task(s), so SR is not comparable between those conversations: ${PARTY} (conversation level): [invited] in 1 vs [invited, location_conveyed, time_conveyed] in 1`); // a tie: shorter list first
  }, 60_000);

  it("refuses options the report does not use", async () => {
    const store = await withTasks();
    await importFiles(store, "stss", [writeFile(store.dir, "c.jsonl", jsonl(CONVERSATIONS))]);
    await importFiles(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([{model: "m", architecture: "GA", task_id: APPOINTMENT, background_characters: 12, appointment: "met"}]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const cases: [string[], RegExp][] = [
      [["stss-action", "--rater", "x"], /report stss-action does not use --rater/],
      [["stss-action", "--level", "summary"], /does not use --level/],
      [["stss-action", "--by", "type"], /--by task/],
      [["stss-action", "--run-id", "imported"], /does not use --run-id/],
      [["stss", "--conv-ratio", "pooled"], /report stss does not use --conv-ratio/],
      [["stss", "--help-order", "first", "--initiator", "ignored"], /report stss does not use --help-order, --initiator/],
      [["stss", "--level", "summary"], /--level chooses the level of a --by task\|type drill-down/],
      [["stss", "--rater", "a", "--rater", "b"], /give --rater once/],
      [["stss", "--appointment-partners", "some"], /--appointment-partners must be target or all, not some/],
      [["stss-action", "--help-order", "any"], /--help-order must be subsequence or first/],
      [["stss", "--order", "rate"], /report stss does not use --order: they filter and order the failing conditions of --by type/],
      [["stss", "--by", "task", "--min-n", "3"], /report stss does not use --min-n/],
      [["stss", "--by", "type", "--order", "worst"], /--order must be lower-bound or rate or count, not worst/],
      [["stss", "--by", "type", "--min-n", "0"], /--min-n must be a whole number ≥ 1, not 0/],
      [["stss-action", "--min-n", "2"], /report stss-action does not use --min-n/],
    ];
    for (const [args, message] of cases) await expect(report(db, ...args), args.join(" ")).rejects.toThrow(message);
  }, 120_000);
});

describeWithFixtures("STSS review fixes: simulation input checked against the task", () => {
  const ok = {task_id: PARTY, model: "m", architecture: "GA", background_characters: 12, participants: 3};

  it("rejects background characters and participants that do not fit the task's characters, and inviting companions without the initiator's attendance (M4a, M4b)", async () => {
    const store = await withTasks();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      // 13 characters: the performer and 12 background characters; 40 would score 2 of ⌈40/2⌉ = 0.1 instead of 2 of 6.
      [{...ok, background_characters: 40, participants: 2}, "background_characters",
        /is 40, but task "base_1124_party_0" has 13 characters: the performer and 12 background characters/],
      [{...ok, participants: ["Tom Moreno", "Nobody Real", "Ghost"]}, "participants", /lists \["Nobody Real","Ghost"\], not among the characters \(all_chars\) of task "base_1124_party_0"/],
      [{...ok, task_id: FIND_PARTNER, background_characters: 11, participants: 4}, "performer_attended", /needs performer_attended/],
      [{...ok, task_id: HELP, background_characters: 12, participants: undefined, subtasks_done: []}, "background_characters", /has 12 characters: the performer and 11/],
    ];
    for (const [record, field, problem] of cases) {
      const e = await expectImportFailure(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([ok, {...record, run: "2"}]))]);
      expect([e.line, e.field], field).toEqual([2, field]);
      expect(e.problem).toMatch(problem);
    }
    expect(await stssRows(store)).toEqual({conversations: 0, runs: 0, tasks: 30});
  });

  it("rejects conversations initiated against none demanded, or one count without the other, and shows the tasks the ratio covers (M4c)", async () => {
    const store = await withTasks();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{...ok, conversations_initiated: 2, conversations_demanded: 0}, "conversations_demanded", /is 0 while 2 conversation\(s\) were initiated/],
      [{...ok, conversations_initiated: 2}, "conversations_demanded", /is missing while conversations_initiated is given/],
      [{...ok, conversations_demanded: 3}, "conversations_initiated", /is missing while conversations_demanded is given/],
    ];
    for (const [record, field, problem] of cases) {
      const e = await expectImportFailure(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([record]))]);
      expect([e.line, e.field], field).toEqual([1, field]);
      expect(e.problem).toMatch(problem);
    }
    // A ratio of 5/6 for the party; the appointment gives no counts and the online meeting demands none: both left out, and counted.
    await importFiles(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([
      {...ok, conversations_initiated: 5, conversations_demanded: 6},
      {...ok, participants: undefined, task_id: APPOINTMENT, appointment: "met"},
      {...ok, task_id: "base_1124_online_meeting_14", background_characters: 11, participants: 1, conversations_initiated: 0, conversations_demanded: 0},
    ]))]);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const [row] = (await report(db, "stss-action")).rows;
    expect(row).toMatchObject({conv_tasks: 1, no_conv_counts: 2, tasks: 3});
    expect(row.conv_ratio).toBeCloseTo(5 / 6, 12);
  }, 60_000);

  it("scores with the named help-order and initiator rules, and lists every logged score of a run (Low 1, M4b, Low 5)", async () => {
    const store = await withTasks();
    await importFiles(store, "stss-action", [writeFile(store.dir, "a.jsonl", jsonl([
      {model: "m", architecture: "GA", task_id: HELP, background_characters: 11, subtasks_done: ["deliver medicine", "buy medicine", "deliver medicine"]},
      // ⌈11/3⌉ = 4 expected, 2 came, but the initiator stayed home.
      {model: "m", architecture: "GA", task_id: FIND_PARTNER, background_characters: 11, participants: 2, performer_attended: false},
      {model: "m", architecture: "GA", task_id: APPOINTMENT, background_characters: 12, appointment: "place_mismatch", score: 0.5},
    ]))]);
    // A second scorer's log for the appointment says 0.
    await store.conn.run(`INSERT INTO ratings SELECT episode_id, 1, 'task_score', 'other-log', 'rule', 0, NULL, '', 'x' FROM stss_runs WHERE task_id = '${APPOINTMENT}'`);
    const db = join(store.dir, "test.duckdb");
    store.close();
    const byDefault = await report(db, "stss-action");
    expect(byDefault.rows[0]).toMatchObject({help: 1, inv_com: 0, appo: 0.5});
    expect(byDefault.notes[0]).toContain("Initiator rule (--initiator): mandatory (default), an inviting-companions run whose initiator did not attend scores 0");
    expect(byDefault.notes[0]).toContain("Help order (--help-order): subsequence (default)");
    const other = await report(db, "stss-action", "--help-order", "first", "--initiator", "ignored");
    expect(other.rows[0]).toMatchObject({help: 0.5, inv_com: 0.5, appo: 0.5});
    expect(other.rows[0].overall).toBeCloseTo(0.5, 12);
    const perRun = await report(db, "stss-action", "--by", "task");
    expect(perRun.rows.map((r: Record<string, unknown>) => [r.task_id, r.score, r.rule, r.logged, r.agrees])).toEqual([
      [HELP, 1, "2 of 2 sub-tasks done, in order", "", ""],
      [FIND_PARTNER, 0, "the initiator did not attend (initiator rule: mandatory, §3.1)", "", ""],
      [APPOINTMENT, 0.5, "appointment place_mismatch", "0.5 (log); 0 (other-log)", "NO (other-log)"],
    ]);
  }, 60_000);
});
