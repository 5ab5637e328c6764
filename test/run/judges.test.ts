// Each judge against the local server with the real client: the prompts it
// sends, the repairs it asks for, and what lands in the store.

import {afterEach, describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {createChat} from "../../loaders/run/client.js";
import {runJudge, type JudgeOptions} from "../../loaders/run/judges/engine.js";
import {sotopiaEval} from "../../loaders/run/judges/sotopia-eval.js";
import {belext} from "../../loaders/run/judges/belext.js";
import {hsiiPairwise, IDENTICAL_RATIONALE, verdictOf} from "../../loaders/run/judges/hsii-pairwise.js";
import {stssConditions} from "../../loaders/run/judges/stss-conditions.js";
import {parseTemplate, templateVersion} from "../../loaders/run/template.js";
import {SOTOPIA_DIMENSIONS, PAPER_CHECKPOINTS} from "../../src/lib/dimensions.js";
import {penalisedBel} from "../../src/lib/lifelong.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {lastUser, startOpenAIServer, type OpenAIServer, type Script} from "../helpers/openai-server.js";
import {count, tempStore, writeFile} from "../helpers/store.js";

let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A valid SOTOPIA-EVAL answer: every dimension at `score(d)` for both agents. */
export function sotopiaAnswer(score: (dim: string, agent: number) => number): string {
  const agent = (a: number) => Object.fromEntries(SOTOPIA_DIMENSIONS.map((d) => [d.key, {rationale: `${d.abbrev} of agent ${a}`, score: score(d.key, a)}]));
  return JSON.stringify({agent_1: agent(1), agent_2: agent(2)});
}

/** Scores that stay in range: goal and BEL carry the episode's number (e3 → 3), the rest a fixed in-range value. */
const fixed: Record<string, number> = {relationship: 2, knowledge: 4, secret: -1, social_rules: 0, financial_and_material_benefits: -2};
const scoreFor = (n: number) => (dim: string, agent: number) => (dim === "goal" ? n : dim === "believability" ? agent + 5 : fixed[dim]);
const episodeNumber = (prompt: string) => Number(/Scenario number (\d+)/.exec(prompt)?.[1]);

export async function sotopiaStore(n: number): Promise<Store & {dir: string}> {
  const store = await tempStore();
  const records = Array.from({length: n}, (_, i) => dumpRecord(`e${i}`, {scenario: `Scenario number ${i}: two colleagues share a desk`}));
  await importFiles(store, "sotopia", [writeFile(store.dir, "episodes.jsonl", jsonl(records))]);
  return store;
}

async function judge(store: Store, script: Script, o: Partial<JudgeOptions> & {kind?: typeof sotopiaEval | typeof belext | typeof hsiiPairwise | typeof stssConditions; sameServer?: boolean} = {}) {
  if (o.sameServer && server) server.setScript(script);
  else server = await startOpenAIServer(script);
  const client = createChat({store, baseURL: server.url, apiKey: "sk-judges-test", retry: {baseMs: 5, maxMs: 20}, runId: o.runId ?? "run-1"});
  const result = await runJudge(store, (o.kind ?? sotopiaEval) as typeof sotopiaEval, {model: "judge-m", chat: client.chat, endpoint: client.endpoint, runId: "run-1", concurrency: 4, ...o});
  return {result, client, server};
}

describe("sotopia-eval judge", () => {
  it("writes seven integer scores with rationales per agent, rater = the judge model, with the run id", async () => {
    const store = await sotopiaStore(3);
    const {result, server} = await judge(store, (b) => ({kind: "answer", content: sotopiaAnswer(scoreFor(episodeNumber(lastUser(b))))}));
    expect(result).toMatchObject({items: 3, ok: 3, failed: 0, unfinished: []});
    expect(server.requests).toHaveLength(3);
    const prompt = lastUser(server.requests[0].body);
    // The judge sees scenario, both goals and the transcript.
    expect(prompt).toContain("Get the window seat");
    expect(prompt).toContain("Keep the window seat");
    expect(prompt).toContain('Ada Lane said: "Hello there"');
    expect(prompt).toContain('"secret": {"rationale": "<why>", "score": <integer from -10 to 0>}');
    const goals = await rows(store.conn, "SELECT episode_id, agent, value, rationale, run_id, rater_kind FROM ratings WHERE rater = 'judge-m' AND dimension = 'goal' ORDER BY ALL");
    expect(goals).toEqual([0, 1, 2].flatMap((n) => [1, 2].map((agent) => ({episode_id: `e${n}`, agent, value: n, rationale: `GOAL of agent ${agent}`, run_id: "run-1", rater_kind: "llm"}))));
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'judge-m'")).toBe(3 * 2 * 7);
    expect(await rows(store.conn, "SELECT value FROM ratings WHERE rater = 'judge-m' AND episode_id = 'e1' AND agent = 2 AND dimension = 'believability'")).toEqual([{value: 7}]);
    expect(await rows(store.conn, "SELECT item, status, attempts FROM judgments ORDER BY item")).toEqual(
      ["e0", "e1", "e2"].map((item) => ({item, status: "ok", attempts: 1})));
    // The run is a source of its own, so `status` lists it.
    expect(await rows(store.conn, "SELECT path, format, rows FROM sources WHERE format LIKE 'judge:%'")).toEqual([{path: "judge-run:run-1", format: "judge:sotopia-eval", rows: 3}]);
  });

  it("feeds a malformed answer's problem back and accepts the repaired one", async () => {
    const store = await sotopiaStore(1);
    const answers = ["Sure! Here are my scores: {agent_1: oops", sotopiaAnswer(scoreFor(0))];
    const {result, server} = await judge(store, (_, n) => ({kind: "answer", content: answers[n]}));
    expect(result).toMatchObject({ok: 1, failed: 0});
    const second = server.requests[1].body.messages;
    expect(second.at(-2)).toEqual({role: "assistant", content: answers[0]});
    expect(second.at(-1)?.content).toMatch(/^That answer cannot be used: the answer is not valid JSON/);
    expect(await rows(store.conn, "SELECT status, attempts FROM judgments")).toEqual([{status: "ok", attempts: 2}]);
  });

  it("records an answer that stays out of range as a failed judgment with its raw text, never as a score", async () => {
    const store = await sotopiaStore(1);
    const bad = sotopiaAnswer((d, a) => (d === "secret" && a === 2 ? 3 : scoreFor(0)(d, a)));
    const {result, server} = await judge(store, () => ({kind: "answer", content: bad}), {repairs: 2});
    expect(result).toMatchObject({ok: 0, failed: 1});
    expect(server.requests).toHaveLength(3);
    expect(lastUser(server.requests[2].body)).toContain("agent_2.secret.score: 3 is outside SEC's range [-10, 0]");
    expect(await rows(store.conn, "SELECT status, attempts, problem, raw FROM judgments")).toEqual([
      {status: "failed", attempts: 3, problem: "agent_2.secret.score: 3 is outside SEC's range [-10, 0]", raw: bad}]);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'judge-m'")).toBe(0);
  });

  it.each([
    ["a missing field", (a: Record<string, Record<string, unknown>>) => delete a.agent_1.goal, "agent_1.goal: expected a JSON object, got nothing (the field is missing)"],
    ["a half point", (a: Record<string, Record<string, {score: number}>>) => (a.agent_1.goal.score = 6.5), "agent_1.goal.score: 6.5 is not a whole number (GOAL is scored in integers)"],
    ["an empty rationale", (a: Record<string, Record<string, {rationale: string}>>) => (a.agent_2.knowledge.rationale = " "), "agent_2.knowledge.rationale: expected a non-empty string"],
  ])("names %s in the failure", async (_, spoil, problem) => {
    const store = await sotopiaStore(1);
    const answer = JSON.parse(sotopiaAnswer(scoreFor(1)));
    (spoil as (a: unknown) => void)(answer);
    await judge(store, () => ({kind: "answer", content: JSON.stringify(answer)}), {repairs: 0});
    const [row] = await rows<{problem: string}>(store.conn, "SELECT problem FROM judgments");
    expect(row.problem).toContain(problem);
  });

  it("resumes a run: cases already judged are skipped, and a new run id answers from the cache", async () => {
    const store = await sotopiaStore(4);
    const script: Script = (b) => ({kind: "answer", content: sotopiaAnswer(scoreFor(episodeNumber(lastUser(b))))});
    await judge(store, script, {limit: 2});
    const second = await judge(store, script, {sameServer: true});
    expect(second.result).toMatchObject({items: 4, alreadyDone: 2, ok: 2});
    expect(second.server.requests.slice(2).map((r) => episodeNumber(lastUser(r.body)))).toEqual([2, 3]);
    const third = await judge(store, script, {runId: "run-2", sameServer: true});
    expect(third.result).toMatchObject({ok: 4});
    expect(third.server.requests).toHaveLength(4);
    expect(third.client.stats.cached).toBe(4);
    expect(await rows(store.conn, "SELECT run_id, count(*)::INT AS n FROM ratings WHERE rater = 'judge-m' GROUP BY 1 ORDER BY 1")).toEqual([
      {run_id: "run-1", n: 56}, {run_id: "run-2", n: 56}]);
  });

  it("refuses to resume a run at another endpoint, dry run included, and says how to go on", async () => {
    const store = await sotopiaStore(2);
    const script: Script = (b) => ({kind: "answer", content: sotopiaAnswer(scoreFor(episodeNumber(lastUser(b))))});
    const first = await judge(store, script, {limit: 1});
    const firstUrl = first.server.url;
    await server!.close();
    server = await startOpenAIServer(script);
    const other = createChat({store, baseURL: server.url, apiKey: "sk-judges-test"});
    const message = `run run-1 was judged at ${firstUrl}; resuming it at ${server.url} would mix two servers' answers in one run: give this one its own --run-id (or use --base-url ${firstUrl} to resume it)`;
    for (const print of [undefined, () => {}]) {
      await expect(runJudge(store, sotopiaEval, {model: "judge-m", chat: other.chat, endpoint: other.endpoint, runId: "run-1", print})).rejects.toThrow(message);
    }
    expect(server.requests).toHaveLength(0);
    expect(await rows(store.conn, "SELECT run_id, endpoint FROM judge_runs")).toEqual([{run_id: "run-1", endpoint: firstUrl}]);
    // Under its own run id the other server judges everything; nothing of the first server's cache answers it.
    const own = await runJudge(store, sotopiaEval, {model: "judge-m", chat: other.chat, endpoint: other.endpoint, runId: "run-other"});
    expect(own).toMatchObject({ok: 2, alreadyDone: 0});
    expect(server.requests).toHaveLength(2);
  });

  it("refuses to resume a run with other judging options, naming them; --limit, --include-failed and --concurrency may change", async () => {
    const store = await sotopiaStore(3);
    const script: Script = (b) => ({kind: "answer", content: sotopiaAnswer(scoreFor(episodeNumber(lastUser(b))))});
    const first = await judge(store, script, {limit: 1, repairs: 2});
    const message = "run run-1 was started with --repairs 2, temperature 0; resuming it with --repairs 0, temperature 0.7 would judge its cases " +
      "under two sets of rules (and --collect follows the first): resume it with the same options, or give this one its own --run-id";
    for (const print of [undefined, () => {}]) {
      await expect(runJudge(store, sotopiaEval, {model: "judge-m", chat: first.client.chat, endpoint: first.client.endpoint, runId: "run-1",
        repairs: 0, temperature: 0.7, print})).rejects.toThrow(message);
    }
    await expect(runJudge(store, sotopiaEval, {model: "judge-m", chat: first.client.chat, endpoint: first.client.endpoint, runId: "run-1", repairs: 3}))
      .rejects.toThrow("run run-1 was started with --repairs 2; resuming it with --repairs 3 would");
    expect(first.server.requests).toHaveLength(1);
    const resumed = await runJudge(store, sotopiaEval, {model: "judge-m", chat: first.client.chat, endpoint: first.client.endpoint, runId: "run-1", limit: 3, concurrency: 1, includeFailed: true});
    expect(resumed).toMatchObject({items: 3, alreadyDone: 1, ok: 2});
  });

  it("uses the user's template, whose version (its two sections, not the note) is part of the cache key: an edit asks again", async () => {
    const store = await sotopiaStore(1);
    const file = writeFile(store.dir, "mine.txt", "my notes\n=== system\nBe strict.\n=== user\nRate this:\n{{transcript}}\nAs {{answer_format}}\n");
    const {server, result, client} = await judge(store, () => ({kind: "answer", content: sotopiaAnswer(scoreFor(0))}), {templateFile: file});
    expect(server.requests[0].body.messages).toEqual([
      {role: "system", content: "Be strict."},
      expect.objectContaining({role: "user", content: expect.stringMatching(/^Rate this:\nTurn #0: Ada Lane said: "Hello there"/)}),
    ]);
    expect(result.template.name).toBe(file);
    // The version hashes the two sections as sent, not the note above them.
    const sections = {system: "Be strict.", user: "Rate this:\n{{transcript}}\nAs {{answer_format}}"};
    expect(result.template.version).toBe(templateVersion(sections.system, sections.user));
    const templatesAsked = async () => (await rows<{template: string}>(store.conn, "SELECT DISTINCT request->>'template' AS template FROM llm_calls ORDER BY 1")).map((r) => r.template);
    expect(await templatesAsked()).toEqual([`sotopia-eval@${result.template.version}`]);
    const again = async (text: string, runId: string) => {
      const edited = writeFile(store.dir, `${runId}.txt`, text);
      return runJudge(store, sotopiaEval, {model: "judge-m", chat: client.chat, endpoint: client.endpoint, runId, templateFile: edited});
    };
    // Only the note edited: the same version, the same cache key, nothing asked.
    const noteOnly = await again("other notes, many more lines\nof them\n=== system\nBe strict.\n=== user\nRate this:\n{{transcript}}\nAs {{answer_format}}\n", "run-note");
    expect(noteOnly.template.version).toBe(result.template.version);
    expect(noteOnly.ok).toBe(1);
    expect(server.requests).toHaveLength(1);
    // One word of the prompt edited: a new version in the request's template field and its key, so it is asked again.
    const edited = await again("my notes\n=== system\nBe very strict.\n=== user\nRate this:\n{{transcript}}\nAs {{answer_format}}\n", "run-edit");
    expect(edited.template.version).not.toBe(result.template.version);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].body.messages[0]).toEqual({role: "system", content: "Be very strict."});
    expect(await templatesAsked()).toEqual([`sotopia-eval@${result.template.version}`, `sotopia-eval@${edited.template.version}`].sort());
    expect(() => parseTemplate("t.txt", "=== system\nhi\n=== user\n{{nonsense}}\n", sotopiaEval.placeholders)).toThrow(
      "t.txt:4: unknown placeholder {{nonsense}}; this judge fills {{scenario}}, {{participants}}, {{transcript}}, {{agents}}, {{answer_format}}");
    expect(() => parseTemplate("t.txt", "=== user\nhi\n", [])).toThrow('t.txt: no "=== system" section');
  });

  it("dry run prints prompts and counts requests, sending none", async () => {
    const store = await sotopiaStore(3);
    const printed: string[] = [];
    const {result, server} = await judge(store, () => ({kind: "answer", content: "{}"}), {print: (t) => printed.push(t)});
    expect(result.wouldRequest).toBe(3);
    expect(server.requests).toHaveLength(0);
    expect(printed.join("")).toContain("--- e0 (template sotopia-eval");
    expect(await count(store, "SELECT count(*) FROM judge_runs")).toBe(0);
  });
});

describe("belext judge", () => {
  const lifelong = (i: number) => ({
    episode_id: `c-${i}`, chain_id: "ana-ben", chain_index: i, memory_mode: "summary", scenario: `Neighbours, episode ${i}`,
    agents: [{model: "model-x", character: "Ana"}, {model: "model-x", character: "Ben"}],
    messages: [{agent: 1, content: "Hello Ben."}, {agent: 2, content: "Hi Ana."}],
  });

  it("writes BEL and eight 0/1 checkpoints per agent; the workbench computes the penalised BEL", async () => {
    const store = await tempStore();
    await importFiles(store, "lifelong", [writeFile(store.dir, "c.jsonl", jsonl([lifelong(1), lifelong(2)]))]);
    // Agent 1: BEL 9 with two failures → max(9 − 10, 0) = 0; agent 2: BEL 8 with none → 8.
    const verdict = (bel: number, failing: string[]) => ({
      believability: {rationale: "reads as a person", score: bel},
      checkpoints: Object.fromEntries(PAPER_CHECKPOINTS.checkpoints.map((c) => [c.key, {reason: "seen", pass: failing.includes(c.key) ? 0 : 1}])),
    });
    const answer = JSON.stringify({agent_1: verdict(9, ["no_stalling", "leaves_after_goal"]), agent_2: verdict(8, [])});
    const {result, server} = await judge(store, () => ({kind: "answer", content: answer}), {kind: belext});
    expect(result).toMatchObject({ok: 2, failed: 0});
    expect(lastUser(server.requests[0].body)).toContain("episode 1 of the series; memory given to the characters: summary");
    expect(await rows(store.conn, `SELECT agent, count(*)::INT AS n, sum(value)::INT AS passes FROM ratings
      WHERE rater = 'judge-m' AND episode_id = 'c-1' AND dimension LIKE 'checkpoint:paper:%' GROUP BY agent ORDER BY agent`)).toEqual([
      {agent: 1, n: 8, passes: 6}, {agent: 2, n: 8, passes: 8}]);
    expect(penalisedBel(9, 2)).toBe(0);
    // Mean over 4 agents: BEL (9 + 8 + 9 + 8) / 4 = 8.5; penalised (0 + 8 + 0 + 8) / 4 = 4.
    expect(result.notes).toContain("BEL over 4 agent(s): 8.50 as judged, 4.00 penalised (Eq. 1, 5 points per failed checkpoint, computed by the workbench)");
    expect(await count(store, "SELECT count(*) FROM ratings WHERE dimension = 'logged_bel_extended'")).toBe(0);
  });

  it("rejects a checkpoint that is not 0 or 1", async () => {
    const store = await tempStore();
    await importFiles(store, "lifelong", [writeFile(store.dir, "c.jsonl", jsonl([lifelong(1)]))]);
    const checks = Object.fromEntries(PAPER_CHECKPOINTS.checkpoints.map((c) => [c.key, {reason: "r", pass: c.key === "no_stalling" ? "yes" : 1}]));
    const answer = JSON.stringify({agent_1: {believability: {rationale: "r", score: 5}, checkpoints: checks}, agent_2: {believability: {rationale: "r", score: 5}, checkpoints: checks}});
    await judge(store, () => ({kind: "answer", content: answer}), {kind: belext, repairs: 0});
    expect(await rows(store.conn, "SELECT status, problem FROM judgments")).toEqual([
      {status: "failed", problem: 'agent_1.checkpoints.no_stalling.pass: expected 1 (passes) or 0 (fails), got "yes"'}]);
  });
});

describe("hsii-pairwise judge", () => {
  it("judges stage 3 in both orders against the gold utterance and stores verdicts from the tested model's side", async () => {
    const store = await tempStore();
    const hsiiCase = (id: string, response: string) => ({
      case_id: id, model: "tested", gold_target: "Mr. Li", gold_utterance: `gold for ${id}`,
      history: [{speaker: "Mr. Li", content: "Where do we meet?"}, {speaker: "Ana", content: "I can host."}], response,
    });
    await importFiles(store, "hsii", [writeFile(store.dir, "h.jsonl", jsonl([
      hsiiCase("c1", '{"target": "Mr. Li", "utterance": "tested one"}'),
      hsiiCase("c2", '{"target": "Li", "utterance": "tested two"}'),
      hsiiCase("c3", '{"target": "Ana", "utterance": "wrong target"}'),
      hsiiCase("c4", '{"target": "Mr. Li", "utterance": " gold  for c4"}'),
    ]))]);
    // The judge always prefers whatever is shown first: a pure position bias.
    const {result, server} = await judge(store, () => ({kind: "answer", content: '{"rationale": "first is better", "better": "A"}'}), {kind: hsiiPairwise});
    expect(result).toMatchObject({items: 6, ok: 6});
    // c4 says the gold text (whitespace aside): both orders would be one prompt with one cached answer, a win and a loss
    // out of nothing. It is a tie by rule and the judge never sees it.
    expect(server.requests).toHaveLength(4);
    expect(server.requests.some((r) => lastUser(r.body).includes("gold for c4"))).toBe(false);
    expect(result.notes).toContain("2 comparison(s) have the tested text identical to the gold: recorded as ties by rule (rater_kind 'rule'), the judge not asked");
    expect(result.notes).toContain("3 case(s) have no long run (episode settings long_run and gold_long_run): stage 4 not judged for them");
    const first = lastUser(server.requests.find((r) => lastUser(r.body).includes("tested one"))!.body);
    expect(first).toContain("Mr. Li: Where do we meet?");
    expect(await rows(store.conn, "SELECT c.case_id, j.stage, j.position, j.verdict, j.rater, j.run_id FROM hsii_judgments j JOIN hsii_cases c USING (episode_id) ORDER BY ALL")).toEqual([
      {case_id: "c1", stage: 3, position: "forward", verdict: "win", rater: "judge-m", run_id: "run-1"},
      {case_id: "c1", stage: 3, position: "swapped", verdict: "loss", rater: "judge-m", run_id: "run-1"},
      {case_id: "c2", stage: 3, position: "forward", verdict: "win", rater: "judge-m", run_id: "run-1"},
      {case_id: "c2", stage: 3, position: "swapped", verdict: "loss", rater: "judge-m", run_id: "run-1"},
      {case_id: "c4", stage: 3, position: "forward", verdict: "tie", rater: "judge-m", run_id: "run-1"},
      {case_id: "c4", stage: 3, position: "swapped", verdict: "tie", rater: "judge-m", run_id: "run-1"},
    ]);
    expect(await rows(store.conn, "SELECT j.position, j.rater_kind, j.rationale, g.status, g.attempts FROM hsii_judgments j JOIN hsii_cases c USING (episode_id) JOIN judgments g ON g.item = j.episode_id || '|s3|' || j.position WHERE c.case_id = 'c4' ORDER BY 1")).toEqual(
      ["forward", "swapped"].map((position) => ({position, rater_kind: "rule", rationale: IDENTICAL_RATIONALE, status: "ok", attempts: 0})));
    expect(await rows(store.conn, "SELECT DISTINCT rater_kind FROM hsii_judgments j JOIN hsii_cases c USING (episode_id) WHERE c.case_id <> 'c4'")).toEqual([{rater_kind: "llm"}]);
    expect(verdictOf("B", "swapped")).toBe("win");
    expect(verdictOf("tie", "forward")).toBe("tie");
  });
});

describe("stss-conditions judge", () => {
  it("judges each suggested condition yes/no on the conversation and on the summary, as <level>:<condition> ratings", async () => {
    const store = await tempStore();
    // One appointment task and one conversation run with a summary, written as the STSS import stores them.
    await store.conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id) VALUES ('stss-task:t1', 'stss-task', 's'), ('run-a', 'stss', 's')`);
    await store.conn.run(`INSERT INTO stss_tasks (episode_id, task_id, source_type, category, goal, description, performer) VALUES
      ('stss-task:t1', 't1', 'Find partner', 'appointment', 'Meet Bob for coffee', 'At the cafe at 3pm', 'Alice')`);
    await store.conn.run(`INSERT INTO stss_conversations VALUES ('run-a', 't1', 'c1', 'GA', 'Alice', 'Bob')`);
    await store.conn.run(`INSERT INTO participants (episode_id, agent, model, character) VALUES ('run-a', 1, 'm', 'Alice'), ('run-a', 2, 'm', 'Bob')`);
    await store.conn.run(`INSERT INTO messages VALUES ('run-a', 0, 0, 1, 'speak', 'Coffee at the cafe?'), ('run-a', 1, 1, 2, 'speak', 'Sure, when?'),
      ('run-a', 2, 2, 2, 'summary', 'Alice wants coffee; no time was set.')`);
    const answer = (b: {messages: {content: string}[]}) => {
      const onSummary = lastUser(b as never).includes("the partner's own summary");
      const holds = (name: string) => (name === "purpose_conveyed" || (name === "location_agreed" && !onSummary) ? "yes" : "no");
      return JSON.stringify({conditions: Object.fromEntries(["purpose_conveyed", "time_agreed", "location_agreed"].map((n) => [n, {rationale: "read", holds: holds(n)}]))});
    };
    const {result, server} = await judge(store, (b) => ({kind: "answer", content: answer(b)}), {kind: stssConditions});
    expect(result).toMatchObject({items: 2, ok: 2, failed: 0});
    expect(lastUser(server.requests[0].body)).toContain("- time_agreed: a time is agreed");
    expect(await rows(store.conn, "SELECT dimension, agent, value FROM ratings WHERE rater = 'judge-m' ORDER BY dimension")).toEqual([
      {dimension: "conversation:location_agreed", agent: 1, value: 1},
      {dimension: "conversation:purpose_conveyed", agent: 1, value: 1},
      {dimension: "conversation:time_agreed", agent: 1, value: 0},
      {dimension: "summary:location_agreed", agent: 1, value: 0},
      {dimension: "summary:purpose_conveyed", agent: 1, value: 1},
      {dimension: "summary:time_agreed", agent: 1, value: 0},
    ]);
  });
});
