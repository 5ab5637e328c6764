// `sociometer run stss` against the local OpenAI-compatible server: a scripted
// model plays two tasks (three conversations), the run is killed with SIGKILL
// and resumed, `judge stss-conditions` gives the verdicts and `report stss`
// shows Table 3 for the new run beside an imported conversation, at values
// worked out by hand. Then bad answers, endpoint failures and the dry run.

import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import {runCommand} from "../../loaders/cli/run.js";
import type {Chat, ChatRequest} from "../../loaders/run/chat.js";
import {checkPlan, checkStssAction, isRefusal, requiredPartners, type StssTask} from "../../loaders/run/episodes/stss.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {jsonl} from "../helpers/episodes.js";
import {startOpenAIServer, type ChatBody, type OpenAIServer} from "../helpers/openai-server.js";
import {tempDir} from "../helpers/store.js";
import {fakeKey} from "../helpers/fake-key.js";
import {inspect, sociometer, until} from "./child.js";

const KEY = fakeKey("proj-stss-run-NEVER-STORE-41c2d9");
let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const PUB = "t_pub"; // a public activity: 4 background characters, so ⌈4 / 2⌉ = 2 partners
const APPT = "t_appt"; // an appointment with its one target, Mei Lin
const TASKS = [
  {
    env_name: PUB, task_type: "Public Activity", performer: "Ines Duarte", goal: "Host a poetry reading at Riverside Park at 2024-03-09 11:00",
    Description: "The target is to have 2 people attend.", task: {target: [], target_num: 3, goal: [{keyword: "poetry reading", start_time: "2024-03-09 11:00", duration_in_minutes: 90, location: "Riverside Park", required_character: ["Ines Duarte"]}]},
    all_chars: ["Ines Duarte", "Ana Ferreira", "Esi Mensah", "Kira Sato", "Felix Braun"],
  },
  {
    env_name: APPT, task_type: "Personal appointment", performer: "Klaus Mueller", goal: "Meet Mei Lin to discuss the grant",
    task: {target: ["Mei Lin"], target_num: 2, goal: [{keyword: "grant", start_time: "N/A", location: "N/A", required_character: ["Mei Lin", "Klaus Mueller"]}]},
    all_chars: ["Klaus Mueller", "Mei Lin", "Tom Moreno"],
  },
];

/** An imported conversation of another model on the public activity, with no verdicts: the judge gives them too. */
const IMPORTED = {
  task_id: PUB, conversation_id: "imported-1", model: "gpt-4", architecture: "GA", performer: "Ines Duarte", partner: "Kira Sato",
  transcript: [{speaker: "Ines Duarte", text: "Join me at Riverside Park at 11:00 for a poetry reading!"}, {speaker: "Kira Sato", text: "Gladly."}],
  summary: "Ines invited me to a reading at 11:00.",
};

const system = (b: {messages: {role: string; content: string}[]}) => b.messages[0]?.content ?? "";
const userOf = (b: {messages: {role: string; content: string}[]}) => b.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
const say = (argument: string) => JSON.stringify({action_type: "speak", argument});
const leave = (argument: string) => JSON.stringify({action_type: "leave", argument});
const turnOf = (b: {messages: {role: string; content: string}[]}) => Number(/It is turn (\d+) of/.exec(userOf(b))?.[1]);

/**
 * The scripted model. Ines invites and names the place but never the time;
 * Klaus names purpose, day and place. Each conversation is three turns (the
 * performer leaves on turn 3), then the partner's summary.
 */
function scripted(b: {messages: {role: string; content: string}[]}): string {
  const s = system(b);
  if (s.startsWith("You help a person")) return JSON.stringify({subgoals: ["choose guests", "invite them", "confirm"], checklist: ["say the time and place"]});
  if (s.startsWith("You check whether")) return judge(userOf(b));
  const klaus = s.includes("Klaus Mueller");
  if (s.includes("You have just finished")) {
    return JSON.stringify({summary: klaus ? "Klaus and I meet on Tuesday at the library to discuss the grant." : "Ines asked me to join a reading; no details."});
  }
  const turn = turnOf(b);
  if (turn === 1) return say(klaus ? "Could we meet to discuss the grant in the library?" : "Would you join my poetry reading at Riverside Park?");
  if (turn === 2) return say(klaus ? "Yes, Tuesday works for me." : "Sounds lovely.");
  return leave(klaus ? "Great, Tuesday at the library then." : "See you there!");
}

/** The judge: a condition holds when its cue is in the judged text. */
const CUES: Record<string, RegExp> = {
  invited: /join|invited/i, time_conveyed: /11:00/, location_conveyed: /Riverside Park/,
  purpose_conveyed: /discuss/, time_agreed: /Tuesday/, location_agreed: /library/,
};
function judge(prompt: string): string {
  const text = /## The text to judge[^\n]*\n([\s\S]*?)\n## Conditions/.exec(prompt)![1]!;
  const names = [...prompt.matchAll(/^- ([a-z_]+): /gm)].map((m) => m[1]!);
  return JSON.stringify({conditions: Object.fromEntries(names.map((n) => [n, {rationale: "scripted", holds: CUES[n]!.test(text) ? "yes" : "no"}]))});
}

function setUp(): {dir: string; db: string; tasks: string; imported: string} {
  const dir = tempDir();
  const tasks = join(dir, "tasks.json");
  writeFileSync(tasks, JSON.stringify(TASKS, null, 1));
  const imported = join(dir, "imported.jsonl");
  writeFileSync(imported, jsonl([IMPORTED]));
  return {dir, db: join(dir, "store.duckdb"), tasks, imported};
}

async function inProcess(argv: string[], chat?: Chat) {
  let stdout = "", stderr = "";
  const code = await runCommand([...argv, "--quiet"], {chat, out: (t) => (stdout += t), err: (t) => (stderr += t)});
  return {code, stdout, stderr};
}

async function importTasks(db: string, ...files: [string, string][]) {
  for (const [format, file] of files) {
    const r = await sociometer(["import", format, file, "--db", db], KEY).done;
    expect(r.code, r.stderr).toBe(0);
  }
}

describe("the partners a task needs", () => {
  const task = (over: Partial<StssTask>): StssTask => ({task_id: "x", category: "public_activity", goal: "g", description: null, performer: "P", targets: null, target_num: null,
    characters: ["P", "A", "B", "C", "D", "E"], goals: [], ...over});
  it("half the background characters for public and online activities, a third for companions, the targets of an appointment, one helper", () => {
    expect(requiredPartners(task({}), 1)).toHaveLength(3); // ⌈5 / 2⌉
    expect(requiredPartners(task({category: "online_activity"}), 1)).toHaveLength(3);
    expect(requiredPartners(task({category: "inviting_companions"}), 1)).toHaveLength(2); // ⌈5 / 3⌉
    expect(requiredPartners(task({category: "asking_for_help"}), 1)).toHaveLength(1);
    expect(requiredPartners(task({category: "appointment", targets: ["C"]}), 1)).toEqual(["C"]);
    expect(() => requiredPartners(task({category: "appointment", targets: null}), 1)).toThrow("STSS task x: an appointment needs a target person (task.target), and it lists none");
    expect(requiredPartners(task({}), 1).every((p) => p !== "P")).toBe(true);
  });
});

describe("answers the STSS runner refuses", () => {
  it("an empty turn, a refusal in character's place, and a plan of the wrong shape", () => {
    expect(checkStssAction(say("   "))).toEqual({problem: `the turn is empty: "argument" must say what you say for action_type "speak"`});
    expect(checkStssAction(say("I'm sorry, but I can't assist with that."))).toEqual({problem: "it declines to play the character; stay in the role and answer as the character would"});
    expect(checkStssAction(say("Sorry I'm late! Would you join my party?"))).toEqual({value: {type: "speak", argument: "Sorry I'm late! Would you join my party?"}});
    expect(isRefusal("As an AI language model, I cannot attend parties.")).toBe(true);
    expect(isRefusal("I'm sorry, but I can't take part in this role-play.")).toBe(true);
    expect(isRefusal("I cannot fulfill that request.")).toBe(true);
    expect(isRefusal("I\u2019m sorry, but I can\u2019t assist with this.")).toBe(true);
    // A character may decline in the story: that is an answer, not a refusal.
    expect(isRefusal("Sorry, I can't make it Tuesday.")).toBe(false);
    expect(isRefusal("Sorry, I can't help with the delivery, I'm busy all day.")).toBe(false);
    expect(isRefusal("I won't be able to come, unfortunately.")).toBe(false);
    expect(checkPlan(JSON.stringify({subgoals: ["a", "b"], checklist: ["c"]}))).toEqual({problem: `"subgoals" must have 3 to 5 entries, not 2`});
    expect(checkPlan(JSON.stringify({subgoals: ["a", "b", "c"], checklist: []}))).toEqual({problem: `"checklist" must have 1 to 5 entries, not 0`});
  });
});

describe("run stss end to end: play, SIGKILL, resume, judge, report", () => {
  it("writes three conversations, asks nothing twice, and Table 3 shows the run beside the imported model", {timeout: 240_000}, async () => {
    const {db, dir, tasks, imported} = setUp();
    server = await startOpenAIServer((b: ChatBody) => ({kind: "answer", content: scripted(b), delayMs: 40}));
    await importTasks(db, ["stss-tasks", tasks], ["stss", imported]);
    const out = join(dir, "run.jsonl");
    const runArgs = ["run", "stss", "--model", "tested", "--partner-model", "partner-m", "--base-url", server.url, "--db", db, "--out", out, "--run-id", "r1", "--concurrency", "1"];
    const REQUESTS = 3 * 4; // three conversations of three turns and a summary

    const killed = sociometer(runArgs, KEY);
    await until(() => server!.requests.length >= 6);
    killed.kill();
    expect((await killed.done).signal).toBe("SIGKILL");
    const sentBeforeKill = server.requests.length;
    const keptAtKill = await inspect(db, (q) => q<{hash: string}>("SELECT hash FROM llm_calls"));
    expect(keptAtKill.length).toBeGreaterThanOrEqual(5);

    const resumed = await sociometer(runArgs, KEY).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const reasked = server.requests.length - sentBeforeKill;
    expect(resumed.stdout).toContain(`${reasked} request(s) sent, ${keptAtKill.length} answered from the cache`);
    expect(reasked + keptAtKill.length).toBe(REQUESTS);
    expect(resumed.stdout).toContain("import (stss): imported, 3 episode(s)");

    const log = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(log.map((r) => [r.task_id, r.partner, r.model, r.partner_model, r.architecture, r.transcript.length, r.settings.ended]).sort()).toEqual([
      [APPT, "Mei Lin", "tested", "partner-m", "GA", 3, "leave"],
      ...log.filter((r) => r.task_id === PUB).map((r) => [PUB, r.partner, "tested", "partner-m", "GA", 3, "leave"]),
    ].sort());
    const appt = log.find((r) => r.task_id === APPT)!;
    expect(appt.transcript).toEqual([
      {speaker: "Klaus Mueller", text: "Could we meet to discuss the grant in the library?"},
      {speaker: "Mei Lin", text: "Yes, Tuesday works for me."},
      {speaker: "Klaus Mueller", text: "Great, Tuesday at the library then."},
    ]);
    expect(appt.summary).toBe("Klaus and I meet on Tuesday at the library to discuss the grant.");
    expect(appt.goal_conditions.map((c: {name: string}) => c.name)).toEqual(["purpose_conveyed", "time_agreed", "location_agreed"]);
    expect(appt.conditions).toBeUndefined();
    expect(readFileSync(out, "utf8")).not.toContain(KEY);

    const judged = await sociometer(["judge", "stss-conditions", "--model", "judge-m", "--base-url", server.url, "--db", db], KEY).done;
    expect(judged.code, judged.stderr).toBe(0);

    const report = await sociometer(["report", "stss", "--format", "json", "--db", db], KEY).done;
    expect(report.code, report.stderr).toBe(0);
    const t3 = JSON.parse(report.stdout) as {notes: string[]; rows: Record<string, number | string>[]};
    expect(t3.notes[0]).toContain("condition rater: judge-m");
    const row = (model: string) => t3.rows.find((r) => r.model === model)!;
    // tested: the two public-activity conversations hold invited and location, not time (SR 0, GCSR 2/3);
    // the appointment holds all three (1, 1). Micro over 3 conversations, macro over the 2 tasks.
    expect(row("tested")).toMatchObject({architecture: "GA", conversations: 3, tasks: 2, judged_conversation: 3, judged_summary: 3});
    expect(row("tested").conversation_sr_micro).toBeCloseTo(1 / 3, 12);
    expect(row("tested").conversation_sr_macro).toBeCloseTo(1 / 2, 12);
    expect(row("tested").conversation_gcsr_micro).toBeCloseTo(7 / 9, 12);
    expect(row("tested").conversation_gcsr_macro).toBeCloseTo(5 / 6, 12);
    // Summaries: "asked me to join a reading" holds invited only (1/3); the appointment's holds all three.
    expect(row("tested").summary_sr_micro).toBeCloseTo(1 / 3, 12);
    expect(row("tested").summary_gcsr_micro).toBeCloseTo(5 / 9, 12);
    expect(row("tested").summary_gcsr_macro).toBeCloseTo(2 / 3, 12);
    // gpt-4, imported: its conversation holds all three; its summary lacks the place (2/3).
    expect(row("gpt-4")).toMatchObject({conversations: 1, conversation_sr_micro: 1, conversation_gcsr_micro: 1, summary_sr_micro: 0});
    expect(row("gpt-4").summary_gcsr_micro).toBeCloseTo(2 / 3, 12);

    // The whole command again: nothing asked, nothing changed.
    const sent = server.requests.length;
    const rerun = await sociometer(runArgs, KEY).done;
    expect(rerun.stdout).toContain(`0 request(s) sent, ${REQUESTS} answered from the cache`);
    expect(rerun.stdout).toContain("import: unchanged");
    expect(server.requests.length).toBe(sent);
    await inspect(db, async (q) => {
      const stored = await q<{tag: string; ended: string; conditions: string}>(
        "SELECT tag, settings->>'ended' AS ended, settings->'goal_conditions'->0->>'name' AS conditions FROM episodes WHERE benchmark = 'stss' AND tag IS NOT NULL ORDER BY episode_id");
      expect(stored).toHaveLength(3);
      expect(stored.every((s) => s.tag === "run:r1" && s.ended === "leave")).toBe(true);
    });
  });
});

/** A Chat from a function of the request, counting requests. */
function chatOf(answer: (r: ChatRequest, n: number) => string): {chat: Chat; requests: ChatRequest[]} {
  const requests: ChatRequest[] = [];
  return {requests, chat: async (r) => ({text: answer(r, requests.push(r) - 1), promptTokens: 1, completionTokens: 1, cached: false})};
}

describe("run stss with bad answers: retried, then recorded as failed", () => {
  it("an invalid plan fails its task's conversations; a refusal is re-asked; empty partner turns fail the conversation", async () => {
    const {db, tasks} = setUp();
    await importTasks(db, ["stss-tasks", tasks]);
    let refused = false;
    const {chat, requests} = chatOf((r) => {
      const s = system(r);
      if (s.startsWith("You help a person")) {
        return r.messages[1]!.content.includes("Klaus Mueller") ? JSON.stringify({subgoals: ["meet"], checklist: ["be clear"]}) : JSON.stringify({subgoals: ["a", "b", "c"], checklist: ["say when and where"]});
      }
      if (s.startsWith("You are Ines Duarte")) {
        if (!refused) return (refused = true), say("I'm sorry, but I can't take part in this role-play.");
        return say("Join my poetry reading at Riverside Park at 11:00?");
      }
      if (s.startsWith("You are")) return s.includes("You have just finished") ? JSON.stringify({summary: "x"}) : say("");
      return "?";
    });
    const r = await inProcess(["stss", "--model", "tested", "--partner-model", "partner-m", "--architecture", "ga+tdp", "--db", db, "--run-id", "bad", "--retries", "1", "--concurrency", "1", "--out", join(tempDir(), "bad.jsonl")], chat);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("import (stss): imported, 3 episode(s)");
    // Klaus's plan: 2 attempts. Ines's plan: 1. Each public conversation: performer turn 1 (the first refused once), 2 empty partner
    // answers, then the summary of what was said: 2 + 1 + (2 + 2 + 1) + (1 + 2 + 1).
    expect(requests).toHaveLength(12);
    const store = await openStore(db);
    try {
      const got = await rows<{task: string; ended: string; stage: string; attempts: number; problem: string; messages: number}>(store.conn, `
        SELECT c.task_id AS task, e.settings->>'ended' AS ended, e.settings->'failure'->>'stage' AS stage, json_array_length(e.settings->'failure'->'attempts')::INT AS attempts,
               e.settings->'failure'->'attempts'->0->>'problem' AS problem, (SELECT count(*)::INT FROM messages m WHERE m.episode_id = e.episode_id) AS messages
        FROM episodes e JOIN stss_conversations c USING (episode_id) ORDER BY task, e.episode_id`);
      expect(got).toEqual([
        {task: APPT, ended: "failed", stage: "plan", attempts: 2, problem: `"subgoals" must have 3 to 5 entries, not 1`, messages: 0},
        {task: PUB, ended: "failed", stage: "turn", attempts: 2, problem: `the turn is empty: "argument" must say what you say for action_type "speak"`, messages: 2},
        {task: PUB, ended: "failed", stage: "turn", attempts: 2, problem: `the turn is empty: "argument" must say what you say for action_type "speak"`, messages: 2},
      ]);
      // Ines's first answer, the refusal, was asked again with the problem stated.
      expect(requests[4]!.messages.at(-1)!.content).toContain("it declines to play the character");
      const plan = await rows<{plan: string}>(store.conn, "SELECT settings->'plan'->>'checklist' AS plan FROM episodes WHERE benchmark = 'stss' AND scenario_id = 't_pub' LIMIT 1");
      expect(JSON.parse(plan[0]!.plan)).toEqual(["say when and where"]);
    } finally {
      store.close();
    }
  });

  it("a partner that refuses to write the summary every time: the conversation is kept, without a summary, as failed at that step", async () => {
    const {db, tasks} = setUp();
    await importTasks(db, ["stss-tasks", tasks]);
    const {chat, requests} = chatOf((r) => {
      if (system(r).includes("You have just finished")) return JSON.stringify({summary: "As an AI, I do not keep notes of conversations."});
      return turnOf(r) === 1 ? say("Shall we discuss the grant on Tuesday in the library?") : leave("Agreed, see you then.");
    });
    const out = join(tempDir(), "refused.jsonl");
    const r = await inProcess(["stss", "--model", "tested", "--task", APPT, "--retries", "2", "--db", db, "--run-id", "refused", "--out", out], chat);
    expect(r.code, r.stderr).toBe(0);
    expect(requests).toHaveLength(2 + 3); // two turns, then three summary attempts
    const [rec] = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rec.transcript).toHaveLength(2);
    expect(rec.summary).toBeNull();
    // Failed, as the README says, though the talk itself ended with a leave (kept in the transcript).
    expect(rec.settings.ended).toBe("failed");
    expect(rec.transcript[1].text).toBe("Agreed, see you then.");
    expect(rec.settings.failure).toEqual({stage: "summary", agent: 2, attempts: Array.from({length: 3}, () => ({
      answer: JSON.stringify({summary: "As an AI, I do not keep notes of conversations."}), problem: "it declines to write the summary; write it as the character"}))});
  });

  it("an endpoint that refuses the partner's requests: exit code 3, those conversations left out for a rerun", async () => {
    const {db, dir, tasks} = setUp();
    await importTasks(db, ["stss-tasks", tasks]);
    server = await startOpenAIServer((b) => (system(b).startsWith("You are Mei Lin") ? {kind: "status", status: 400, message: "scripted bad request"} : {kind: "answer", content: scripted(b)}));
    const r = await sociometer(["run", "stss", "--model", "tested", "--partner-model", "partner-m", "--base-url", server.url, "--db", db, "--out", join(dir, "e.jsonl"), "--run-id", "e1"], KEY).done;
    expect(r.code).toBe(3);
    expect(r.stdout).toContain("import (stss): imported, 2 episode(s)");
    expect(r.stderr).toContain("1 unit(s) stopped on endpoint errors and are not in the log; run the same command again to resume:");
    expect(r.stderr).toContain("task t_appt, partner Mei Lin: 400 scripted bad request (not retried)");
  });
});

describe("run stss: the stale-turn rule of run sotopia", () => {
  it("ends a conversation after more than --max-stale-turns `none` turns in a row, and still asks for the summary of what was said", async () => {
    const {db, tasks} = setUp();
    await importTasks(db, ["stss-tasks", tasks]);
    const {chat, requests} = chatOf((r) => {
      if (system(r).includes("You have just finished")) return JSON.stringify({summary: "Klaus said hello, then nothing."});
      return turnOf(r) === 1 ? say("Hello, Mei.") : JSON.stringify({action_type: "none", argument: ""});
    });
    const out = join(tempDir(), "stale.jsonl");
    const r = await inProcess(["stss", "--model", "tested", "--task", APPT, "--db", db, "--run-id", "stale", "--out", out], chat);
    expect(r.code, r.stderr).toBe(0);
    expect(requests).toHaveLength(5); // speak, none, none, none (the third in a row ends it), then the summary
    const [rec] = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rec.settings.ended).toBe("stale");
    expect(rec.settings.actions.map((a: {action_type: string}) => a.action_type)).toEqual(["speak", "none", "none", "none"]);
    expect(rec.transcript).toEqual([{speaker: "Klaus Mueller", text: "Hello, Mei."}]);
    expect(rec.summary).toBe("Klaus said hello, then nothing.");
    expect(rec.partner_model).toBe("tested"); // no --partner-model: the tested model plays the partner too
  });
});

describe("run stss --dry-run", () => {
  it("prints the planning and first performer prompts and the request count, and sends nothing", async () => {
    const {db, tasks} = setUp();
    await importTasks(db, ["stss-tasks", tasks]);
    const {chat, requests} = chatOf(() => "");
    const r = await inProcess(["stss", "--model", "tested", "--architecture", "ga+tdp", "--max-turns", "8", "--db", db, "--dry-run"], chat);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("── planning step, task 1 ──");
    expect(r.stdout).toContain("You are Klaus Mueller, a resident of a small town, and you have just started\na conversation with Mei Lin");
    // 2 tasks (plans) + 3 conversations × (8 turns + a summary) = 29.
    expect(r.stdout).toContain("dry run: 2 task(s), 3 conversation(s), architecture GA+TDP: at most 29 requests (one plan per task, 8 turns and a summary per conversation), plus up to 2 re-ask(s) per unusable answer; nothing was sent");
    expect(requests).toHaveLength(0);
    await expect(inProcess(["stss", "--model", "tested", "--task", "nope", "--db", db, "--dry-run"], chat))
      .rejects.toThrow(`no STSS task "nope" in the store; import its tasks file first (sociometer import stss-tasks FILE)`);
    await expect(inProcess(["stss", "--model", "tested", "--architecture", "tdp", "--db", db, "--dry-run"], chat)).rejects.toThrow("--architecture must be ga or ga+tdp, not tdp");
  });
});
