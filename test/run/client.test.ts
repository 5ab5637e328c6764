// The real `openai` client against the local server: each scripted behaviour,
// then what the store's cache holds.

import {afterEach, describe, expect, it} from "vitest";
import {readFileSync} from "node:fs";
import {rows} from "../../loaders/store/db.js";
import {createChat, displayEndpoint, redact, type ClientOptions} from "../../loaders/run/client.js";
import {requestHash} from "../../loaders/run/cache.js";
import {costOf, loadPrices, priceEntry, priceOf} from "../../loaders/run/prices.js";
import {pricedAsNote} from "../../loaders/cli/judge.js";
import type {ChatRequest} from "../../loaders/run/chat.js";
import {lastUser, startOpenAIServer, type OpenAIServer, type Script} from "../helpers/openai-server.js";
import {tempDir, tempStore, writeFile} from "../helpers/store.js";
import {fakeKey} from "../helpers/fake-key.js";

const KEY = fakeKey("test-CLIENT-9f8e7d6c5b4a");
const FAST = {baseMs: 5, maxMs: 20};
let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(script: Script) {
  server = await startOpenAIServer(script);
  return server;
}

const request = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({model: "gpt-4o-mini", messages: [{role: "user", content: text}], temperature: 0, ...extra});
const client = (s: OpenAIServer, o: ClientOptions = {}) => createChat({baseURL: s.url, apiKey: KEY, retry: FAST, ...o});

describe("chat client against a local OpenAI-compatible server", () => {
  it("sends the request, returns the answer with token counts, caches it with its cost, and asks nothing the second time", async () => {
    const store = await tempStore();
    const s = await serve((b) => ({kind: "answer", content: `echo: ${lastUser(b)}`, promptTokens: 1000, completionTokens: 200, servedModel: "gpt-4o-mini-2024-07-18", systemFingerprint: "fp_44709d6fcb"}));
    const c = client(s, {store, prices: loadPrices(), runId: "r1"});
    const first = await c.chat(request("hello", {json: true}));
    expect(first).toEqual({text: "echo: hello", promptTokens: 1000, completionTokens: 200, cached: false});
    expect(s.requests[0].body).toMatchObject({model: "gpt-4o-mini", temperature: 0, response_format: {type: "json_object"}, messages: [{role: "user", content: "hello"}]});
    expect(s.requests[0].authorization).toBe(`Bearer ${KEY}`);
    // gpt-4o-mini: $0.15 / M prompt and $0.60 / M completion → 1000·0.15e-6 + 200·0.6e-6 = 0.00027.
    const [call] = await rows<{hash: string; model: string; prompt_tokens: number; completion_tokens: number; cost: number; run_id: string; response: string}>(store.conn, "SELECT * FROM llm_calls");
    expect(call).toMatchObject({hash: requestHash(request("hello", {json: true}), c.endpoint), model: "gpt-4o-mini", prompt_tokens: 1000, completion_tokens: 200, run_id: "r1"});
    expect(call.cost).toBeCloseTo(0.00027, 12);
    // The served model and fingerprint are kept with the answer: what the endpoint says it ran, beside what was asked for.
    expect(JSON.parse(call.response)).toEqual({text: "echo: hello", finish_reason: "stop", endpoint: s.url, model: "gpt-4o-mini-2024-07-18", system_fingerprint: "fp_44709d6fcb", priced_as: "gpt-4o-mini"});

    const again = createChat({store, baseURL: s.url, apiKey: KEY});
    expect(await again.chat(request("hello", {json: true}))).toEqual({text: "echo: hello", promptTokens: 1000, completionTokens: 200, cached: true});
    expect(again.stats).toMatchObject({requests: 0, cached: 1});
    expect(s.requests).toHaveLength(1);
    // Any parameter or template version change is another request.
    await again.chat(request("hello", {json: true, template: "t@2"}));
    await again.chat(request("hello", {json: true, temperature: 0.7}));
    expect(s.requests).toHaveLength(3);
  });

  it("keeps samples apart in the cache without sending the sample", async () => {
    const store = await tempStore();
    let n = 0;
    const s = await serve(() => ({kind: "answer", content: `draw ${++n}`}));
    const c = client(s, {store});
    const ask = (sample?: string) => c.chat(request("same prompt", {template: "agent/v1", ...(sample ? {sample} : {})}));
    expect((await ask("run=a")).text).toBe("draw 1");
    expect((await ask("run=a repetition=2")).text).toBe("draw 2");
    expect((await ask("run=b")).text).toBe("draw 3");
    expect(await ask("run=a")).toMatchObject({text: "draw 1", cached: true});
    expect(s.requests).toHaveLength(3);
    expect(s.requests.every((r) => !("sample" in r.body) && !JSON.stringify(r.body).includes("run="))).toBe(true);
    // The key computed independently: sha256 of the key version, the endpoint and the request's fields in order.
    const {createHash} = await import("node:crypto");
    const key = (sample: string | null) => createHash("sha256").update(JSON.stringify(["v2", s.url, "gpt-4o-mini", [["user", "same prompt"]], 0, null, false, "agent/v1", sample])).digest("hex");
    expect(requestHash(request("same prompt", {template: "agent/v1"}), c.endpoint)).toBe(key(null));
    expect(requestHash(request("same prompt", {template: "agent/v1", sample: "run=a"}), c.endpoint)).toBe(key("run=a"));
  });

  it("the same model name on another endpoint is asked again, never answered from the first one's cache", async () => {
    const store = await tempStore();
    const ollama = await serve(() => ({kind: "answer", content: "answer of the q4 build"}));
    const vllm = await startOpenAIServer(() => ({kind: "answer", content: "answer of the fp16 build"}));
    try {
      expect((await client(ollama, {store}).chat(request("same prompt"))).text).toBe("answer of the q4 build");
      const other = client(vllm, {store});
      expect(await other.chat(request("same prompt"))).toMatchObject({text: "answer of the fp16 build", cached: false});
      expect(vllm.requests).toHaveLength(1);
      expect(await client(ollama, {store}).chat(request("same prompt"))).toMatchObject({text: "answer of the q4 build", cached: true});
      expect(await rows(store.conn, "SELECT response->>'endpoint' AS e, response->>'text' AS t FROM llm_calls ORDER BY t")).toEqual([
        {e: vllm.url, t: "answer of the fp16 build"}, {e: ollama.url, t: "answer of the q4 build"}]);
    } finally {
      await vllm.close();
    }
  });

  it("waits out a 429 for as long as Retry-After says, then succeeds", async () => {
    const s = await serve((_, n) => (n === 0 ? {kind: "status", status: 429, retryAfter: "0.3"} : {kind: "answer", content: "ok"}));
    const waits: number[] = [];
    const c = client(s, {onRetry: (r) => waits.push(r.delayMs)});
    expect((await c.chat(request("x"))).text).toBe("ok");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(300); // what it asks, plus up to 10% jitter
    expect(waits[0]).toBeLessThanOrEqual(330);
    expect(s.requests[1].at - s.requests[0].at).toBeGreaterThanOrEqual(290);
    expect(c.stats.retries).toBe(1);
  });

  it("retries 500s, a dropped connection and a too-slow answer, then succeeds", async () => {
    const plan: Script[] = [
      () => ({kind: "status", status: 500}),
      () => ({kind: "status", status: 503, retryAfterMs: 10}),
      () => ({kind: "drop"}),
      () => ({kind: "answer", content: "late", delayMs: 600}),
      () => ({kind: "answer", content: "fine"}),
    ];
    const s = await serve((b, n) => plan[n](b, n));
    const reasons: string[] = [];
    const c = client(s, {timeoutMs: 300, onRetry: (r) => reasons.push(r.reason)});
    expect((await c.chat(request("x"))).text).toBe("fine");
    expect(s.requests).toHaveLength(5);
    expect(reasons).toHaveLength(4);
    expect(reasons[0]).toContain("500");
    expect(reasons[3]).toMatch(/timed out/i);
  });

  it("gives up after the bound, and does not retry a 400", async () => {
    const s = await serve(() => ({kind: "status", status: 500}));
    const c = client(s, {retry: {...FAST, maxRetries: 2}});
    await expect(c.chat(request("x"))).rejects.toThrow(/500.*gave up after 3 attempts/);
    expect(s.requests).toHaveLength(3);
    s.setScript(() => ({kind: "status", status: 400, message: "bad model"}));
    await expect(c.chat(request("y"))).rejects.toThrow(/400 bad model \(not retried\)/);
    expect(s.requests).toHaveLength(4);
  });

  it("fails rather than wait longer than allowed when Retry-After asks too much", async () => {
    const s = await serve(() => ({kind: "status", status: 429, retryAfter: "3600"}));
    await expect(client(s).chat(request("x"))).rejects.toThrow(/asks to wait 3600 s, more than the 120 s allowed/);
    expect(s.requests).toHaveLength(1);
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const s = await serve((b) => ({kind: "answer", content: lastUser(b), delayMs: 40}));
    const c = client(s, {concurrency: 3});
    const answers = await Promise.all(Array.from({length: 12}, (_, i) => c.chat(request(`q${i}`))));
    expect(answers.map((a) => a.text)).toEqual(Array.from({length: 12}, (_, i) => `q${i}`));
    expect(s.maxConcurrent()).toBe(3);
  });

  it("never lets the key into error messages, even when the server echoes it", async () => {
    const s = await serve((_, n) => ({kind: "status", status: 401, message: `Incorrect API key provided: ${s.requests[n].authorization}`}));
    const error = await client(s).chat(request("x")).catch((e: Error) => e);
    expect(String((error as Error).message)).toContain("Incorrect API key provided: Bearer ***");
    expect(String((error as Error).message)).not.toContain(KEY);
    expect(redact(`a ${KEY} b ${KEY}`, [KEY])).toBe("a *** b ***");
    expect(displayEndpoint("https://user:pw@llm.example.com/v1/?key=abc")).toBe("https://llm.example.com/v1");
  });

  it("Retry-After: 0 or a date in the past still waits the backoff, never retries at once", async () => {
    for (const retryAfter of ["0", new Date(Date.now() - 60_000).toUTCString()]) {
      const s = await serve((_, n) => (n < 3 ? {kind: "status", status: 429, retryAfter} : {kind: "answer", content: "ok"}));
      const waits: number[] = [];
      const c = createChat({baseURL: s.url, apiKey: KEY, retry: {baseMs: 40, maxMs: 40}, onRetry: (r) => waits.push(r.delayMs)});
      expect((await c.chat(request("x"))).text).toBe("ok");
      expect(s.requests).toHaveLength(4);
      // The backoff draws between half and all of 40 ms; the server's 0 only sets a floor of 0.
      expect(waits.every((w) => w >= 20 && w <= 40)).toBe(true);
      const gaps = s.requests.slice(1).map((r, i) => r.at - s.requests[i]!.at);
      expect(gaps.every((g) => g >= 19)).toBe(true);
      await s.close();
      server = null;
    }
  });

  it("bounds a request's total time: no wait starts that would end past maxTotalMs", async () => {
    const s = await serve(() => ({kind: "status", status: 503}));
    let clock = 0;
    const waits: number[] = [];
    const c = createChat({baseURL: s.url, apiKey: KEY, retry: {baseMs: 1000, maxMs: 1000, maxRetries: 100, maxTotalMs: 2400},
      now: () => clock, sleep: async (ms) => { waits.push(ms); clock += ms; }});
    const error = await c.chat(request("x")).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^503 scripted 503 \(gave up after \d attempts: another wait of \d\.\d s would pass the 2\.4 s a request may take\)$/);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2400);
    expect(s.requests.length).toBe(waits.length + 1);
    expect(s.requests.length).toBeGreaterThanOrEqual(3); // two waits of at most 1000 ms each always fit
  });

  it("stops sending after 3 requests in a row fail with 401 (or 404, or no connection); a success in between resets the count", async () => {
    const s = await serve((_, n) => (n === 1 ? {kind: "answer", content: "ok"} : {kind: "status", status: 401, message: "Incorrect API key provided"}));
    const c = createChat({baseURL: s.url, apiKey: KEY, retry: FAST, concurrency: 1});
    const outcomes: string[] = [];
    for (let i = 0; i < 7; i++) outcomes.push(await c.chat(request(`q${i}`)).then((r) => r.text, (e: Error) => e.message));
    expect(s.requests).toHaveLength(5); // 401, ok, then three 401s in a row
    expect(outcomes.slice(0, 5)).toEqual(["401 Incorrect API key provided (not retried)", "ok", ...Array(3).fill("401 Incorrect API key provided (not retried)")]);
    expect(outcomes.slice(5)).toEqual(Array(2).fill("not sent: the endpoint failed 3 requests in a row (401 Incorrect API key provided); fix the key, host or path and run again"));
    // No server at all: connection failures count the same way (each after its own retries).
    const nowhere = createChat({baseURL: "http://127.0.0.1:9/v1", apiKey: KEY, retry: {...FAST, maxRetries: 1}});
    const messages: string[] = [];
    for (let i = 0; i < 4; i++) messages.push(await nowhere.chat(request(`q${i}`)).then((r) => r.text, (e: Error) => e.message));
    expect(messages.slice(0, 3).every((m) => /Connection error\. \(gave up after 2 attempts\)/.test(m))).toBe(true);
    expect(messages[3]).toMatch(/^not sent: the endpoint failed 3 requests in a row \(Connection error\.\)/);
  });

  it("redacts a short key too (a local server's 'abc'), as a whole token only, and anything after Bearer or api_key=", async () => {
    const s = await serve((_, n) => ({kind: "status", status: 401, message: `Incorrect API key provided: ${s.requests[n].authorization}. Your key abc was refused.`}));
    const error = await createChat({baseURL: s.url, apiKey: "abc", retry: FAST}).chat(request("x")).catch((e: Error) => e);
    expect(s.requests[0].authorization).toBe("Bearer abc");
    expect((error as Error).message).toBe("401 Incorrect API key provided: Bearer ***. Your key *** was refused. (not retried)");
    // A key that is a word is not blanked inside other words.
    expect(redact("run test-run: 3 judged by test-model; key test refused", ["test"])).toBe("run test-run: 3 judged by test-model; key *** refused");
    // Credentials in their usual places, whatever the key was.
    expect(redact('Authorization: Bearer sk-other-key; api_key=zz9 {"api-key": "q1"} API key provided: sk-ab**cd', [])).toBe(
      'Authorization: Bearer ***; api_key=*** {"api-key": "***"} API key provided: ***');
    // The workbench's own words are not a credential (a new user's refusal read "sent as a bearer ***, or put …").
    const own = "give the key in OPENAI_API_KEY (sent as a bearer token), or put a proxy in front";
    expect(redact(own, ["pa55word-xyz"])).toBe(own);
    // A capitalised scheme, or a value that is not a plain word, is still replaced; a plain word that is a secret too.
    expect(redact("bearer sk-live-9; Bearer token; bearer abc", ["abc"])).toBe("bearer ***; Bearer ***; bearer ***");
  });

  it("takes the key out of an answer in each of its forms, and leaves the model's words alone", async () => {
    const said = `I hate to be the bearer of bad news: the API key: none. Bearer ${KEY}, or ${Buffer.from(KEY).toString("base64")}; test passed.`;
    const s = await serve(() => ({kind: "answer", content: said}));
    const answer = await createChat({baseURL: s.url, apiKey: KEY, retry: FAST}).chat(request("x"));
    expect(answer.text).toBe("I hate to be the bearer of bad news: the API key: none. Bearer ***, or ***; test passed.");
    // A short key is a word an answer may use: answers keep it (errors and printed text do not, above).
    const local = await serve(() => ({kind: "answer", content: "the test passed"}));
    expect((await createChat({baseURL: local.url, apiKey: "test", retry: FAST}).chat(request("x"))).text).toBe("the test passed");
  });

  it("refuses a base URL with user:password at once, without the password, instead of retrying connection errors", () => {
    expect(() => createChat({baseURL: "http://me:s3cr3t-pw@127.0.0.1:9/v1"})).toThrow(
      "the base URL http://127.0.0.1:9/v1 holds a user name or password (user:password@host), which requests cannot carry");
    const message = (() => { try { createChat({baseURL: "http://me:s3cr3t-pw@127.0.0.1:9/v1"}); } catch (e) { return (e as Error).message; } })();
    expect(message).not.toContain("s3cr3t");
  });

  it("takes an empty or blank OPENAI_BASE_URL as unset, as the openai package does", () => {
    const saved = process.env.OPENAI_BASE_URL;
    try {
      for (const blank of ["", "  "]) {
        process.env.OPENAI_BASE_URL = blank;
        expect(createChat({apiKey: "k"}).endpoint).toBe("https://api.openai.com/v1");
      }
    } finally {
      if (saved === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = saved;
    }
  });
});

describe("price table", () => {
  it("prices a model by name or by its name without a date suffix, and reports bad tables by file and field", () => {
    const prices = loadPrices();
    expect(priceOf(prices, "gpt-4o-2024-08-06")).toEqual(priceOf(prices, "gpt-4o"));
    expect(priceOf(prices, "gpt-4-0613")).toEqual({input_per_million: 30, output_per_million: 60});
    // 1M prompt tokens and 0.5M completion tokens of gpt-4o: 2.5 + 5.
    expect(costOf(prices, "gpt-4o", 1e6, 5e5)).toBe(7.5);
    expect(costOf(prices, "llama-3-70b", 10, 10)).toBeNull();
    const file = writeFile(tempDir(), "p.json", JSON.stringify({models: {m: {input_per_million: -1, output_per_million: 1}}}));
    expect(() => loadPrices(file)).toThrow(`${file}: models.m.input_per_million: expected a number ≥ 0, got -1`);
    expect(readFileSync(new URL("../../config/prices.json", import.meta.url), "utf8")).toContain("USD per million");
  });

  it("prices known snapshots at their own price, and says which entry a fallback used", async () => {
    const prices = loadPrices();
    // The first gpt-4o snapshot and the June 2023 gpt-3.5-turbo cost more than their aliases do now.
    expect(priceEntry(prices, "gpt-4o-2024-05-13")).toEqual({key: "gpt-4o-2024-05-13", price: {input_per_million: 5, output_per_million: 15}, fallback: false});
    expect(costOf(prices, "gpt-4o-2024-05-13", 1e6, 5e5)).toBe(12.5); // 5 + 7.5, not gpt-4o's 7.5
    expect(costOf(prices, "gpt-3.5-turbo-0613", 1e6, 1e6)).toBe(3.5); // 1.5 + 2, not gpt-3.5-turbo's 2
    expect(priceEntry(prices, "gpt-4o-2024-11-20")).toEqual({key: "gpt-4o", price: {input_per_million: 2.5, output_per_million: 10}, fallback: true});
    expect(priceEntry(prices, "gpt-4o")?.fallback).toBe(false);
    const store = await tempStore();
    const s = await serve(() => ({kind: "answer", content: "ok", promptTokens: 1000, completionTokens: 0}));
    const c = client(s, {store, prices});
    await c.chat({...request("x"), model: "gpt-4o-2024-11-20"});
    await c.chat({...request("x"), model: "gpt-4o-2024-05-13"});
    expect(c.stats.pricedAs).toEqual({"gpt-4o-2024-11-20": "gpt-4o"});
    expect(await rows(store.conn, "SELECT model, response->>'priced_as' AS priced_as, cost FROM llm_calls ORDER BY model")).toEqual([
      {model: "gpt-4o-2024-05-13", priced_as: "gpt-4o-2024-05-13", cost: 0.005}, {model: "gpt-4o-2024-11-20", priced_as: "gpt-4o", cost: 0.0025}]);
    expect(pricedAsNote(c.stats.pricedAs)).toBe(" (gpt-4o-2024-11-20 priced as gpt-4o: no price for the snapshot in the table)");
  });
});
