// `sociometer export --dataset DIR`: DuckDB reads the Hive-partitioned dataset
// back with every table's rows, row for row, and the partitions hold what
// their names say.

import {DuckDBInstance} from "@duckdb/node-api";
import {existsSync, readFileSync, readdirSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {exportDataset, type DatasetManifest} from "../../loaders/store/dataset.js";
import {rows} from "../../loaders/store/db.js";
import {cli} from "../helpers/cli.js";
import {tempDir, tempSamplesStore, writeFile} from "../helpers/store.js";

/** How the docs tell a reader to open a table: hive partitioning on, partition values kept as text. */
const readTable = (dir: string, files: string): string =>
  `read_parquet('${join(dir, files).replaceAll("'", "''")}', hive_partitioning = true, hive_types_autocast = false)`;

describe("export --dataset", () => {
  it("writes every table so that DuckDB reads back the same rows, partitioned by each episode's benchmark and source", async () => {
    const store = await tempSamplesStore();
    const dir = join(tempDir(), "dataset");
    const manifest = await exportDataset(store.conn, dir);

    const storeTables = await rows<{name: string}>(
      store.conn,
      "SELECT table_name AS name FROM duckdb_tables() WHERE schema_name = 'main' AND table_name NOT IN ('schema_migrations', 'llm_calls') ORDER BY table_name",
    );
    expect(manifest.tables.map((t) => t.name)).toEqual(storeTables.map((t) => t.name));
    expect(JSON.parse(readFileSync(join(dir, "dataset.json"), "utf8"))).toEqual(manifest);

    const reader = await (await DuckDBInstance.create(":memory:")).connect();
    for (const t of manifest.tables) {
      const [{n}] = await rows<{n: number}>(store.conn, `SELECT count(*)::INTEGER AS n FROM "${t.name}"`);
      expect(t.rows, t.name).toBe(n);
      const [{back}] = await rows<{back: number}>(reader, `SELECT count(*)::INTEGER AS back FROM ${readTable(dir, t.files)}`);
      expect(back, t.name).toBe(n);
    }
    // The samples have rows in the core tables, so these are partitioned, and the empty ones whole.
    const byName = new Map(manifest.tables.map((t) => [t.name, t]));
    for (const name of ["episodes", "participants", "messages", "ratings"]) expect(byName.get(name)?.partitionedBy).toEqual(["benchmark", "source"]);
    expect(byName.get("sources")?.partitionedBy).toEqual([]);
    expect(byName.get("dimensions")?.partitionedBy).toEqual([]);

    // Row for row: the messages read back, without the partition keys, are the store's (both ways, duplicates counted).
    const back = `SELECT * EXCLUDE (benchmark, source) FROM ${readTable(dir, byName.get("messages")!.files)}`;
    const [{n: messages}] = await rows<{n: number}>(store.conn, "SELECT count(*)::INTEGER AS n FROM messages");
    await store.conn.run(`CREATE TEMP TABLE back_messages AS SELECT * FROM (${back})`);
    const [{missing, extra}] = await rows<{missing: number; extra: number}>(
      store.conn,
      `SELECT (SELECT count(*) FROM (SELECT * FROM messages EXCEPT ALL SELECT * FROM back_messages))::INTEGER AS missing,
              (SELECT count(*) FROM (SELECT * FROM back_messages EXCEPT ALL SELECT * FROM messages))::INTEGER AS extra`,
    );
    expect({missing, extra, messages: messages > 0}).toEqual({missing: 0, extra: 0, messages: true});

    // Each partition holds its episodes' rows: counts per (benchmark, source) as the store's join gives them.
    const expected = await rows<{benchmark: string; source: string; n: number}>(
      store.conn,
      `SELECT e.benchmark, e.source_id AS source, count(*)::INTEGER AS n FROM ratings r JOIN episodes e USING (episode_id) GROUP BY ALL ORDER BY ALL`,
    );
    const found = await rows<{benchmark: string; source: string; n: number}>(
      reader,
      `SELECT benchmark, source, count(*)::INTEGER AS n FROM ${readTable(dir, byName.get("ratings")!.files)} GROUP BY ALL ORDER BY ALL`,
    );
    expect(found).toEqual(expected);
    expect(expected.length).toBeGreaterThan(1);
    expect(readdirSync(join(dir, "ratings")).sort()).toEqual([...new Set(expected.map((r) => `benchmark=${r.benchmark}`))].sort());
  });

  it("refuses a folder that is not empty and leaves it as it was; the CLI says so and exits 2 like its other errors", async () => {
    const store = await tempSamplesStore();
    const dir = tempDir();
    writeFile(dir, "notes.txt", "mine");
    await expect(exportDataset(store.conn, dir)).rejects.toThrow(`${dir} exists and is not empty: name a new folder (an export never writes over files)`);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    store.close();
    const run = await cli(["export", "--dataset", dir, "--db", join(store.dir, "test.duckdb")]);
    expect(run.stderr).toContain(`${dir} exists and is not empty`);
    expect(run.code).toBe(2);
  });

  it("writes the dataset from the CLI and says how many tables and rows", async () => {
    const store = await tempSamplesStore();
    const [{n: episodes}] = await rows<{n: number}>(store.conn, "SELECT count(*)::INTEGER AS n FROM episodes");
    store.close();
    const dir = join(tempDir(), "out");
    const run = await cli(["export", "--dataset", dir, "--db", join(store.dir, "test.duckdb")]);
    expect(run.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, "dataset.json"), "utf8")) as DatasetManifest;
    expect(manifest.tables.find((t) => t.name === "episodes")?.rows).toBe(episodes);
    const total = manifest.tables.reduce((s, t) => s + t.rows, 0);
    expect(run.stderr).toContain(`wrote ${dir}: ${manifest.tables.length} tables, ${total.toLocaleString("en-US")} rows`);
    expect(existsSync(join(dir, "llm_calls"))).toBe(false);
  });
});
