// The store writes of the runners: group commits whose rows are gathered into
// one INSERT per table, cache lookups that share a query, and a client that
// returns an answer before it is kept (deferSave) without asking twice.

import {afterEach, describe, expect, it} from "vitest";
import type {DuckDBConnection} from "@duckdb/node-api";
import {rows, type Store} from "../../loaders/store/db.js";
import {cachedCall, requestHash, storeCall} from "../../loaders/run/cache.js";
import type {ChatRequest} from "../../loaders/run/chat.js";
import {createChat} from "../../loaders/run/client.js";
import {commitSoon} from "../../loaders/run/commits.js";
import {startOpenAIServer, type OpenAIServer} from "../helpers/openai-server.js";
import {count, tempStore} from "../helpers/store.js";

let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Counts the statements run on the store's connection that start with `prefix`. */
function statements(conn: DuckDBConnection, prefix: string): {n: number} {
  const seen = {n: 0};
  const run = conn.run.bind(conn);
  conn.run = ((sql: string, ...rest: unknown[]) => {
    if (sql.trimStart().startsWith(prefix)) seen.n++;
    return (run as (...a: unknown[]) => ReturnType<typeof run>)(sql, ...rest);
  }) as typeof conn.run;
  return seen;
}

const request = (i: number): ChatRequest => ({model: "m", messages: [{role: "user", content: `question ${i}`}], temperature: 0});

describe("group commits", () => {
  it("gathers the rows of writes queued together into one INSERT per table, in one transaction", async () => {
    const store = await tempStore();
    await store.conn.run("CREATE TABLE t (k INTEGER, v VARCHAR)");
    const inserts = statements(store.conn, "INSERT INTO t");
    const commits = statements(store.conn, "COMMIT");
    await Promise.all(Array.from({length: 50}, (_, i) => commitSoon(store, async (tx) => {
      tx.insert("t", "(?, ?)", [i, `row ${i}`]);
      tx.insert("t (k)", "(?)", [1000 + i]);
    })));
    // The first write starts a transaction alone; the 49 queued meanwhile form the second.
    expect(commits.n).toBe(2);
    expect(inserts.n).toBe(4); // two shapes of row per transaction
    expect(await count(store, "SELECT count(*) FROM t")).toBe(100);
    expect(await rows(store.conn, "SELECT k, v FROM t WHERE k IN (7, 1007) ORDER BY k")).toEqual([{k: 7, v: "row 7"}, {k: 1007, v: null}]);
  });

  it("gathered rows keep their values exactly: text with quotes, newlines and emoji, nulls, doubles, large integers, JSON", async () => {
    const store = await tempStore();
    await store.conn.run("CREATE TABLE t (s VARCHAR, d DOUBLE, i BIGINT, j JSON, made TIMESTAMP)");
    const values = [
      ['say "hi"\n\tand \\ leave 🙂', 0.1 + 0.2, 9_007_199_254_740_991, '{"text": "a \\"quoted\\" answer"}'],
      ["", 5, 0, "[]"],
      [null, -1e-300, -42, null],
    ];
    await Promise.all(values.map((v) => commitSoon(store, async (tx) => tx.insert("t", "(?, ?, ?, ?, now())", v))));
    const back = await rows<{s: string | null; d: number; i: number; j: string | null}>(store.conn, "SELECT s, d, i, j::VARCHAR AS j FROM t ORDER BY i DESC");
    expect(back.map((r) => [r.s, r.d, r.i, r.j === null ? null : JSON.parse(r.j)])).toEqual(values.map((v) => [v[0], v[1], v[2], v[3] === null ? null : JSON.parse(v[3] as string)]));
    expect(await count(store, "SELECT count(*) FROM t WHERE made IS NOT NULL")).toBe(3);
  });

  it("a write that fails does not take the others' gathered rows with it", async () => {
    const store = await tempStore();
    await store.conn.run("CREATE TABLE t (k INTEGER PRIMARY KEY)");
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((k) => commitSoon(store, async (tx) => {
      if (k === 3) throw new Error("write 3 is broken");
      tx.insert("t", "(?)", [k]);
    })));
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(await rows(store.conn, "SELECT k FROM t ORDER BY k")).toEqual([{k: 1}, {k: 2}, {k: 4}]);
  });
});

describe("cache lookups", () => {
  it("lookups made together share one query, hits and misses answered each", async () => {
    const store = await tempStore();
    for (const i of [1, 3]) await storeCall(store, {hash: requestHash(request(i), "http://local/v1"), request: request(i), text: `answer ${i}`, promptTokens: i, completionTokens: 2, finishReason: "stop", cost: null, runId: null, endpoint: "http://local/v1"});
    const selects = statements(await store.reader(), "SELECT hash");
    const found = await Promise.all([0, 1, 2, 3, 3].map((i) => cachedCall(store, requestHash(request(i), "http://local/v1"))));
    expect(selects.n).toBe(1);
    expect(found).toEqual([null, {text: "answer 1", promptTokens: 1, completionTokens: 2}, null,
      {text: "answer 3", promptTokens: 3, completionTokens: 2}, {text: "answer 3", promptTokens: 3, completionTokens: 2}]);
  });

  it("a lookup does not wait for a group commit in progress, and sees only what is committed", async () => {
    const store = await tempStore();
    const hashOf = (i: number) => requestHash(request(i), "http://local/v1");
    await storeCall(store, {hash: hashOf(1), request: request(1), text: "answer 1", promptTokens: 1, completionTokens: 2, finishReason: "stop", cost: null, runId: null, endpoint: "http://local/v1"});
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const started = new Promise<void>((r) => (inside = r));
    // A commit that stays open until released, with answer 2 written inside it.
    const commit = commitSoon(store, async (tx) => {
      tx.insert("llm_calls (hash, model, request, response, prompt_tokens, completion_tokens, cost, created_at, run_id)", "(?, ?, ?, ?, ?, ?, ?, now(), ?)",
        [hashOf(2), "m", "{}", JSON.stringify({text: "answer 2"}), 1, 1, null, null]);
      inside();
      await held;
    });
    await started;
    const during = await Promise.race([
      Promise.all([cachedCall(store, hashOf(1)), cachedCall(store, hashOf(2))]),
      new Promise<string>((r) => setTimeout(() => r("waited for the commit"), 2000)),
    ]);
    expect(during).toEqual([{text: "answer 1", promptTokens: 1, completionTokens: 2}, null]);
    release();
    await commit;
    expect(await cachedCall(store, hashOf(2))).toEqual({text: "answer 2", promptTokens: 1, completionTokens: 1});
  });
});

describe("a client that returns before the answer is kept (deferSave)", () => {
  it("gives `saved` to await, asks a repeated request once, and keeps the answer", async () => {
    const store = await tempStore();
    server = await startOpenAIServer(() => ({kind: "answer", content: "once", delayMs: 30}));
    const client = createChat({store, baseURL: server.url, apiKey: "sk-test", deferSave: true});
    const first = client.chat(request(1));
    const second = client.chat(request(1)); // the same request while the first is in flight
    const [a, b] = await Promise.all([first, second]);
    expect(a.saved).toBeInstanceOf(Promise);
    expect(b.text).toBe("once");
    // Asked again once answered, before `saved` is awaited: still no second request.
    const third = client.chat(request(1));
    await a.saved;
    expect((await third).text).toBe("once");
    expect(server.requests).toHaveLength(1);
    expect(await rows(store.conn, "SELECT json_extract_string(response, '$.text') AS text FROM llm_calls")).toEqual([{text: "once"}]);
    const plain = createChat({store, baseURL: server.url, apiKey: "sk-test"});
    expect(await plain.chat(request(2))).toEqual({text: "once", promptTokens: expect.any(Number), completionTokens: expect.any(Number), cached: false});
    expect(await count(store, "SELECT count(*) FROM llm_calls")).toBe(2); // kept before it was returned
  });
});
