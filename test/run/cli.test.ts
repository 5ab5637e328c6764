// `sociometer judge` as a user runs it: a child process against the local
// server, killed midway and resumed, and the API key kept out of everything.

import {afterEach, describe, expect, it} from "vitest";
import {existsSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {importFiles} from "../../loaders/import/session.js";
import {openStore} from "../../loaders/store/db.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {lastUser, startOpenAIServer, type OpenAIServer, type Script} from "../helpers/openai-server.js";
import {tempDir, writeFile} from "../helpers/store.js";
import {inspect, sociometer as run} from "./child.js";
import {fakeKey} from "../helpers/fake-key.js";

const KEY = fakeKey("proj-NEVER-STORE-THIS-a1b2c3d4e5");
let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const sociometer = (args: string[]) => run(args, KEY);

const episodeNumber = (prompt: string) => Number(/Scenario number (\d+)/.exec(prompt)?.[1]);
const answerFor = (n: number) => {
  const agent = (a: number) => Object.fromEntries(SOTOPIA_DIMENSIONS.map((d) => [d.key, {rationale: `agent ${a}`, score: d.key === "goal" ? n % 11 : d.lo + a}]));
  return JSON.stringify({agent_1: agent(1), agent_2: agent(2)});
};
const answering = (delayMs: number): Script => (b) => ({kind: "answer", content: answerFor(episodeNumber(lastUser(b))), delayMs});

/**
 * Every column of every table that holds `needle`, read through SQL (a byte scan
 * of the file misses compressed strings): "table.column" for each hit.
 */
async function storedHits(q: <R = Record<string, unknown>>(sql: string) => Promise<R[]>, needle: string): Promise<string[]> {
  const columns = await q<{t: string; c: string}>("SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'main' ORDER BY 1, 2");
  expect(columns.length).toBeGreaterThan(20);
  const hits: string[] = [];
  const literal = needle.replace(/'/g, "''");
  for (const {t, c} of columns) {
    const [{n}] = await q<{n: number}>(`SELECT count(*)::INTEGER AS n FROM "${t}" WHERE CAST("${c}" AS VARCHAR) LIKE '%' || '${literal}' || '%'`);
    if (n) hits.push(`${t}.${c}`);
  }
  return hits;
}

async function storeWith(episodes: number): Promise<string> {
  const dir = tempDir();
  const db = join(dir, "store.duckdb");
  const store = await openStore(db);
  const records = Array.from({length: episodes}, (_, i) => dumpRecord(`e${i}`, {scenario: `Scenario number ${i}: a shared desk`}));
  await importFiles(store, "sotopia", [writeFile(dir, "episodes.jsonl", jsonl(records))]);
  store.close();
  return db;
}

describe("sociometer judge (child process)", () => {
  it("is killed with SIGKILL midway, then resumes: no completed judgment lost, nothing cached asked again", async () => {
    const n = 12;
    const db = await storeWith(n);
    server = await startOpenAIServer(answering(150));
    const args = ["judge", "sotopia-eval", "--model", "gpt-4o-mini", "--base-url", server.url, "--db", db, "--concurrency", "2"];
    const first = sociometer(args);
    while (server.requests.length < 6) await new Promise((r) => setTimeout(r, 20));
    first.kill();
    expect((await first.done).signal).toBe("SIGKILL");
    const asked = server.requests.length;

    const atKill = await inspect(db, async (q) => ({
      cached: (await q<{prompt: string}>("SELECT json_extract_string(request, '$.messages[#-1].content') AS prompt FROM llm_calls")).map((r) => episodeNumber(r.prompt)),
      judged: (await q<{item: string}>("SELECT item FROM judgments WHERE status = 'ok'")).map((r) => r.item),
      ratings: await q("SELECT * FROM ratings WHERE rater = 'gpt-4o-mini' ORDER BY ALL"),
    }));
    expect(atKill.judged.length).toBeGreaterThan(0);
    expect(atKill.judged.length).toBeLessThan(n);
    expect(atKill.ratings).toHaveLength(atKill.judged.length * 14);

    const second = await sociometer(args).done;
    expect(second.code).toBe(0);
    const reasked = server.requests.slice(asked).map((r) => episodeNumber(lastUser(r.body)));
    expect(reasked.filter((e) => atKill.cached.includes(e))).toEqual([]);
    expect(reasked).toHaveLength(n - atKill.cached.length);
    expect(second.stdout).toContain(`${n - atKill.judged.length} judged, 0 failed (raw answers kept in table judgments), ${atKill.judged.length} already done before, of ${n}`);

    await inspect(db, async (q) => {
      expect(await q("SELECT status, count(*)::INT AS n FROM judgments GROUP BY 1")).toEqual([{status: "ok", n}]);
      const all = await q("SELECT * FROM ratings WHERE rater = 'gpt-4o-mini' ORDER BY ALL");
      expect(all).toHaveLength(n * 14);
      // Every score written before the kill is still there, unchanged.
      for (const r of atKill.ratings) expect(all).toContainEqual(r);
      expect(await q("SELECT episode_id, value FROM ratings WHERE dimension = 'goal' AND agent = 1 AND rater = 'gpt-4o-mini' ORDER BY value"))
        .toEqual(Array.from({length: n}, (_, i) => ({episode_id: `e${i}`, value: i % 11})).sort((a, b) => a.value - b.value || a.episode_id.localeCompare(b.episode_id)));
    });

    // A finished run, run again, makes no request at all.
    const before = server.requests.length;
    const third = await sociometer(args).done;
    expect(third.code).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(third.stdout).toContain(`0 judged, 0 failed (raw answers kept in table judgments), ${n} already done before`);
  });

  it("keeps the API key out of the store file, stdout, stderr and errors", async () => {
    const db = await storeWith(3);
    // First an endpoint that echoes the key back in its error, as some do.
    server = await startOpenAIServer((_, i) => ({kind: "status", status: 401, message: `Incorrect API key provided: ${server!.requests[i].authorization}`}));
    const base = ["judge", "sotopia-eval", "--model", "gpt-4o-mini", "--base-url", server.url, "--db", db];
    const rejected = await sociometer(base).done;
    expect(server.requests[0].authorization).toBe(`Bearer ${KEY}`);
    expect(rejected.code).toBe(3);
    expect(rejected.stdout).toContain("Incorrect API key provided: Bearer ***");
    server.setScript(answering(0));
    const ok = await sociometer(base).done;
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("3 judged");
    const dry = await sociometer([...base, "--dry-run", "--run-id", "other"]).done;
    const usage = await sociometer([...base, "--concurrency", "zero"]).done;
    expect(usage.stderr).toContain("--concurrency must be a whole number ≥ 1, not zero");
    for (const out of [rejected, ok, dry, usage]) {
      expect(out.stdout + out.stderr).not.toContain(KEY);
      expect(out.stdout + out.stderr).not.toContain(KEY.slice(8));
    }
    for (const file of [db, `${db}.wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(KEY.slice(8)))).toBe(false);
    }
    await inspect(db, async (q) => {
      expect(await q("SELECT endpoint FROM judge_runs")).toEqual([{endpoint: server!.url}]);
      expect(await storedHits(q, KEY.slice(8))).toEqual([]);
      // The scan itself finds what is there.
      expect(await storedHits(q, "Scenario number 1: a shared desk")).toEqual(expect.arrayContaining(["episodes.scenario", "llm_calls.request"]));
    });
  });

  it("keeps a 3-character key and a base URL's password out of every message, the top-level error included", async () => {
    const db = await storeWith(1);
    server = await startOpenAIServer((_, i) => ({kind: "status", status: 401, message: `Incorrect API key provided: ${server!.requests[i].authorization}. Key abc refused.`}));
    const short = (args: string[]) => run(args, "abc").done;
    const rejected = await short(["judge", "sotopia-eval", "--model", "m", "--base-url", server.url, "--db", db]);
    expect(rejected.stdout).toContain("Incorrect API key provided: Bearer ***. Key *** refused.");
    // An error raised before any request, reported by the CLI's top-level handler, quoting the argument it refused.
    const badId = await short(["judge", "sotopia-eval", "--model", "m", "--base-url", server.url, "--db", db, "--run-id", "my abc run"]);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toBe('sociometer: --run-id may hold letters, digits and . : @ + - _ only, not "my *** run"\n');
    const withPassword = ["judge", "sotopia-eval", "--model", "m", "--base-url", "http://me:pa55word-xyz@127.0.0.1:9/v1", "--db", db];
    const quoted = await short([...withPassword, "--run-id", "x pa55word-xyz"]);
    expect(quoted.stderr).toBe('sociometer: --run-id may hold letters, digits and . : @ + - _ only, not "x ***"\n');
    const refused = await short(withPassword);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("sociometer: the base URL http://127.0.0.1:9/v1 holds a user name or password");
    expect(refused.stderr).toContain("give the key in OPENAI_API_KEY (sent as a bearer token), or put a proxy");
    for (const out of [rejected, badId, quoted, refused]) {
      expect(out.stdout + out.stderr).not.toMatch(/\babc\b/);
      expect(out.stdout + out.stderr).not.toContain("pa55word");
    }
    await inspect(db, async (q) => expect(await storedHits(q, "pa55word")).toEqual([]));
  });
});
