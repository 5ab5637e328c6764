// `sociometer run …` end to end: the log it writes, what the store holds after
// the import, reruns that replace nothing, and runs through the real openai
// client against the local OpenAI-compatible server, including a resume.

import {readFileSync} from "node:fs";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import type {Chat, ChatRequest} from "../../loaders/run/chat.js";
import {runCommand} from "../../loaders/cli/run.js";
import {belext} from "../../loaders/run/judges/belext.js";
import {runJudge} from "../../loaders/run/judges/engine.js";
import {importFiles} from "../../loaders/import/session.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {describeWithFixtures, fixture, REPO} from "../helpers/fixtures.js";
import {lastUser, startOpenAIServer, type ChatBody, type OpenAIServer} from "../helpers/openai-server.js";
import {tempDir} from "../helpers/store.js";
import {fakeKey} from "../helpers/fake-key.js";

const say = (text: string) => JSON.stringify({action_type: "speak", argument: text});
const leave = JSON.stringify({action_type: "leave", argument: "I have to go."});
const turnOf = (user: string) => Number(/It is turn (\d+) of/.exec(user)?.[1]);

/** Agents speak until turn 4, where agent 2 leaves; summaries and HSII answers are fixed texts. */
function answer(template: string | undefined, user: string, model: string): string {
  if (template?.startsWith("lifelong-summary")) return `SUMMARY of an episode in which ${user.includes("cabin") ? "the cabin cost" : "a film"} was discussed.`;
  if (template?.startsWith("hsii")) return JSON.stringify({target: "Eun-ji Seo", utterance: "Could you tell me the total?"});
  const turn = turnOf(user);
  return turn === 4 ? leave : say(`turn ${turn} by ${model}`);
}

function fakeChat(): {chat: Chat; requests: ChatRequest[]} {
  const requests: ChatRequest[] = [];
  return {
    requests,
    chat: async (r) => {
      requests.push(r);
      return {text: answer(r.template, r.messages.filter((m) => m.role === "user").at(-1)!.content, r.model), promptTokens: 1, completionTokens: 1, cached: false};
    },
  };
}

async function run(argv: string[], chat?: Chat) {
  let stdout = "";
  let stderr = "";
  const code = await runCommand([...argv, "--quiet"], {chat, out: (t) => (stdout += t), err: (t) => (stderr += t)});
  return {code, stdout, stderr};
}

async function inStore<T>(db: string, fn: (q: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await fn((sql) => rows(store.conn, sql));
  } finally {
    store.close();
  }
}

describe("run sotopia writes a canonical log and imports it", () => {
  it("two episodes: rows in the store as played, and a rerun changes nothing", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const out = join(dir, "run.jsonl");
    const args = ["sotopia", "--model", "alpha", "--partner-model", "beta", "--limit", "2", "--max-turns", "6", "--db", db, "--out", out];
    const {chat, requests} = fakeChat();
    const first = await run(args, chat);
    expect(first.code).toBe(0);
    expect(requests).toHaveLength(8); // 2 episodes × 4 turns, agent 2 leaves on turn 4
    expect(first.stdout).toContain("import (canonical): imported, 2 episode(s)");
    const log = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(log).toHaveLength(2);

    await inStore(db, async (q) => {
      const episodes = await q("SELECT episode_id, benchmark, tag, scenario_id, settings->>'ended' AS ended, settings->>'left_by' AS left_by FROM episodes ORDER BY episode_id");
      expect(episodes.map((e) => e.episode_id)).toEqual(log.map((l) => l.episode_id).sort());
      const runId = /run (\S+):/.exec(first.stdout)![1];
      expect(episodes.every((e) => e.benchmark === "sotopia" && e.tag === `run:${runId}` && e.ended === "leave" && e.left_by === "2")).toBe(true);
      const participants = await q("SELECT agent, model, agent_ref, character FROM participants ORDER BY episode_id, agent");
      expect(participants.map((p) => p.model)).toEqual(["alpha", "beta", "alpha", "beta"]);
      const messages = await q("SELECT turn, agent, action_type, content FROM messages WHERE episode_id = (SELECT min(episode_id) FROM episodes) ORDER BY seq");
      expect(messages).toEqual([
        {turn: 0, agent: 1, action_type: "speak", content: "turn 1 by alpha"},
        {turn: 1, agent: 2, action_type: "speak", content: "turn 2 by beta"},
        {turn: 2, agent: 1, action_type: "speak", content: "turn 3 by alpha"},
        {turn: 3, agent: 2, action_type: "leave", content: "I have to go."},
      ]);
    });

    const again = await run(args, fakeChat().chat);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(/run (\S+):/.exec(first.stdout)![1]!); // same options, same run id
    expect(again.stdout).toContain("import: unchanged");
    expect(readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l).episode_id)).toEqual(log.map((l) => l.episode_id));
    await inStore(db, async (q) => expect(Number((await q("SELECT count(*) AS n FROM episodes"))[0]!.n)).toBe(2));
  });

  it("a failed agent is recorded as such in the store, with its answers", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    const chat: Chat = async (r) => ({text: r.model === "beta" ? "no idea" : say("hello"), promptTokens: 1, completionTokens: 1, cached: false});
    const result = await run(["sotopia", "--model", "alpha", "--model", "beta", "--combo", "synthetic-combo-3", "--retries", "1", "--db", db, "--out", join(dir, "f.jsonl")], chat);
    expect(result.code).toBe(0);
    await inStore(db, async (q) => {
      const [e] = await q("SELECT settings->>'ended' AS ended, settings->'failure' AS failure FROM episodes");
      expect(e!.ended).toBe("failed");
      expect(JSON.parse(String(e!.failure))).toEqual({
        agent: 2, turn: 1,
        attempts: [{answer: "no idea", problem: "it is not valid JSON (Unexpected token 'o', \"no idea\" is not valid JSON)"}, {answer: "no idea", problem: "it is not valid JSON (Unexpected token 'o', \"no idea\" is not valid JSON)"}],
      });
      expect(await q("SELECT agent, content FROM messages")).toEqual([{agent: 1, content: "hello"}]);
    });
  });

  it("repetitions of a combo are separate episodes with their own cache entries", async () => {
    const dir = tempDir();
    const db = join(dir, "r.duckdb");
    const {chat, requests} = fakeChat();
    expect((await run(["sotopia", "--model", "alpha", "--combo", "synthetic-combo-2", "--repeats", "2", "--concurrency", "1", "--run-id", "rep-test", "--db", db, "--out", join(dir, "r.jsonl")], chat)).code).toBe(0);
    // The template names the prompt; the sample (part of the cache key, never sent) names the run and repetition.
    expect([...new Set(requests.map((r) => r.template))]).toEqual(["sotopia-agent/v1"]);
    expect([...new Set(requests.map((r) => r.sample))]).toEqual(["run=rep-test", "run=rep-test repetition=2"]);
    await inStore(db, async (q) => expect(await q("SELECT settings->>'repetition' AS rep FROM episodes ORDER BY 1")).toEqual([{rep: "1"}, {rep: "2"}]));
  });

  it("a --prices file that does not exist is an error naming it, not a run without prices", async () => {
    const dir = tempDir();
    const missing = join(dir, "no-such-prices.json");
    const {chat, requests} = fakeChat();
    await expect(run(["sotopia", "--model", "alpha", "--limit", "1", "--db", join(dir, "p.duckdb"), "--prices", missing], chat)).rejects.toThrow(
      `${missing}: cannot read the price table: ENOENT`);
    expect(requests).toHaveLength(0);
  });

  it("--dry-run prints the first prompt and the request count, and sends nothing", async () => {
    const {chat, requests} = fakeChat();
    const dir = tempDir();
    const r = await run(["sotopia", "--model", "alpha", "--limit", "3", "--max-turns", "10", "--dry-run", "--db", join(dir, "x.duckdb")], chat);
    expect(r.code).toBe(0);
    expect(requests).toHaveLength(0);
    expect(r.stdout).toContain("── seat 1, turn 1 ──");
    expect(r.stdout).toContain("dry run: 3 episode(s)");
    expect(r.stdout).toContain("at most 30 requests");
  });
});

describeWithFixtures("run sotopia on the real SOTOPIA profiles", () => {
  it("plays three combos of the seeded order and imports them with the real characters and goals", async () => {
    const dir = tempDir();
    const db = join(dir, "real.duckdb");
    const profiles = fixture("sotopia-lab__sotopia-space", "profiles");
    const {chat} = fakeChat();
    expect((await run(["sotopia", "--model", "alpha", "--profiles", profiles, "--limit", "3", "--max-turns", "4", "--db", db, "--out", join(dir, "real.jsonl")], chat)).code).toBe(0);
    const combos = readFileSync(join(profiles, "env_agent_combo_storages.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const agents = new Map(readFileSync(join(profiles, "agent_profiles.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((a) => [a.agent_id, `${a.first_name} ${a.last_name}`]));
    await inStore(db, async (q) => {
      const eps = await q("SELECT e.settings->>'combo_id' AS combo, list(p.character ORDER BY p.agent) AS names FROM episodes e JOIN participants p USING (episode_id) GROUP BY ALL");
      expect(eps).toHaveLength(3);
      for (const e of eps) {
        const combo = combos.find((c) => c.combo_id === e.combo)!;
        expect(e.names).toEqual(combo.agent_ids.map((id: string) => agents.get(id)));
      }
      expect(Number((await q("SELECT count(*) AS n FROM participants WHERE goal IS NULL OR goal LIKE '%<%'"))[0]!.n)).toBe(0);
    });
  });
});

describe("run lifelong", () => {
  const base = (db: string, dir: string, memory: string) =>
    ["lifelong", "--model", "alpha", "--pair", "synthetic-rel-mira-tomas", "--memory", memory, "--max-turns", "6", "--db", db, "--out", join(dir, `${memory}.jsonl`)];

  it("summary memory: one summary per episode, given to both agents in the next one; imported as a chain", async () => {
    const dir = tempDir();
    const db = join(dir, "l.duckdb");
    const {chat, requests} = fakeChat();
    expect((await run(base(db, dir, "summary"), chat)).code).toBe(0);
    const summaries = requests.filter((r) => r.template?.startsWith("lifelong-summary"));
    expect(summaries).toHaveLength(2);
    expect(summaries[0]!.messages[1]!.content).not.toMatch(/goal/i); // the summariser sees the transcript, not the private goals
    const agents = requests.filter((r) => r.template?.startsWith("lifelong-agent"));
    expect(agents).toHaveLength(8);
    const firstEpisodeSummary = await answer(summaries[0]!.template, summaries[0]!.messages[1]!.content, "alpha");
    expect(agents.slice(0, 4).every((r) => !r.messages[0]!.content.includes("What you remember"))).toBe(true);
    expect(agents.slice(4).every((r) => r.messages[0]!.content.includes(`Episode 1: ${firstEpisodeSummary}`))).toBe(true);
    await inStore(db, async (q) => {
      const eps = await q("SELECT chain_index, benchmark, settings->>'memory_mode' AS memory, settings->>'summary' AS summary, settings->'run'->>'ended' AS ended FROM episodes ORDER BY chain_index");
      expect(eps.map((e) => [e.chain_index, e.benchmark, e.memory, e.ended])).toEqual([[1, "lifelong-sotopia", "summary", "leave"], [2, "lifelong-sotopia", "summary", "leave"]]);
      expect(eps[0]!.summary).toBe(firstEpisodeSummary);
    });
  });

  it("the BELEXT judge sees each character's own profile as background and, from episode 2, what the characters remember", async () => {
    const dir = tempDir();
    const db = join(dir, "l.duckdb");
    const {chat} = fakeChat();
    expect((await run(base(db, dir, "summary"), chat)).code).toBe(0);
    const store = await openStore(db);
    try {
      const printed: string[] = [];
      const unused: Chat = async () => { throw new Error("a dry run asks nothing"); };
      const result = await runJudge(store, belext, {model: "judge-m", chat: unused, endpoint: "http://127.0.0.1:1/v1", runId: "belext-1", print: (t) => printed.push(t)});
      expect(result.wouldRequest).toBe(2);
      const [first, second] = printed.join("").split(/^--- /m).filter(Boolean);
      // The store holds the profile the runner showed each agent (loaders/run/profiles.ts describeProfile, own parts).
      expect(await rows(store.conn, "SELECT DISTINCT agent, background FROM participants ORDER BY agent")).toEqual([
        {agent: 1, background: expect.stringMatching(/^Name: Mira Okafor\nAge: 34\nGender: Woman\nPronouns: She\/her\nOccupation: Night-shift nurse\n[\s\S]*Secret \(known only to you\): She failed her first licensing exam and never told her family\.$/)},
        {agent: 2, background: expect.stringMatching(/^Name: Tomas Lindqvist\nAge: 41\n[\s\S]*Decision-making style: Spontaneous\n/)},
      ]);
      for (const prompt of [first!, second!]) {
        expect(prompt).toContain("Agent 1: Mira Okafor\n  Background: Name: Mira Okafor\nAge: 34");
        expect(prompt).toContain("Occupation: Carpenter");
        expect(prompt).toContain("Personality: Mira is patient and warm, but firm once she has decided something is unfair.");
        expect(prompt).not.toContain("(not given)");
      }
      const summary = (await rows<{s: string}>(store.conn, "SELECT settings->>'summary' AS s FROM episodes WHERE chain_index = 1"))[0]!.s;
      expect(first).toContain("## What the characters remember of earlier episodes\n(none: this is the first episode of the series)");
      expect(second).toContain(`## What the characters remember of earlier episodes\nEpisode 1: ${summary}`);
    } finally {
      store.close();
    }
  });

  it("full memory gives each agent the earlier transcript and its own earlier goal; none gives nothing", async () => {
    const dir = tempDir();
    const db = join(dir, "l.duckdb");
    const full = fakeChat();
    expect((await run(base(db, dir, "full"), full.chat)).code).toBe(0);
    expect(full.requests).toHaveLength(8);
    const [firstScenarioPrompt, , , , secondEpisodeSeat1, secondEpisodeSeat2] = full.requests.map((r) => r.messages[0]!.content);
    const firstGoal = /Your goal \(known only to you\): (.*)/.exec(firstScenarioPrompt!)![1]!;
    expect(secondEpisodeSeat1).toContain(`Your goal then: ${firstGoal}`);
    expect(secondEpisodeSeat1).toContain('Turn 2: Tomas Lindqvist said: "turn 2 by alpha"');
    expect(secondEpisodeSeat2).not.toContain(`Your goal then: ${firstGoal}`); // the partner remembers its own goal, not Mira's
    const none = fakeChat();
    expect((await run(base(db, dir, "none"), none.chat)).code).toBe(0);
    expect(none.requests.every((r) => !r.messages[0]!.content.includes("What you remember"))).toBe(true);
    expect(await inStore(db, async (q) => (await q("SELECT settings->>'memory_mode' AS m, count(*)::INTEGER AS n FROM episodes GROUP BY 1 ORDER BY 1")))).toEqual([{m: "full", n: 2}, {m: "none", n: 2}]);
  });
});

describe("run hsii", () => {
  it("records the raw responses for the parser, from a file or from the store's cases", async () => {
    const dir = tempDir();
    const db = join(dir, "h.duckdb");
    const samples = join(REPO, "data/samples/hsii/runs.jsonl");
    const {chat, requests} = fakeChat();
    expect((await run(["hsii", "--model", "tested", "--input", samples, "--limit", "3", "--db", db, "--out", join(dir, "h.jsonl")], chat)).code).toBe(0);
    expect(requests).toHaveLength(3);
    expect(requests[0]!.messages[1]!.content).toContain("Ben Ortiz: We still need an answer on this.");
    expect(requests.every((r) => !r.json)).toBe(true); // the answer's format is what stage 1 measures
    await inStore(db, async (q) => {
      const cases = await q("SELECT c.case_id, c.response, c.parsed, c.target, c.target_correct FROM hsii_cases c ORDER BY case_id");
      expect(cases.map((c) => c.case_id)).toEqual(["synthetic-case-001", "synthetic-case-002", "synthetic-case-003"]);
      expect(cases.every((c) => c.parsed === true && c.target === "Eun-ji Seo")).toBe(true);
      expect(cases[0]!.target_correct).toBe(true); // its gold names are Eun-ji Seo / Eun-ji
    });

    // From the store: the cases imported before, each once, with its history.
    const store = await openStore(db);
    await importFiles(store, "hsii", [samples]);
    const stored = Number((await rows(store.conn, "SELECT count(DISTINCT case_id) AS n FROM hsii_cases"))[0]!.n);
    store.close();
    const again = fakeChat();
    expect((await run(["hsii", "--model", "other", "--db", db, "--out", join(dir, "h2.jsonl")], again.chat)).code).toBe(0);
    expect(again.requests).toHaveLength(stored);
    expect(again.requests[0]!.messages[1]!.content).toContain("Ben Ortiz: We still need an answer on this.");
    await inStore(db, async (q) => {
      expect(Number((await q("SELECT count(*) AS n FROM hsii_cases c JOIN participants p ON p.episode_id = c.episode_id AND p.agent = 1 WHERE p.model = 'other'"))[0]!.n)).toBe(stored);
    });
  });
});

describe("options a runner would ignore are refused", () => {
  it.each([
    [["lifelong", "--model", "m", "--architecture", "ga+tdp"], "--architecture applies to run stss, not run lifelong, which would ignore it"],
    [["sotopia", "--model", "m", "--memory", "none"], "--memory applies to run lifelong, not run sotopia, which would ignore it"],
    [["stss", "--model", "m", "--repeats", "2"], "--repeats applies to run sotopia, not run stss, which would ignore it"],
    [["hsii", "--model", "m", "--max-turns", "4"], "--max-turns applies to run sotopia, run lifelong, run stss, not run hsii, which would ignore it"],
    [["lifelong", "--model", "m", "--limit", "3"], "--limit applies to run sotopia, run hsii, run stss, not run lifelong, which would ignore it"],
    [["hsii", "--model", "m", "--partner-model", "p"], "--partner-model applies to run sotopia, run lifelong, run stss, not run hsii, which would ignore it"],
    [["hsii", "--model", "m", "--model", "p"], "run hsii tests one model: give one --model (the gold answers are the other side)"],
  ])("%j", async (argv, message) => {
    // Refused before any store is opened or request sent: the db path does not exist.
    await expect(run([...argv, "--db", join(tempDir(), "none", "s.duckdb")])).rejects.toThrow(message);
  });

  it("the options each runner does take still pass the check (dry runs)", async () => {
    const dir = tempDir();
    expect((await run(["sotopia", "--model", "m", "--repeats", "2", "--seed", "3", "--limit", "1", "--dry-run", "--db", join(dir, "s.duckdb")])).stdout).toContain("2 episode(s)");
    expect((await run(["lifelong", "--model", "m", "--memory", "none", "--episodes", "2", "--dry-run", "--db", join(dir, "s.duckdb")])).stdout).toContain("memory none");
  });
});

describe("through the real openai client and a local OpenAI-compatible server", () => {
  let server: OpenAIServer | null = null;
  const savedKey = process.env.OPENAI_API_KEY;
  afterEach(async () => {
    await server?.close();
    server = null;
    if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = savedKey;
  });
  const serve = (body: ChatBody) => ({kind: "answer" as const, content: answer(undefined, lastUser(body), body.model)});

  it("a command that selects more (--limit 1, then 2) is the same run: it asks only the new episode, and nothing is stored twice", async () => {
    process.env.OPENAI_API_KEY = fakeKey("test-secret-key-4711");
    server = await startOpenAIServer(serve);
    const dir = tempDir();
    const db = join(dir, "sel.duckdb");
    const out = join(dir, "sel.jsonl");
    const args = (limit: string) => ["sotopia", "--model", "alpha", "--max-turns", "6", "--limit", limit, "--base-url", server!.url, "--db", db, "--out", out];
    const one = await run(args("1"));
    expect(server.requests).toHaveLength(4); // agent 2 leaves on turn 4
    const two = await run(args("2"));
    expect(/run (\S+):/.exec(two.stdout)![1]).toBe(/run (\S+):/.exec(one.stdout)![1]);
    expect(two.stdout).toContain("4 request(s) sent, 4 answered from the cache");
    expect(server.requests).toHaveLength(8);
    // Back to --limit 1: nothing asked, and the log keeps the run's second episode.
    const again = await run(args("1"));
    expect(again.stdout).toContain("0 request(s) sent, 4 answered from the cache");
    expect(again.stdout).toContain("1 record(s) written to " + out + ", after 1 the run wrote there before");
    await inStore(db, async (q) => {
      const eps = await q("SELECT settings->>'combo_id' AS combo, count(*)::INTEGER AS n FROM episodes GROUP BY 1 ORDER BY 1");
      expect(eps.map((e) => e.n)).toEqual([1, 1]);
      expect(Number((await q("SELECT count(*) AS n FROM llm_calls"))[0]!.n)).toBe(8);
      expect((await q("SELECT DISTINCT settings->'selection'->>'limit' AS l FROM episodes ORDER BY 1")).map((r) => r.l)).toEqual(["1", "2"]);
    });
  });

  it("plays, caches, imports; a rerun sends nothing; an interrupted run resumes from the cache", async () => {
    process.env.OPENAI_API_KEY = fakeKey("test-secret-key-4711");
    server = await startOpenAIServer(serve);
    const dir = tempDir();
    const db = join(dir, "e2e.duckdb");
    const out = join(dir, "e2e.jsonl");
    const args = ["sotopia", "--model", "alpha", "--model", "beta", "--combo", "synthetic-combo-1", "--combo", "synthetic-combo-4", "--max-turns", "6", "--base-url", server.url, "--db", db, "--out", out];

    const first = await run(args);
    expect(first.code).toBe(0);
    expect(server.requests).toHaveLength(8);
    expect(server.requests.every((r) => r.body.response_format?.type === "json_object")).toBe(true);
    expect(first.stdout).toContain("8 request(s) sent, 0 answered from the cache");
    const firstLog = readFileSync(out, "utf8");
    await inStore(db, async (q) => {
      expect(Number((await q("SELECT count(*) AS n FROM llm_calls"))[0]!.n)).toBe(8);
      expect(Number((await q("SELECT count(*) AS n FROM messages"))[0]!.n)).toBe(8);
      const dump = JSON.stringify(await q("SELECT * FROM llm_calls")) + JSON.stringify(await q("SELECT * FROM episodes"));
      expect(dump).not.toContain(fakeKey("test-secret-key-4711"));
    });
    expect(firstLog).not.toContain(fakeKey("test-secret-key-4711"));

    const rerun = await run(args);
    expect(server.requests).toHaveLength(8);
    expect(rerun.stdout).toContain("0 request(s) sent, 8 answered from the cache");
    expect(rerun.stdout).toContain("import: unchanged");
    expect(readFileSync(out, "utf8")).toBe(firstLog);

    // A new run (other models) that the endpoint breaks off at its third request (400: not retried).
    const args2 = args.map((a) => (a === "beta" ? "gamma" : a)).map((a) => (a === out ? join(dir, "e2e-2.jsonl") : a));
    server.setScript((body, n) => (n === 8 + 2 ? {kind: "status", status: 400, message: "broken off"} : serve(body)));
    const broken = await run(args2);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/stopped on endpoint errors.*run the same command again to resume/s);
    expect(broken.stderr).toContain("400 broken off (not retried)");
    const sentBefore = server.requests.length;
    server.setScript(serve);
    const resumed = await run(args2);
    expect(resumed.code).toBe(0);
    // Only what the broken run did not finish is asked again.
    const cachedNow = Number(/(\d+) answered from the cache/.exec(resumed.stdout)![1]);
    expect(cachedNow).toBe(sentBefore - 8 - 1); // every request answered before the break, none of the failed one
    expect(server.requests.length - sentBefore + cachedNow).toBe(8);
    await inStore(db, async (q) => {
      expect(await q("SELECT p.model, count(DISTINCT e.episode_id)::INTEGER AS n FROM episodes e JOIN participants p USING (episode_id) WHERE p.agent = 2 GROUP BY 1 ORDER BY 1")).toEqual([{model: "beta", n: 2}, {model: "gamma", n: 2}]);
    });
  });
});
