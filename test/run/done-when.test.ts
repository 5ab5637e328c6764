// The "done when", as a user would do it, against the local
// OpenAI-compatible server: `sociometer run sotopia` plays a batch and is
// killed with SIGKILL midway, then resumed; `sociometer judge sotopia-eval`
// judges it and is killed and resumed too; `sociometer report sotopia` then
// shows the run's two models with the judge as rater, at means worked out by
// hand from the judge's scripted scores, and so does the page's data file.

import {afterEach, describe, expect, it} from "vitest";
import {DuckDBInstance} from "@duckdb/node-api";
import {spawnSync} from "node:child_process";
import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {rows} from "../../loaders/store/db.js";
import {defaultRater, modelAggregates, type SotopiaStatRow} from "../../src/lib/sotopia.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {REPO} from "../helpers/fixtures.js";
import {startOpenAIServer, type ChatBody, type OpenAIServer, type Script} from "../helpers/openai-server.js";
import {tempDir} from "../helpers/store.js";
import {inspect, sociometer, until} from "./child.js";
import {fakeKey} from "../helpers/fake-key.js";

const KEY = fakeKey("proj-done-when-NEVER-STORE-9f8e7d");
let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const isAgent = (b: ChatBody) => b.messages[0]?.content.startsWith("You are role-playing") ?? false;
const isJudge = (b: ChatBody) => b.messages[0]?.content.startsWith("You evaluate social interactions") ?? false;
const userOf = (b: ChatBody) => b.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";

/**
 * Agents speak on turns 1–3; on turn 4 agent 2 leaves, so every episode has four
 * turns. Like a sampling model, the server answers a prompt it has seen before
 * differently ("take 2"): the two repetitions of a combo become different
 * episodes, which they can only be if the client asked for each (the cache
 * keeps repetitions apart).
 */
function agentAnswer(b: ChatBody, take: number): string {
  const turn = Number(/It is turn (\d+) of/.exec(userOf(b))?.[1]);
  return turn === 4 ? JSON.stringify({action_type: "leave", argument: "I have to go."}) : JSON.stringify({action_type: "speak", argument: `turn ${turn} by ${b.model}, take ${take}`});
}

/**
 * The judge's scores. Goal depends on the character (so the two models get
 * different means), believability and financial on the seat, the rest are fixed.
 */
const GOAL: Record<string, number> = {"Mira Okafor": 8, "Tomas Lindqvist": 4, "Priya Raman": 6, "Jules Moreau": 2};
const FIXED: Record<string, number> = {relationship: 2, knowledge: 4, secret: -1, social_rules: 0};
function judgeAnswer(b: ChatBody): string {
  const prompt = userOf(b);
  const names = [1, 2].map((a) => new RegExp(`^Agent ${a}: (.+)$`, "m").exec(prompt)![1]!);
  const agent = (a: number) => Object.fromEntries(SOTOPIA_DIMENSIONS.map((d) => {
    const score = d.key === "goal" ? GOAL[names[a - 1]!]! : d.key === "believability" ? (a === 1 ? 7 : 5) : d.key === "financial_and_material_benefits" ? (a === 1 ? 1 : -2) : FIXED[d.key]!;
    return [d.key, {rationale: `scripted for ${names[a - 1]}`, score}];
  }));
  return JSON.stringify({agent_1: agent(1), agent_2: agent(2)});
}

function script(): {script: Script; delay: {agent: number; judge: number}} {
  const seen = new Map<string, number>();
  const delay = {agent: 40, judge: 150};
  return {
    delay,
    script: (b) => {
      const take = seen.set(bodyKey(b), (seen.get(bodyKey(b)) ?? 0) + 1).get(bodyKey(b))!;
      if (isAgent(b)) return {kind: "answer", content: agentAnswer(b, take), delayMs: delay.agent};
      if (isJudge(b)) return {kind: "answer", content: judgeAnswer(b), delayMs: delay.judge};
      return {kind: "status", status: 400, message: "the test server does not know this request"};
    },
  };
}

/** A request as the server saw it, without what the cache key adds (the server never sees it). */
const bodyKey = (b: {model: string; messages: {role: string; content: string}[]}) => JSON.stringify([b.model, b.messages.map((m) => [m.role, m.content])]);
const tally = (keys: string[]) => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());

describe("done when: run a SOTOPIA batch and its judge against an endpoint, interrupt and resume both, see the results", () => {
  it("plays, judges, survives SIGKILL of each, and reports the scripted means", {timeout: 240_000}, async () => {
    const dir = tempDir();
    const db = join(dir, "store.duckdb");
    const out = join(dir, "run.jsonl");
    const endpoint = script();
    server = await startOpenAIServer(endpoint.script);
    const common = ["--base-url", server.url, "--db", db, "--concurrency", "2"];
    // 4 combos of the synthetic profiles, each played twice: 8 episodes of 4 turns, 32 agent requests.
    const runArgs = ["run", "sotopia", "--model", "alpha", "--partner-model", "beta", "--repeats", "2", "--max-turns", "6", "--out", out, "--run-id", "batch1", ...common];
    const EPISODES = 8;
    const AGENT_REQUESTS = EPISODES * 4;

    // 1. The run, killed midway.
    const killedRun = sociometer(runArgs, KEY);
    // A turn is asked only once the one before it is cached, so at the twelfth request at least ten answers are kept.
    await until(() => server!.requests.length >= 12);
    killedRun.kill();
    expect((await killedRun.done).signal).toBe("SIGKILL");
    const sentBeforeKill = server.requests.length;
    const atRunKill = await inspect(db, async (q) => ({
      calls: await q<{hash: string; request: string}>("SELECT hash, request::VARCHAR AS request FROM llm_calls"),
      episodes: Number((await q<{n: bigint}>("SELECT count(*) AS n FROM episodes"))[0]!.n),
    }));
    expect(atRunKill.calls.length).toBeGreaterThan(0);
    expect(atRunKill.calls.length).toBeLessThan(AGENT_REQUESTS);
    expect(atRunKill.episodes).toBe(0); // the log is written and imported only at the end

    // 2. The run resumed: finishes, asks only what was not answered and kept before the kill.
    const resumedRun = await sociometer(runArgs, KEY).done;
    expect(resumedRun.code, resumedRun.stderr).toBe(0);
    const reasked = server.requests.slice(sentBeforeKill).map((r) => r.body);
    expect(reasked.every(isAgent)).toBe(true);
    expect(resumedRun.stdout).toContain(`${reasked.length} request(s) sent, ${atRunKill.calls.length} answered from the cache`);
    expect(reasked.length + atRunKill.calls.length).toBe(AGENT_REQUESTS);
    expect(resumedRun.stdout).toContain(`import (canonical): imported, ${EPISODES} episode(s)`);
    const afterRun = await inspect(db, async (q) => ({
      calls: await q<{hash: string; request: string}>("SELECT hash, request::VARCHAR AS request FROM llm_calls"),
      episodes: await q<{ended: string; turns: number; models: string[]}>(
        `SELECT e.settings->>'ended' AS ended, (SELECT count(*)::INT FROM messages m WHERE m.episode_id = e.episode_id) AS turns,
                (SELECT list(p.model ORDER BY p.agent) FROM participants p WHERE p.episode_id = e.episode_id) AS models
         FROM episodes e ORDER BY e.episode_id`),
      transcripts: Number((await q<{n: bigint}>("SELECT count(DISTINCT scenario_id || '|' || t) AS n FROM (SELECT e.scenario_id, string_agg(m.content, '|' ORDER BY m.seq) AS t FROM messages m JOIN episodes e USING (episode_id) GROUP BY e.episode_id, e.scenario_id)"))[0]!.n),
    }));
    // Nothing answered before the kill was lost, and each request was answered exactly once over both processes.
    const finalHashes = new Set(afterRun.calls.map((c) => c.hash));
    for (const c of atRunKill.calls) expect(finalHashes.has(c.hash)).toBe(true);
    expect(afterRun.calls).toHaveLength(AGENT_REQUESTS);
    const storedBefore = tally(atRunKill.calls.map((c) => bodyKey(JSON.parse(c.request))));
    const askedAfter = tally(reasked.map(bodyKey));
    for (const [key, n] of tally(afterRun.calls.map((c) => bodyKey(JSON.parse(c.request))))) expect((storedBefore.get(key) ?? 0) + (askedAfter.get(key) ?? 0)).toBe(n);
    expect(afterRun.episodes).toHaveLength(EPISODES);
    expect(afterRun.episodes.every((e) => e.ended === "leave" && e.turns === 4 && e.models.join() === "alpha,beta")).toBe(true);
    expect(afterRun.transcripts).toBe(EPISODES); // repetitions were asked anew, not served the first one's answers

    // 3. The judge, killed midway.
    const judgeArgs = ["judge", "sotopia-eval", "--model", "judge-m", ...common];
    const judgeStart = server.requests.length;
    const killedJudge = sociometer(judgeArgs, KEY);
    // Concurrency 2, 150 ms each. A worker asks its next case once its answer is checked and fewer than 4
    // judgments (2 × concurrency) wait for their commit, so the seventh request comes after 5 answers of which
    // at least 2 are committed; one case is not even asked yet.
    await until(() => server!.requests.length >= judgeStart + 7);
    killedJudge.kill();
    expect((await killedJudge.done).signal).toBe("SIGKILL");
    const judgeSentBeforeKill = server.requests.length;
    const atJudgeKill = await inspect(db, async (q) => ({
      judged: (await q<{item: string}>("SELECT item FROM judgments WHERE status = 'ok'")).map((r) => r.item),
      cached: await q<{hash: string; request: string}>("SELECT hash, request::VARCHAR AS request FROM llm_calls WHERE model = 'judge-m'"),
      ratings: await q("SELECT * FROM ratings WHERE rater = 'judge-m' ORDER BY ALL"),
    }));
    expect(atJudgeKill.judged.length).toBeGreaterThanOrEqual(2);
    expect(atJudgeKill.judged.length).toBeLessThan(EPISODES);
    expect(atJudgeKill.ratings).toHaveLength(atJudgeKill.judged.length * 14); // never half a judgment

    // 4. The judge resumed.
    const resumedJudge = await sociometer(judgeArgs, KEY).done;
    expect(resumedJudge.code, resumedJudge.stderr).toBe(0);
    const judgeReasked = server.requests.slice(judgeSentBeforeKill).map((r) => r.body);
    expect(judgeReasked.every(isJudge)).toBe(true);
    const cachedJudgeKeys = new Set(atJudgeKill.cached.map((c) => bodyKey(JSON.parse(c.request))));
    expect(judgeReasked.filter((b) => cachedJudgeKeys.has(bodyKey(b)))).toEqual([]);
    expect(judgeReasked).toHaveLength(EPISODES - atJudgeKill.cached.length);
    expect(resumedJudge.stdout).toContain(`${EPISODES - atJudgeKill.judged.length} judged, 0 failed (raw answers kept in table judgments), ${atJudgeKill.judged.length} already done before, of ${EPISODES}`);
    await inspect(db, async (q) => {
      const all = await q("SELECT * FROM ratings WHERE rater = 'judge-m' ORDER BY ALL");
      expect(all).toHaveLength(EPISODES * 14);
      for (const r of atJudgeKill.ratings) expect(all).toContainEqual(r);
    });

    // 5. Both commands again: nothing is sent, nothing changes.
    const sentBeforeReruns = server.requests.length;
    const rerun = await sociometer(runArgs, KEY).done;
    expect(rerun.stdout).toContain(`0 request(s) sent, ${AGENT_REQUESTS} answered from the cache`);
    expect(rerun.stdout).toContain("import: unchanged");
    const rejudge = await sociometer(judgeArgs, KEY).done;
    expect(rejudge.stdout).toContain(`0 judged, 0 failed (raw answers kept in table judgments), ${EPISODES} already done before, of ${EPISODES}`);
    expect(server.requests.length).toBe(sentBeforeReruns);

    // 6. The report: alpha played seat 1 (Mira, Tomas, Priya, Tomas, twice each), beta seat 2 (Tomas, Mira, Jules, Jules).
    const report = await sociometer(["report", "sotopia", "--format", "json", "--db", db], KEY).done;
    expect(report.code, report.stderr).toBe(0);
    const table = JSON.parse(report.stdout) as {notes: string[]; rows: {model: string; dimension: string; n: number; mean: number; sd: number}[]};
    expect(table.notes[0]).toMatch(/^rater: judge-m/);
    expect([...new Set(table.rows.map((r) => r.model))].sort()).toEqual(["alpha", "beta"]);
    const mean = (model: string, dimension: string) => table.rows.find((r) => r.model === model && r.dimension === dimension)!;
    // goal: alpha (8 + 4 + 6 + 4) / 4 = 5.5; beta (4 + 8 + 2 + 2) / 4 = 4.
    expect(mean("alpha", "goal")).toMatchObject({n: 8, mean: 5.5});
    expect(mean("beta", "goal")).toMatchObject({n: 8, mean: 4});
    expect(mean("alpha", "believability").mean).toBe(7);
    expect(mean("beta", "believability").mean).toBe(5);
    expect(mean("alpha", "financial_and_material_benefits").mean).toBe(1);
    expect(mean("beta", "financial_and_material_benefits").mean).toBe(-2);
    for (const model of ["alpha", "beta"]) {
      expect(mean(model, "relationship").mean).toBe(2);
      expect(mean(model, "knowledge").mean).toBe(4);
      expect(mean(model, "secret").mean).toBe(-1);
      expect(mean(model, "social_rules").mean).toBe(0);
    }
    // overall per instance = mean of the seven. alpha: Mira 8+7+2+4−1+0+1 = 21, Tomas 17, Priya 19, Tomas 17 → 74 / 28.
    // beta: Tomas 4+5+2+4−1+0−2 = 12, Mira 16, Jules 10, Jules 10 → 48 / 28.
    expect(mean("alpha", "overall").mean).toBeCloseTo(74 / 28, 12);
    expect(mean("beta", "overall").mean).toBeCloseTo(48 / 28, 12);
    // goal sd: alpha's eight values 8,8,4,4,6,6,4,4 around 5.5: squares 2×6.25 + 4×2.25 + 2×0.25 = 22; sample sd √(22/7).
    expect(mean("alpha", "goal").sd).toBeCloseTo(Math.sqrt(22 / 7), 12);

    // 7. The page: the SOTOPIA page's data loader (the same query) writes Parquet, which the page's library turns into the same means.
    const loader = spawnSync(process.execPath, ["--import", "tsx", join(REPO, "src/data/sotopia-stats.parquet.ts")], {cwd: REPO, env: {...process.env, SOCIOMETER_DB: db}, maxBuffer: 64 << 20});
    expect(loader.status, loader.stderr.toString()).toBe(0);
    const parquet = join(dir, "sotopia-stats.parquet");
    writeFileSync(parquet, loader.stdout);
    const memory = await DuckDBInstance.create(":memory:");
    const reader = await memory.connect();
    const stats = await rows<SotopiaStatRow>(reader, `SELECT * FROM read_parquet('${parquet}')`);
    reader.closeSync();
    memory.closeSync();
    expect(defaultRater(stats)).toBe("judge-m");
    const page = modelAggregates(stats, {rater: "judge-m"});
    expect(page.find((a) => a.model === "alpha" && a.dimension === "goal")!.mean).toBe(5.5);
    expect(page.find((a) => a.model === "beta" && a.dimension === "goal")!.mean).toBe(4);
    expect(page.find((a) => a.model === "alpha" && a.dimension === "overall")!.mean).toBeCloseTo(74 / 28, 12);

    // The key reached the server and nothing else.
    expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(readFileSync(out, "utf8")).not.toContain(KEY);
    for (const o of [resumedRun, resumedJudge, rerun, rejudge, report]) expect(o.stdout + o.stderr).not.toContain(KEY);
  });
});
