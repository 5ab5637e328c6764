// Redaction of a key echoed only in part: any run of 16 or more characters of
// a secret goes, wherever it stands, beside the forms the key is echoed in
// whole (echoed-key.test.ts and client.test.ts cover those end to end).

import {afterEach, describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {rows} from "../../loaders/store/db.js";
import {createChat} from "../../loaders/run/client.js";
import {runJudge} from "../../loaders/run/judges/engine.js";
import {sotopiaEval} from "../../loaders/run/judges/sotopia-eval.js";
import {redact, redactAnswer} from "../../loaders/run/redact.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {fakeKey} from "../helpers/fake-key.js";
import {lastUser, startOpenAIServer, type OpenAIServer} from "../helpers/openai-server.js";
import {tempStore, writeFile} from "../helpers/store.js";

/** `sk-proj-` and 40 characters, as OpenAI's project keys are (longer in life). */
const REST = "T3BlbkFJ7q9Xw2Lm5Vr8Zk1Hd4Ns6Gy0Pc3Bf7Je";
const KEY = fakeKey(`proj-${REST}`);
/** Both redactions, which must agree on a key's runs. */
const both = (text: string, secrets: string[] = [KEY]) => [redact(text, secrets), redactAnswer(text, secrets)];

describe("a run of 16 or more characters of a key", () => {
  it("is redacted when the endpoint echoes the key without its sk-proj- prefix", () => {
    expect(REST).toHaveLength(40);
    expect(both(`you sent ${REST}, which is not valid`)).toEqual(Array(2).fill("you sent ***, which is not valid"));
    // A JSON string, a header value and a URL: the run is found whatever stands around it.
    expect(redactAnswer(`{"key":"${REST}"} x-key=${REST}&y=1 /v1/${REST}/models`, [KEY])).toBe('{"key":"***"} x-key=***&y=1 /v1/***/models');
  });

  it("is redacted in the middle of other text at 16 characters, and a run of 15 stays", () => {
    const run16 = KEY.slice(14, 30);
    const run15 = KEY.slice(14, 29);
    expect(both(`model said ${run16} then stopped`)).toEqual(Array(2).fill("model said *** then stopped"));
    expect(both(`model said ${run15} then stopped`)).toEqual(Array(2).fill(`model said ${run15} then stopped`));
  });

  it("redacts two runs apart, and leaves pieces under 16 that stand side by side", () => {
    expect(both(`first ${KEY.slice(8, 30)}, then ${KEY.slice(30)}.`)).toEqual(Array(2).fill("first ***, then ***."));
    // 12 + 10 characters of the key glued together are no run of it: nothing of the key is 16 long here.
    const pieces = `${KEY.slice(8, 20)}${KEY.slice(30, 40)}`;
    expect(both(`glued ${pieces} end`)).toEqual(Array(2).fill(`glued ${pieces} end`));
  });

  it("takes a run glued to key-like characters and leaves those characters, unless they continue the key", () => {
    // "Q" and "zz" are key characters but not the key's neighbours there: they stay.
    expect(both(`Q${KEY.slice(20, 40)}zz`)).toEqual(Array(2).fill("Q***zz"));
    // "proj-" is what precedes REST in the key: the whole maximal run goes, however it began.
    expect(both(`token proj-${REST}`)).toEqual(Array(2).fill("token ***"));
    // The key echoed twice in a row: two runs that only touch, as the whole key is replaced today.
    expect(both(`${REST}${REST}`)).toEqual(Array(2).fill("******"));
  });

  it("never leaves part of a run or of an encoded form when spans overlap", () => {
    // A second secret inside the key (a base URL's password, say): replaced first, it would have cut the run in two
    // pieces of 12 and 8, too short to match.
    expect(both(`echo ${REST} done`, [KEY, KEY.slice(20, 40)])).toEqual(Array(2).fill("echo *** done"));
    // A key with a "/" is URL-encoded as %2F: its run after the %2F lies inside the encoded form, and both go whole.
    const slashed = fakeKey("proj-Ab3dEf6hIj/Kl9nOp2rSt5vWx8zA1cD4fG7");
    expect(encodeURIComponent(slashed)).toBe("sk-proj-Ab3dEf6hIj%2FKl9nOp2rSt5vWx8zA1cD4fG7");
    expect(both(`q=${encodeURIComponent(slashed)}&x=1`, [slashed])).toEqual(Array(2).fill("q=***&x=1"));
    // The base64 of the key still goes as before, next to a run of it.
    const b64 = Buffer.from(KEY).toString("base64");
    expect(redactAnswer(`${b64} ${REST}`, [KEY])).toBe("*** ***");
  });

  it("leaves a key shorter than 16 to the rules for whole keys", () => {
    const short = "pa55-word-xyz12";
    expect(short).toHaveLength(15);
    expect(redactAnswer(`the ${short} and ${short.slice(1)}`, [short])).toBe(`the *** and ${short.slice(1)}`);
    expect(redact(`the ${short} and ${short.slice(1)}`, [short])).toBe(`the *** and ${short.slice(1)}`);
  });

  it("covers exactly the characters of the text that lie in some run of 16 of the key, on 400 generated texts", () => {
    // A small deterministic generator: pieces of the key of every length, key-like noise and separators.
    let seed = 12345;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const noise = "abcXYZ0189-_ .,";
    const starry = (text: string) => text.replace(/(\*\*\*)+/g, "***");
    for (let c = 0; c < 400; c++) {
      let text = "";
      for (let part = next(6) + 1; part > 0; part--) {
        if (next(2)) {
          const from = next(KEY.length);
          text += KEY.slice(from, from + next(30) + 1);
        } else {
          for (let k = next(8); k > 0; k--) text += noise[next(noise.length)];
        }
      }
      // The reference: every character inside a substring of the key of length ≥ 16, found by trying them all.
      const covered = Array<boolean>(text.length).fill(false);
      for (let i = 0; i < text.length; i++) {
        for (let j = i + 16; j <= text.length && KEY.includes(text.slice(i, j)); j++) covered.fill(true, i, j);
      }
      const expected = text.replace(/[^]/g, (ch, i: number) => (covered[i] ? "*" : ch)).replace(/\*+/g, "***");
      expect(starry(redactAnswer(text, [KEY])), text).toBe(expected);
    }
  });
});

let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("a judge whose endpoint echoes the key without its prefix", () => {
  it("stores the answers, raw answer, served model, fingerprint and rationales with the run redacted, and says no run in its errors", async () => {
    const store = await tempStore();
    const records = [0, 1].map((i) => dumpRecord(`e${i}`, {scenario: `Scenario number ${i}: a shared desk`}));
    await importFiles(store, "sotopia", [writeFile(store.dir, "episodes.jsonl", jsonl(records))]);
    const agent = () => Object.fromEntries(SOTOPIA_DIMENSIONS.map((d) => [d.key, {rationale: `you sent ${REST} to me`, score: d.lo}]));
    // Episode 0 gets a valid answer, episode 1 none that parses (its raw answer is kept).
    server = await startOpenAIServer((body) => ({
      kind: "answer", servedModel: `gpt-4o-mini for ${REST}`, systemFingerprint: `fp_${REST}`,
      content: lastUser(body).includes("Scenario number 0") ? JSON.stringify({agent_1: agent(), agent_2: agent()}) : `no JSON, only ${REST}`,
    }));
    const client = createChat({store, baseURL: server.url, apiKey: KEY, retry: {baseMs: 5, maxMs: 20}, runId: "r1"});
    const result = await runJudge(store, sotopiaEval, {model: "judge-m", chat: client.chat, endpoint: client.endpoint, runId: "r1", repairs: 0});
    expect(result).toMatchObject({items: 2, ok: 1, failed: 1});
    expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);

    const calls = await rows<{text: string; model: string; fp: string}>(store.conn,
      "SELECT response->>'text' AS text, response->>'model' AS model, response->>'system_fingerprint' AS fp FROM llm_calls ORDER BY text");
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => [c.model, c.fp])).toEqual(Array(2).fill(["gpt-4o-mini for ***", "fp_***"]));
    // Sorted, the answer that is no JSON comes first ("n" < "{").
    expect(calls[0].text).toBe("no JSON, only ***");
    expect(JSON.parse(calls[1].text).agent_1.goal.rationale).toBe("you sent *** to me");
    const rationales = await rows<{rationale: string}>(store.conn, "SELECT DISTINCT rationale FROM ratings WHERE rater = 'judge-m'");
    expect(rationales).toEqual([{rationale: "you sent *** to me"}]);
    expect(await rows(store.conn, "SELECT item, status, raw FROM judgments WHERE status = 'failed'")).toEqual([{item: "e1", status: "failed", raw: "no JSON, only ***"}]);

    // A refusal that quotes the run, to another model (nothing cached answers it): the error says ***.
    server.setScript(() => ({kind: "status", status: 401, message: `Incorrect API key ending ${REST}`}));
    const refused = await runJudge(store, sotopiaEval, {model: "judge-n", chat: client.chat, endpoint: client.endpoint, runId: "r2", repairs: 0});
    expect(refused.unfinished.map((u) => u.error)).toEqual(Array(2).fill("401 Incorrect API key ending *** (not retried)"));

    // Nothing in any text column of the store holds 16 characters of the key.
    const texts = await rows<{t: string}>(store.conn, `
      SELECT CAST(response AS VARCHAR) AS t FROM llm_calls UNION ALL SELECT raw FROM judgments WHERE raw IS NOT NULL
      UNION ALL SELECT rationale FROM ratings WHERE rater = 'judge-m'`);
    expect(texts.length).toBe(2 + 1 + 2 * SOTOPIA_DIMENSIONS.length);
    for (const {t} of texts) expect(t).not.toContain(KEY.slice(20, 36));
    store.close();
  });
});
