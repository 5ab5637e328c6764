// Child process for test/import/commit-faults.test.ts: commits, through the
// WAL, an import-like transaction whose scores fill a row group (130,000 rows,
// which DuckDB writes to the database file and logs as pointers), then kills
// itself before anything checkpoints. Usage: tsx torn-commit.ts STORE
import {DuckDBInstance} from "@duckdb/node-api";

const instance = await DuckDBInstance.create(process.argv[2]);
const conn = await instance.connect();
await conn.run("SET checkpoint_threshold = '1TB'");
const [[episode]] = (await conn.runAndReadAll("SELECT episode_id FROM episodes ORDER BY 1 LIMIT 1")).getRows();
await conn.run("BEGIN TRANSACTION");
await conn.run("INSERT INTO episodes (episode_id, benchmark, source_id) VALUES ('torn-1', 'sotopia', 'tornsource000001')");
await conn.run("INSERT INTO ratings SELECT $1, 1, 'goal', 'rater-' || i, 'llm', 5, NULL, '', 'tornsource000001' FROM range(130000) t(i)", [String(episode)]);
await conn.run("INSERT INTO sources VALUES ('tornsource000001', '/torn.jsonl', 'sotopia', 'x', 1, now(), 1, 0, NULL)");
await conn.run("COMMIT");
process.kill(process.pid, "SIGKILL");
