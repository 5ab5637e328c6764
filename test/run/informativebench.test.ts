// `sociometer run informativebench` end to end: Schedule questions imported,
// played by a scripted model that follows the protocol (InfoNav plans, plan
// updates, consensus, answer), the log written and imported, and the three
// InformativeBench reports showing the run at values worked out by hand; bad
// answers retried then recorded as failed; input errors; the dry run; and a
// run through the real client against the local server, killed and resumed.

import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import type {Chat, ChatMessage, ChatRequest} from "../../loaders/run/chat.js";
import {runCommand} from "../../loaders/cli/run.js";
import {getReport} from "../../loaders/cli/reports.js";
import {checkConsensus, checkPlan, checkTurn, isFakeSolved, refuses} from "../../loaders/run/episodes/informativebench.js";
import {questionFromSchedule} from "../../loaders/run/episodes/informativebench-questions.js";
import {importFiles} from "../../loaders/import/session.js";
import {openStore} from "../../loaders/store/db.js";
import {startOpenAIServer, type OpenAIServer} from "../helpers/openai-server.js";
import {tempDir} from "../helpers/store.js";
import {fakeKey} from "../helpers/fake-key.js";
import {inspect, sociometer, until} from "./child.js";
import {personOf, protocol, userOf} from "../helpers/informativebench-model.js";

const KEY = fakeKey("proj-ib-run-NEVER-STORE-4c1d2e");

/**
 * Easy (Alice, Bob): Gym 9–10, Run 9:30–10:30, Lunch 12–13, Nap 14–15 pooled: keep Gym, Lunch, Nap, delete 1.
 * Medium (Ann, Ben | Cat): Yoga and Chess both 2 h, Sleep fixed: gold "Yoga, Chess".
 * Hard (Ann, Ben | Cat), day 8–12: busy 8–9, 9:30–10, 11–12: free 9:00–9:30 and 10:00–11:00.
 */
const SCHEDULES = [
  {dataset: "ScheduleEasy", question_id: "e1", people: [
    {name: "Alice", activities: [{name: "Gym", time: "9:00-10:00"}, {name: "Lunch", time: "12:00-13:00"}]},
    {name: "Bob", activities: [{name: "Run", time: "9:30-10:30"}, {name: "Nap", time: "14:00-15:00"}]}]},
  {dataset: "ScheduleMedium", question_id: "m1", people: [
    {name: "Ann", activities: [{name: "Yoga", time: "9:00-11:00"}, {name: "Sleep", time: "0:00-8:00"}]},
    {name: "Ben", activities: [{name: "Chess", time: "13:00-15:00"}]},
    {name: "Cat", activities: [{name: "Walk", time: "15:00-15:30"}]}]},
  {dataset: "ScheduleHard", question_id: "h1", day: "8:00-12:00", people: [
    {name: "Ann", activities: [{name: "Swim", time: "8:00-9:00"}]},
    {name: "Ben", activities: [{name: "Call", time: "9:30-10:00"}]},
    {name: "Cat", activities: [{name: "Class", time: "11:00-12:00"}]}]},
];

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

function fakeChat(answer: (messages: ChatMessage[]) => string = protocol): {chat: Chat; requests: ChatRequest[]} {
  const requests: ChatRequest[] = [];
  return {requests, chat: async (r) => {
    requests.push(r);
    return {text: answer(r.messages), promptTokens: 1, completionTokens: 1, cached: false};
  }};
}

async function run(argv: string[], chat?: Chat) {
  let stdout = "", stderr = "";
  const code = await runCommand(["informativebench", ...argv, "--quiet"], {chat, out: (t) => (stdout += t), err: (t) => (stderr += t)});
  return {code, stdout, stderr};
}

async function storeWithSchedules(dir: string): Promise<string> {
  const db = join(dir, "ib.duckdb");
  const file = join(dir, "schedules.jsonl");
  writeFileSync(file, jsonl(SCHEDULES));
  const store = await openStore(db);
  try {
    await importFiles(store, "informativebench-schedules", [file]);
  } finally {
    store.close();
  }
  return db;
}

async function report(db: string, name: string, ib: Record<string, string> = {}) {
  const store = await openStore(db);
  try {
    return await getReport(name).run(store, {ib});
  } finally {
    store.close();
  }
}

const readLog = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("run informativebench: a scripted model through the protocol, the log, the import and the reports", () => {
  it("plays the three Schedule questions with InfoNav and without, and the reports show both runs at hand-computed values", async () => {
    const dir = tempDir();
    const db = await storeWithSchedules(dir);
    const out = join(dir, "on.jsonl");
    const {chat, requests} = fakeChat();
    const on = await run(["--model", "m", "--db", db, "--out", out], chat);
    expect(on.code, on.stderr).toBe(0);
    // Per question: 2 plans, 2 messages each followed by 2 plan updates, the consensus, the answer.
    expect(requests).toHaveLength(3 * (2 + 2 + 4 + 1 + 1));
    expect(requests.every((r) => r.temperature === 0.2 && r.model === "m" && /^informativebench-(plan|update|turn|consensus|answer)@[0-9a-f]{12}$/.test(r.template!))).toBe(true);
    expect(on.stdout).toContain("import (informativebench): imported, 3 episode(s)");

    const log = readLog(out);
    expect(log.map((r) => [r.dataset, r.question_id, r.prediction, r.gold, r.turns])).toEqual([
      ["ScheduleEasy", "e1", "1", ["1"], 2], ["ScheduleHard", "h1", "9:00-9:30", ["9:00-9:30, 10:00-11:00"], 2], ["ScheduleMedium", "m1", "Yoga", ["Yoga, Chess"], 2],
    ]);
    const hard = log[1];
    expect(hard.settings).toEqual({infonav: true, memory: [], recursive: false});
    expect(hard.runner.people).toEqual(["Ann and Ben", "Cat"]);
    expect(hard.trajectory[1].agent).toBe("agent 2 (Cat)");
    expect(hard.trajectory[1].updates.map((u: {status: string}[]) => u.map((r) => r.status))).toEqual([
      ["unknown", "unknown", "unknown"], ["unknown", "known", "unknown"], ["known", "known", "fake_solved"],
    ]);
    expect(hard.trajectory[1].consensus).toEqual({kept: ["day of Cat", "day of the other side"], dropped: ["the answer"]});
    expect(hard.conversation).toEqual([{turn: 0, agent: 1, content: "Ann and Ben here, with my day."}, {turn: 1, agent: 2, content: "Cat here, with my day."}]);
    // Agent 2 sees Cat's day only; agent 1 sees Ann's and Ben's.
    const firstPlans = requests.filter((r) => r.template!.startsWith("informativebench-plan") && userOf(r.messages).includes("all free"));
    expect(firstPlans.map((r) => personOf(userOf(r.messages)))).toEqual(["Ann and Ben", "Cat"]);
    expect(userOf(firstPlans[1]!.messages)).toContain("- Class: 11:00-12:00");
    expect(userOf(firstPlans[1]!.messages)).not.toContain("Swim");

    const off = await run(["--model", "m", "--db", db, "--out", join(dir, "off.jsonl"), "--no-infonav"], fakeChat().chat);
    expect(off.code, off.stderr).toBe(0);
    const offLog = readLog(join(dir, "off.jsonl"));
    expect(offLog.map((r) => [r.question_id, r.prediction, r.trajectory, r.settings.infonav])).toEqual([["e1", "2", null, false], ["h1", "9:00-9:30", null, false], ["m1", "Yoga", null, false]]);

    // Table 3 takes each dataset's base combination (a one-to-one tie goes to the paper's, InfoNav on).
    const t3 = await report(db, "informativebench");
    const cell = (d: string) => t3.rows.find((r) => r.dataset === d)!;
    expect(t3.rows).toHaveLength(3);
    expect(cell("ScheduleEasy")).toMatchObject({model: "m", n: 1, value: 1});
    expect(cell("ScheduleMedium").value).toBeCloseTo(2 / 3, 12);
    expect(cell("ScheduleHard").value).toBeCloseTo(1 / 3, 12);
    expect(t3.notes.join("\n")).toContain("gold answers checked by the schedule verifier: 3 of 3 agree");

    const abl = await report(db, "informativebench-ablations");
    expect(abl.rows.map((r) => [r.dataset, r.variant, r.paired, r.base, r.ablated, r.delta])).toEqual([
      ["ScheduleEasy", "InfoNav off", 1, 1, 0, -1], ["ScheduleMedium", "InfoNav off", 1, 2 / 3, 2 / 3, 0], ["ScheduleHard", "InfoNav off", 1, 1 / 3, 1 / 3, 0],
    ]);

    // Each plan: 3 facts; updates 1 and 2 solve one each (the fake-solved one does not count); 2 of 3 kept.
    const nav = await report(db, "infonav");
    expect(nav.rows.map((r) => [r.sample, r.questions, r.plans])).toEqual([["right", 1, 2], ["wrong", 2, 4], ["all", 3, 6]]);
    const all = nav.rows[2]!;
    expect(all).toMatchObject({rationales: 3, solved_per_update: 1});
    expect(all.solved_ratio).toBeCloseTo(2 / 3, 12);
    expect(all.fake_ratio).toBeCloseTo(1 / 3, 12);
    expect(all.consensus_ratio).toBeCloseTo(2 / 3, 12);

    // The same command again asks the same requests (a real client answers them from its cache) and replaces nothing.
    const again = await run(["--model", "m", "--db", db, "--out", out], fakeChat().chat);
    expect(again.stdout).toContain("import: unchanged");
  });

  it("a model that answers badly (an empty plan, empty messages, a refusal) is re-asked, then its question is recorded as failed", async () => {
    const dir = tempDir();
    const input = join(dir, "questions.jsonl");
    const question = (id: string, q: string) => ({dataset: "NP", question_id: id, question: q, gold: "Oslo",
      people: [{name: "Dana", information: "Dana lives in Oslo."}, {name: "Eli", information: "Eli likes maps."}]});
    writeFileSync(input, jsonl([question("bad-plan", "Where does Dana live? (plan)"), question("empty", "Where does Dana live? (empty)"), question("refuse", "Where does Dana live? (refuse)")]));
    const bad = (messages: ChatMessage[]) => {
      const user = userOf(messages);
      if (user.includes("(plan)") && user.includes("Before the conversation") && personOf(user) === "Eli") return JSON.stringify({rationales: []});
      if (user.includes("(empty)") && /It is message \d+ of/.test(user)) return JSON.stringify({message: "   ", finished: false});
      if (user.includes("(refuse)") && user.includes("Answer the question as briefly")) return "I'm sorry, but I can't help with that.";
      return protocol(messages);
    };
    const {chat, requests} = fakeChat(bad);
    const out = join(dir, "run.jsonl");
    const r = await run(["--model", "m", "--input", input, "--db", join(dir, "s.duckdb"), "--out", out], chat);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("3 question(s) failed (no usable answer after 3 attempt(s)), recorded without a prediction");
    const log = readLog(out);
    expect(log.map((x) => [x.question_id, x.prediction, x.failure.step, x.failure.agent, x.failure.turn, x.failure.attempts.length, x.trajectory, x.runner.ended])).toEqual([
      ["bad-plan", null, "plan", 2, null, 3, null, "failed"], ["empty", null, "turn", 1, 0, 3, null, "failed"], ["refuse", null, "answer", 1, null, 3, null, "failed"],
    ]);
    expect(log[0].failure.attempts[0].problem).toBe(`"rationales" is empty: list at least one fact you need`);
    expect(log[1].failure.attempts[2].problem).toBe(`"message" is empty: write what you say to the other assistant`);
    expect(log[2].failure.attempts[1]).toEqual({answer: "I'm sorry, but I can't help with that.", problem: "it declines to answer; give the answer"});
    // bad-plan: Dana's plan + 3 of Eli's; empty: 2 plans + 3 turns; refuse: 2 plans, 2 turns, 4 updates, consensus, 3 answers.
    expect(requests).toHaveLength(4 + 5 + 12);
    // The re-ask tells the model what was wrong.
    const reask = requests.find((q) => q.messages.length === 4)!;
    expect(reask.messages[3]!.content).toBe(`That answer could not be used: "rationales" is empty: list at least one fact you need. Answer again with only the JSON object described above.`);
    const t3 = await report(join(dir, "s.duckdb"), "informativebench");
    expect(t3.rows).toEqual([expect.objectContaining({dataset: "NP", n: 3, value: 0, problems: 3})]);
  });

  it("--partner-model plays agent 2; the record names both models, and agent 1 makes the consensus and the answer", async () => {
    const dir = tempDir();
    const db = await storeWithSchedules(dir);
    const {chat, requests} = fakeChat();
    const out = join(dir, "pair.jsonl");
    const r = await run(["--model", "alpha", "--partner-model", "beta", "--db", db, "--out", out, "--limit", "1", "--no-import"], chat);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("import");
    const byStep = (model: string) => requests.filter((q) => q.model === model).map((q) => q.template!.replace(/^informativebench-|@.*$/g, ""));
    expect(byStep("alpha")).toEqual(["plan", "turn", "update", "update", "consensus", "answer"]);
    expect(byStep("beta")).toEqual(["plan", "update", "turn", "update"]);
    expect(readLog(out).map((x) => [x.question_id, x.model, x.runner.models])).toEqual([["e1", "alpha + beta", ["alpha", "beta"]]]);
  });

  it("an input file is checked: the file, line and field of the first bad record", async () => {
    const dir = tempDir();
    const input = join(dir, "q.jsonl");
    const ok = {dataset: "NP", question_id: "q1", question: "Who?", gold: "Dana", people: [{name: "Dana", information: "I am Dana."}, {name: "Eli", information: "I am Eli."}]};
    const cases: [unknown, string][] = [
      [{...ok, people: [ok.people[0]]}, "people: expected two people, one for each agent, got 1"],
      [{...ok, people: [ok.people[0], {name: "Eli", information: "  "}]}, "people[1].information: must not be empty"],
      [{...ok, gold: ""}, "gold: empty gold answer: write \"none\" for nothing"],
      [{...ok, dataset: "Trivia"}, "dataset: unknown dataset \"Trivia\" has no metric"],
    ];
    for (const [record, message] of cases) {
      writeFileSync(input, jsonl([{...ok, question_id: "q0"}, record]));
      await expect(run(["--model", "m", "--input", input, "--dry-run"])).rejects.toThrow(`${input}:2: ${message}`);
    }
    writeFileSync(input, jsonl([ok, ok]));
    await expect(run(["--model", "m", "--input", input, "--dry-run"])).rejects.toThrow(`${input}:2: question_id: "q1" of NP is already on line 1`);
  });

  it("--dry-run prints agent 1's first prompt and the number of requests, and sends nothing", async () => {
    const dir = tempDir();
    const db = await storeWithSchedules(dir);
    const {chat, requests} = fakeChat();
    const dry = await run(["--model", "m", "--db", db, "--dry-run", "--limit", "2"], chat);
    expect(dry.code).toBe(0);
    expect(requests).toHaveLength(0);
    expect(dry.stdout).toContain("── ScheduleEasy question e1, agent 1, InfoNav plan ──");
    expect(dry.stdout).toContain("Alice's schedule today:\n- Gym: 9:00-10:00\n- Lunch: 12:00-13:00");
    expect(dry.stdout).not.toContain("Run: 9:30");
    // 10 messages: 2 plans + 10 turns + 20 updates + consensus + answer = 34 a question.
    expect(dry.stdout).toContain("dry run: 2 question(s), InfoNav on: at most 68 requests (34 each:");
    const off = await run(["--model", "m", "--db", db, "--dry-run", "--no-infonav", "--max-turns", "4", "--dataset", "Schedule Hard"], chat);
    expect(off.stdout).toContain("── ScheduleHard question h1, agent 1, turn 1 ──");
    expect(off.stdout).not.toContain("plan");
    expect(off.stdout).toContain("dry run: 1 question(s), InfoNav off: at most 5 requests (5 each: 4 message(s), 1 answer)");
  });
});

describe("the protocol's checks", () => {
  it("plans, messages and consensus are refused with a reason the model is told", () => {
    expect(checkPlan(true)(JSON.stringify({rationales: [{rationale: "x", status: "known", content: "1"}]}))).toEqual({problem: `the plan comes before anything was said: "x" must be "unknown"`});
    expect(checkPlan(false)(JSON.stringify({rationales: [{rationale: "x", status: "unknown"}, {rationale: "x ", status: "known"}]}))).toEqual({problem: `"x" is listed twice`});
    expect(checkPlan(false)(JSON.stringify({rationales: [{rationale: "x", status: "solved"}]}))).toEqual({problem: `rationales[0].status must be "unknown" or "known", not "solved"`});
    expect(checkTurn("I cannot help with this request.")).toEqual({problem: "it declines the task; write a message to the other assistant"});
    expect(checkTurn(JSON.stringify({message: "Bob can't help with dinner, he is busy until 9."}))).toEqual({value: {text: "Bob can't help with dinner, he is busy until 9.", finished: false}});
    const plans: [ReturnType<typeof p>, ReturnType<typeof p>] = [p("a", "b"), p("c")];
    expect(checkConsensus(plans)(JSON.stringify({agent_1: {kept: ["a"], dropped: []}, agent_2: {kept: ["c"]}}))).toEqual({problem: `"agent_1" does not decide "b": keep or drop every fact`});
    expect(checkConsensus(plans)(JSON.stringify({agent_1: {kept: ["a", "b"]}, agent_2: {kept: ["c"], dropped: ["c"]}}))).toEqual({problem: `"c" is decided twice in "agent_2"`});
    expect(checkConsensus(plans)(JSON.stringify({agent_1: {kept: ["a", "z"]}, agent_2: {}}))).toEqual({problem: `"z" in "agent_1.kept" is not a fact of that plan (its facts: "a", "b")`});
  });

  it("a known fact whose content says nothing or says it is unknown is fake solved", () => {
    const known = (content: string) => ({rationale: "r", status: "known" as const, content});
    expect([known(""), known("Unknown."), known("not yet known"), known("TBD"), known("9:00-10:00"), known("none")].map(isFakeSolved)).toEqual([true, true, true, true, false, false]);
    expect(refuses("I'm sorry, but I can't assist with that.")).toBe(true);
    expect(refuses("Sorry, Dana cannot help on Monday.")).toBe(false);
  });

  it("a Schedule question splits its people between the two agents, and one with a single person is refused by name", () => {
    const day = {start: 480, end: 720};
    const person = (name: string) => ({name, activities: [{name: `${name}'s walk`, start: 500, end: 530}]});
    const q = questionFromSchedule({dataset: "ScheduleMedium", question_id: "m9", level: "medium", schedule: {day, people: ["A", "B", "C", "D", "E"].map(person)}});
    expect(q.sides.map((s) => s.people)).toEqual(["A, B and C", "D and E"]);
    expect(q.gold).toEqual(["A's walk, B's walk, C's walk, D's walk, E's walk"]);
    expect(() => questionFromSchedule({dataset: "ScheduleHard", question_id: "h9", level: "hard", schedule: {day, people: [person("A")]}}))
      .toThrow("ScheduleHard question h9 has 1 person; a run needs at least two, one for each agent (leave it out with --dataset)");
  });
});

function p(...names: string[]) {
  return names.map((rationale) => ({rationale, status: "known" as const, content: "x"}));
}

describe("run informativebench through the real client against the local server", () => {
  let server: OpenAIServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it("killed with SIGKILL midway and run again: nothing answered is lost or asked twice, and the reports show the run", {timeout: 120_000}, async () => {
    const dir = tempDir();
    const db = await storeWithSchedules(dir);
    // Like a sampling model, a message asked again comes out differently: a step sent before the answer it depends on
    // was kept would, after the kill, be asked again under another prompt, and its first answer would be left over.
    const seen = new Map<string, number>();
    server = await startOpenAIServer((body) => {
      const key = JSON.stringify(body.messages);
      const take = seen.set(key, (seen.get(key) ?? 0) + 1).get(key)!;
      const content = protocol(body.messages);
      const message = JSON.parse(content).message as string | undefined;
      return {kind: "answer", content: message && take > 1 ? JSON.stringify({...JSON.parse(content), message: `${message} (take ${take})`}) : content, delayMs: 40};
    });
    const args = ["run", "informativebench", "--model", "m", "--base-url", server.url, "--db", db, "--out", join(dir, "run.jsonl"), "--concurrency", "2", "--quiet"];
    const TOTAL = 30;
    const killed = sociometer(args, KEY);
    await until(() => server!.requests.length >= 12);
    killed.kill();
    expect((await killed.done).signal).toBe("SIGKILL");
    const sentBeforeKill = server.requests.length;
    const cached = await inspect(db, (q) => q<{request: string}>("SELECT request::VARCHAR AS request FROM llm_calls"));
    expect(cached.length).toBeGreaterThan(0);
    expect(cached.length).toBeLessThan(TOTAL);

    const resumed = await sociometer(args, KEY).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const reasked = server.requests.slice(sentBeforeKill).map((r) => JSON.stringify(r.body.messages));
    const before = new Set(cached.map((c) => JSON.stringify(JSON.parse(c.request).messages)));
    expect(reasked.filter((m) => before.has(m))).toEqual([]);
    expect(reasked.length + cached.length).toBe(TOTAL);
    expect(resumed.stdout).toContain(`${reasked.length} request(s) sent, ${cached.length} answered from the cache`);
    expect(resumed.stdout).toContain("import (informativebench): imported, 3 episode(s)");
    expect(await inspect(db, async (q) => Number((await q<{n: bigint}>("SELECT count(*) AS n FROM llm_calls"))[0]!.n))).toBe(TOTAL);
    expect(resumed.stdout + resumed.stderr + readFileSync(join(dir, "run.jsonl"), "utf8")).not.toContain(KEY);

    const t3 = await report(db, "informativebench");
    expect(t3.rows.map((r) => [r.dataset, r.n, Number((r.value as number).toFixed(6))])).toEqual([["ScheduleEasy", 1, 1], ["ScheduleMedium", 1, 0.666667], ["ScheduleHard", 1, 0.333333]]);
  });

  it("an endpoint that keeps failing leaves the question out of the log and exits with 3", {timeout: 60_000}, async () => {
    const dir = tempDir();
    const db = await storeWithSchedules(dir);
    server = await startOpenAIServer((body) => (userOf(body.messages).includes("all free") ? {kind: "status", status: 400, message: "bad request"} : {kind: "answer", content: protocol(body.messages)}));
    const out = join(dir, "run.jsonl");
    const r = await sociometer(["run", "informativebench", "--model", "m", "--base-url", server.url, "--db", db, "--out", out, "--quiet"], KEY).done;
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("1 unit(s) stopped on endpoint errors and are not in the log; run the same command again to resume:\n  ScheduleHard question h1:");
    expect(readLog(out).map((x) => x.question_id)).toEqual(["e1", "m1"]);
  });
});
