// What the table explorer ships from a store, through its two loaders run as
// Framework runs them: every table found through information_schema (one
// added after the fact included), credential columns withheld, key-shaped text
// redacted and counted, absolute paths cut to file names, and the row limit
// with the store's count kept for "showing N of M".

import {writeFileSync} from "node:fs";
import {join} from "node:path";
import {DuckDBInstance} from "@duckdb/node-api";
import {describe, expect, it} from "vitest";
import {rows} from "../../loaders/store/db.js";
import {EXPLORER_ROW_LIMIT, explorerPaths, explorerRowLimit, KEY_PATTERN, planTable, type ExplorerManifest} from "../../src/data/explorer-tables.js";
import {tempStore} from "../helpers/store.js";
import {fakeKey} from "../helpers/fake-key.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";

const OPENAI_KEY = fakeKey("proj-AbCdEfGhIjKlMnOpQrStUvWx0123");
const BEARER = "Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig";

/** Runs a loader file with the store and row limit set (in this process); returns its stdout bytes, also written to `out`. */
async function runLoader(file: string, args: string[], env: Record<string, string>, out: string): Promise<Buffer> {
  const bytes = await runLoaderInProcess(file, {args, env: {...process.env, ...env}});
  writeFileSync(out, bytes);
  return bytes;
}

/** A store with key-shaped text in messages, a model call with its request, and a table a later migration might add. */
async function storeWithSecrets() {
  const store = await tempStore();
  const {conn} = store;
  await conn.run(`INSERT INTO sources VALUES ('s1', '/home/someone/private/logs/run-7.jsonl', 'sotopia', 'abc', 10, TIMESTAMP '2025-01-02 03:04:05', 1, 0, NULL)`);
  await conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id, settings) VALUES ('e1', 'sotopia', 's1', '{"note": "api_key=abcdef123456"}')`);
  const contents = ["hello", `my key is ${OPENAI_KEY}, keep it`, `Authorization: ${BEARER}`, "<script>alert(1)</script>", `again ${OPENAI_KEY}`];
  for (const [seq, content] of contents.entries()) {
    await conn.run("INSERT INTO messages VALUES ('e1', $1, $1, 1, 'speak', $2)", [seq, content]);
  }
  await conn.run(`INSERT INTO llm_calls (hash, model, request, response, prompt_tokens, completion_tokens, cost, created_at) VALUES ('h1', 'gpt-4', '{"headers": {"Authorization": "${BEARER}"}}', '{"text": "ok"}', 10, 2, 0.001, TIMESTAMP '2025-01-02 03:04:05')`);
  // As another engineer's migration might: a token column, JSON, and a list holding a key.
  await conn.run(`CREATE TABLE later_benchmark_runs (run_id VARCHAR, auth_token VARCHAR, config JSON, score DOUBLE, notes VARCHAR[], started DATE)`);
  await conn.run(`INSERT INTO later_benchmark_runs VALUES ('r1', 'tok-123', '{"temperature": 0.7}', 0.5, ['fine', 'used ${OPENAI_KEY}'], DATE '2025-03-04')`);
  store.close();
  return store;
}

describe("explorer tables", () => {
  it("lists every store table with its columns and counts, withholds credentials, and counts the redactions in the shipped rows", async () => {
    const store = await storeWithSecrets();
    const out = join(store.dir, "manifest.json");
    const manifest = JSON.parse((await runLoader("src/data/explorer-manifest.json.ts", [], {SOCIOMETER_DB: store.path, SOCIOMETER_EXPLORER_ROWS: "3"}, out)).toString()) as ExplorerManifest;
    const table = (name: string) => manifest.tables.find((t) => t.name === name)!;
    expect(manifest.rowLimit).toBe(3);
    for (const name of ["sources", "episodes", "participants", "messages", "ratings", "dimensions", "llm_calls", "later_benchmark_runs"]) expect(table(name), name).toBeDefined();

    // Found without being named anywhere in the explorer's code.
    expect(table("later_benchmark_runs").columns).toEqual([
      {name: "run_id", type: "VARCHAR", storeType: "VARCHAR"},
      {name: "config", type: "VARCHAR", storeType: "JSON", note: "shipped as text (JSON in the store)"},
      {name: "score", type: "DOUBLE", storeType: "DOUBLE"},
      {name: "notes", type: "VARCHAR[]", storeType: "VARCHAR[]"},
      {name: "started", type: "DATE", storeType: "DATE"},
    ]);
    expect(table("later_benchmark_runs").withheld).toEqual([{name: "auth_token", storeType: "VARCHAR", reason: "its name says it may hold a credential: not shipped"}]);
    expect(table("later_benchmark_runs").redactedCells).toBe(1);
    expect(table("llm_calls").withheld.map((w) => w.name)).toEqual(["request", "response"]);
    expect(table("llm_calls").columns.map((c) => c.name)).toEqual(expect.arrayContaining(["hash", "model", "prompt_tokens", "completion_tokens", "cost", "created_at"]));
    expect(table("llm_calls").columns.map((c) => c.name)).not.toContain("request");

    // Five messages, three shipped; two of those three hold a key-shaped string (the fifth one does too, but is not shipped).
    expect(table("messages")).toMatchObject({rows: 5, shippedRows: 3, redactedCells: 2, file: "data/tables/messages.parquet"});
    expect(table("episodes")).toMatchObject({rows: 1, shippedRows: 1, redactedCells: 1});
    expect(table("sources").columns.find((c) => c.name === "path")?.note).toMatch(/file name only/);
    expect(manifest.pageData).toContainEqual({name: "ratings", file: "data/ratings.parquet"});
  }, 60_000);

  it("ships the first rows up to the limit with keys replaced, paths cut to file names and withheld columns absent", async () => {
    const store = await storeWithSecrets();
    const read = async (table: string) => {
      const file = join(store.dir, `${table}.parquet`);
      await runLoader("src/data/tables/[table].parquet.ts", [`--table=${table}`], {SOCIOMETER_DB: store.path, SOCIOMETER_EXPLORER_ROWS: "3"}, file);
      const db = await DuckDBInstance.create(":memory:");
      const conn = await db.connect();
      try {
        return await rows(conn, `SELECT * FROM read_parquet('${file}')`);
      } finally {
        conn.closeSync();
        db.closeSync();
      }
    };
    expect((await read("messages")).map((m) => m.content)).toEqual(["hello", "my key is [redacted], keep it", "[redacted]"]);
    expect((await read("sources"))[0].path).toBe("run-7.jsonl");
    const [call] = await read("llm_calls");
    expect(call).toMatchObject({hash: "h1", model: "gpt-4", prompt_tokens: 10, completion_tokens: 2, cost: 0.001});
    expect(Object.keys(call)).not.toContain("request");
    expect(Object.keys(call)).not.toContain("response");
    const [run] = await read("later_benchmark_runs");
    expect(run).toMatchObject({run_id: "r1", config: '{"temperature": 0.7}', score: 0.5, notes: ["fine", "used [redacted]"]});
    expect(run).not.toHaveProperty("auth_token");
    expect((await read("episodes"))[0].settings).toBe('{"note": "[redacted]"}');
  }, 60_000);

  it("refuses a table the store does not have, and a row limit that is not a positive whole number", async () => {
    const store = await storeWithSecrets();
    await expect(runLoader("src/data/tables/[table].parquet.ts", ["--table=nope"], {SOCIOMETER_DB: store.path}, join(store.dir, "x"))).rejects.toThrow(/the store has no table "nope"/);
    expect(explorerRowLimit({})).toBe(EXPLORER_ROW_LIMIT);
    expect(explorerRowLimit({SOCIOMETER_EXPLORER_ROWS: "250000"})).toBe(250_000);
    for (const bad of ["0", "-5", "1e6", "lots"]) expect(() => explorerRowLimit({SOCIOMETER_EXPLORER_ROWS: bad}), bad).toThrow(/positive whole number/);
  }, 60_000);

  it("gives the config one fixed address per store table and per page data file", async () => {
    const store = await storeWithSecrets();
    const paths = await explorerPaths(store.path);
    expect(paths).toContain("/data/tables/later_benchmark_runs.parquet");
    expect(paths).toContain("/data/tables/messages.parquet");
    expect(paths).toContain("/data/ratings.parquet");
    expect(paths).toContain("/data/words-per-turn.parquet");
    expect(await explorerPaths(join(store.dir, "missing.duckdb"))).not.toContain("/data/tables/messages.parquet");
  }, 60_000);

  it("decides column by column: credentials by name (not token counts), binary withheld, odd types as text", () => {
    const plan = planTable("t", [
      {name: "prompt_tokens", type: "INTEGER"}, {name: "api_key", type: "VARCHAR"}, {name: "x_auth", type: "VARCHAR"},
      {name: "author", type: "VARCHAR"}, {name: "blob", type: "BLOB"}, {name: "s", type: "STRUCT(a INTEGER)"}, {name: "ts", type: "TIMESTAMP"},
    ]);
    expect(plan.columns.map((c) => [c.name, c.type])).toEqual([["prompt_tokens", "INTEGER"], ["author", "VARCHAR"], ["s", "VARCHAR"], ["ts", "TIMESTAMP"]]);
    expect(plan.withheld.map((w) => w.name)).toEqual(["api_key", "x_auth", "blob"]);
  });

  it("recognises common key shapes and leaves ordinary text alone", async () => {
    const db = await DuckDBInstance.create(":memory:");
    const conn = await db.connect();
    try {
      const redacted = async (text: string) => {
        const [r] = await rows<{out: string}>(conn, "SELECT regexp_replace($1, $2, '[redacted]', 'g') AS out", [text, KEY_PATTERN]);
        return r.out;
      };
      expect(await redacted("use hf_abcdefghijklmnopqrstuvwxyz123 now")).toBe("use [redacted] now");
      expect(await redacted("AKIAABCDEFGHIJKLMNOP")).toBe("[redacted]");
      expect(await redacted("token ghp_abcdefghijklmnopqrstuvwxyz0123456789")).toBe("token [redacted]");
      expect(await redacted('{"api_key": "abc123def456"}')).toBe('{"[redacted]"}');
      expect(await redacted("x-api-key=Zyx987654321")).toBe("[redacted]");
      expect(await redacted(`(${["sk", "proj", "abcdefghijklmnop1234"].join("-")})`)).toBe("([redacted])");
      // Ids that merely contain "sk-" and 16 or more key characters after it are no keys (two of them must not become one "a[redacted]").
      for (const plain of ["a sketchy task-list", "prompt_tokens: 1234", "the secret is safe with me", "Bearer of bad news",
        "ask-for-help-homework", "task-scheduling-appt-17"]) {
        expect(await redacted(plain), plain).toBe(plain);
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});
