// An endpoint that echoes the key it was sent, in its answers and in its
// errors, plainly, URL-encoded and in base64: `sociometer judge` keeps every
// form out of the store file, stdout and stderr, and the site's ratings loader
// ships none (it also hides a key-shaped string the judge never knew).

import {spawn} from "node:child_process";
import {closeSync, existsSync, openSync, readFileSync} from "node:fs";
import {join} from "node:path";
import {afterEach, describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {fakeKey} from "../helpers/fake-key.js";
import {REPO} from "../helpers/fixtures.js";
import {lastUser, startOpenAIServer, type OpenAIServer} from "../helpers/openai-server.js";
import {tempDir, writeFile} from "../helpers/store.js";
import {inspect, sociometer} from "./child.js";

const KEY = fakeKey("proj-EchoedBack-7Hq2Lm9Vx4Rt8Zp1");
/** A key-shaped string no command was given: only the site's pattern can know it. */
const UNKNOWN_KEY = fakeKey("other-Unknown0123456789abcdef");
const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** Every way the server below says the key. */
const ECHOES = [
  `the key you used is ${KEY}.`,
  `Authorization: Bearer ${KEY}`,
  `base64: ${b64(KEY)}`,
  `header in base64: ${b64(`Bearer ${KEY}`)}`,
  `basic: ${b64(`user:${KEY}`)}`,
  `url-safe body: ${b64url(JSON.stringify({authorization: `Bearer ${KEY}`}))}`,
  `url-encoded: ${encodeURIComponent(`Bearer ${KEY}`)}`,
].join(" ");

/**
 * What must appear nowhere: the key and its base64 forms, and the inner parts
 * of the base64 texts that hold it after a prefix (their edge characters also
 * encode the prefix and the end, so they are not the key's alone).
 */
const NEEDLES = [
  KEY, KEY.slice(8), encodeURIComponent(KEY), b64(KEY), b64(`Bearer ${KEY}`),
  b64(`user:${KEY}`).slice(8, -4), b64url(JSON.stringify({authorization: `Bearer ${KEY}`})).slice(24, -12),
];

const scenario = (prompt: string) => Number(/Scenario number (\d+)/.exec(prompt)?.[1]);
/** A valid sotopia-eval answer whose every rationale repeats the echoes. */
const echoingAnswer = () => {
  const agent = () => Object.fromEntries(SOTOPIA_DIMENSIONS.map((d) => [d.key, {rationale: `fine; ${ECHOES}`, score: d.lo}]));
  return JSON.stringify({agent_1: agent(), agent_2: agent()});
};

/** Which needles `text` holds. */
const found = (text: string | Buffer) => NEEDLES.filter((n) => text.includes(n));

/** Runs the ratings loader over `db`; returns its Parquet output. */
function ratingsLoader(db: string, out: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const fd = openSync(out, "w");
    const child = spawn("npx", ["tsx", "src/data/ratings.parquet.ts"], {cwd: REPO, env: {...process.env, SOCIOMETER_DB: db}, stdio: ["ignore", fd, "inherit"]});
    child.on("error", reject);
    child.on("close", (code) => {
      closeSync(fd);
      if (code === 0) resolve(readFileSync(out));
      else reject(new Error(`ratings loader exited with ${code}`));
    });
  });
}

let server: OpenAIServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("a key echoed back by the endpoint", () => {
  it("is redacted from answers, raw answers, rationales, errors and the ratings loader's Parquet", async () => {
    const dir = tempDir();
    const db = join(dir, "store.duckdb");
    const store = await openStore(db);
    const records = Array.from({length: 3}, (_, i) => dumpRecord(`e${i}`, {scenario: `Scenario number ${i}: a shared desk`}));
    await importFiles(store, "sotopia", [writeFile(dir, "episodes.jsonl", jsonl(records))]);
    store.close();

    // Episodes 0 and 1 get valid answers full of the key; episode 2 never gets JSON, so its raw answer is kept.
    server = await startOpenAIServer((body) => ({
      kind: "answer", servedModel: `model for ${KEY}`,
      content: scenario(lastUser(body)) === 2 ? `no JSON, only ${ECHOES}` : echoingAnswer(),
    }));
    const judge = ["judge", "sotopia-eval", "--model", "gpt-4o-mini", "--base-url", server.url, "--db", db, "--repairs", "0"];
    const answered = await sociometer(judge, KEY).done;
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain("2 judged, 1 failed");
    // Then a 401 whose body echoes the key in every form, to a run of another model (nothing cached to answer it).
    server.setScript(() => ({kind: "status", status: 401, message: `Incorrect API key. ${ECHOES}`}));
    const refused = await sociometer(judge.map((a) => (a === "gpt-4o-mini" ? "gpt-4o" : a)), KEY).done;
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain("Incorrect API key. the key you used is ***.");
    expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    // And a third model through the Batch API, whose output file carries the echoes.
    server.setScript((body) => ({kind: "answer", content: scenario(lastUser(body)) === 2 ? `no JSON, only ${ECHOES}` : echoingAnswer()}));
    const batched = judge.map((a) => (a === "gpt-4o-mini" ? "gpt-4.1" : a));
    const submitted = await sociometer([...batched, "--batch", "--run-id", "batched"], KEY).done;
    expect(submitted.code).toBe(0);
    const collected = await sociometer(["judge", "--collect", "batched", "--wait", "--poll", "0.05", "--base-url", server.url, "--db", db], KEY).done;
    expect(collected.code).toBe(0);

    for (const out of [answered, refused, submitted, collected]) {
      expect(found(out.stdout)).toEqual([]);
      expect(found(out.stderr)).toEqual([]);
    }
    for (const file of [db, `${db}.wal`]) if (existsSync(file)) expect(found(readFileSync(file))).toEqual([]);
    await inspect(db, async (q) => {
      // Read through SQL too: a byte scan misses compressed strings.
      const texts = await q<{t: string}>(`
        SELECT CAST(response AS VARCHAR) AS t FROM llm_calls UNION ALL SELECT CAST(raw AS VARCHAR) FROM judgments WHERE raw IS NOT NULL
        UNION ALL SELECT CAST(rationale AS VARCHAR) FROM ratings WHERE rater IN ('gpt-4o-mini', 'gpt-4.1')`);
      // Per model: 3 answers, 1 failed judgment, 2 episodes × 2 agents × the dimensions.
      expect(texts.length).toBe(2 * (3 + 1 + 2 * 2 * SOTOPIA_DIMENSIONS.length));
      for (const {t} of texts) {
        expect(found(t)).toEqual([]);
        expect(t).toContain("the key you used is ***.");
      }
      // What the redaction left of each echo.
      const [{t: rationale}] = await q<{t: string}>("SELECT rationale AS t FROM ratings WHERE rater = 'gpt-4o-mini' LIMIT 1");
      // The edge characters of a base64 text mix the key's first and last bits with its neighbours': they stay.
      expect(rationale).toBe("fine; the key you used is ***. Authorization: Bearer *** base64: *** header in base64: *** basic: dXNlcjp***Q== " +
        "url-safe body: eyJhdXRob3JpemF0aW9uIjoi***In0 url-encoded: Bearer%20***");
    });

    // The site: a key no command knew, written into a rationale, is hidden by the loader's pattern.
    const writer = await openStore(db);
    await writer.conn.run("UPDATE ratings SET rationale = $1 WHERE rater = 'gpt-4o-mini' AND dimension = 'goal'", [`leaked ${UNKNOWN_KEY} here`]);
    writer.close();
    const parquet = await ratingsLoader(db, join(dir, "ratings.parquet"));
    expect(found(parquet)).toEqual([]);
    const reader = await openStore(join(dir, "probe.duckdb"));
    const shipped = await rows<{rationale: string}>(reader.conn, `SELECT rationale FROM '${join(dir, "ratings.parquet")}' WHERE rater = 'gpt-4o-mini' AND dimension = 'goal'`);
    const all = await rows<{rationale: string}>(reader.conn, `SELECT rationale FROM '${join(dir, "ratings.parquet")}'`);
    reader.close();
    expect(shipped.map((r) => r.rationale)).toEqual(Array(4).fill("leaked [redacted] here"));
    for (const {rationale} of all) {
      expect(found(rationale)).toEqual([]);
      expect(rationale).not.toContain(UNKNOWN_KEY);
    }
  }, 120_000);
});
