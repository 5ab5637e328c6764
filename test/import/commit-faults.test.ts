// An import is all or nothing at every step of its transaction: a fault thrown
// there leaves the store as it was; a SIGKILL there leaves the store as it was
// or with the whole import, once its next open has removed what the killed
// process left; and importing the same files again never duplicates a row.
// The import: a changed version of a dump already in the store (its rows are
// deleted, then written anew) and a new dump, in one command, into a store
// that holds another file too, which must come through untouched. Small
// files: what is tested is the steps, and the suite runs these 16 imports.

import {execFile} from "node:child_process";
import {copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {IMPORT_STEPS, InjectedFault} from "../../loaders/import/fault.js";
import {importFiles} from "../../loaders/import/session.js";
import {journalPath} from "../../loaders/store/import-journal.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {sotopiaEpisodes} from "../../scripts/samples/sotopia.js";
import {cliProcess} from "../helpers/cli.js";
import {REPO} from "../helpers/fixtures.js";
import {count, snapshot} from "../helpers/store.js";

const dump = (seed: string, n: number) => [...sotopiaEpisodes({seed, count: n, style: "sample"})].map((e) => JSON.stringify(e)).join("\n") + "\n";

/** Rating keys stored more than once: what a half-landed import followed by a re-import used to leave. */
const duplicateKeys = (store: Store) =>
  count(store, "SELECT count(*) FROM (SELECT episode_id, agent, dimension, rater, run_id FROM ratings GROUP BY ALL HAVING count(*) > 1)");

interface Scene {
  dir: string;
  /** A store with `other` and version 1 of `changed`, closed. */
  before: string;
  changed: string;
  added: string;
  beforeRows: Awaited<ReturnType<typeof snapshot>>;
  afterRows: Awaited<ReturnType<typeof snapshot>>;
}

let scene: Scene;
afterAll(() => rmSync(scene.dir, {recursive: true, force: true}));

beforeAll(async () => {
  // Not tempDir(): that goes after each test, and every test here starts from these files.
  const dir = mkdtempSync(join(tmpdir(), "sociometer-commit-faults-"));
  const before = join(dir, "before.duckdb");
  const other = join(dir, "other.jsonl");
  const changed = join(dir, "changed.jsonl");
  const added = join(dir, "added.jsonl");
  writeFileSync(other, dump("faults-other", 10));
  writeFileSync(changed, dump("faults-v1", 24));
  const store = await openStore(before);
  await importFiles(store, "sotopia", [other, changed]);
  const beforeRows = await snapshot(store);
  store.close();
  writeFileSync(changed, dump("faults-v2", 30));
  writeFileSync(added, dump("faults-added", 12));
  const clean = join(dir, "clean.duckdb");
  copyFileSync(before, clean);
  const cleanStore = await openStore(clean);
  const summary = await importFiles(cleanStore, "sotopia", [changed, added]);
  expect(summary.files.map((f) => [f.status, f.episodes])).toEqual([["replaced", 30], ["imported", 12]]);
  const afterRows = await snapshot(cleanStore);
  cleanStore.close();
  expect(afterRows.episodes.length - beforeRows.episodes.length).toBe(30 - 24 + 12);
  scene = {dir, before, changed, added, beforeRows, afterRows};
}, 120_000);

/** A copy of the `before` store for one case. */
function copyOfBefore(name: string): string {
  const path = join(scene.dir, `${name}.duckdb`);
  copyFileSync(scene.before, path);
  return path;
}

describe("an import that fails at a step of its transaction", () => {
  it("leaves the store as it was, and no journal, at every step", async () => {
    for (const step of IMPORT_STEPS) {
      const path = copyOfBefore(`throw-${step}`);
      const store = await openStore(path);
      process.env.SOCIOMETER_IMPORT_FAULT = step;
      const error = await importFiles(store, "sotopia", [scene.changed, scene.added]).then(() => null, (e: unknown) => e).finally(() => {
        delete process.env.SOCIOMETER_IMPORT_FAULT;
      });
      expect(error, step).toBeInstanceOf(InjectedFault);
      // A fault after COMMIT returned comes too late to undo it: the import is whole.
      expect(await snapshot(store), step).toEqual(step === "committed" ? scene.afterRows : scene.beforeRows);
      expect(existsSync(journalPath(path)), step).toBe(false);
      await importFiles(store, "sotopia", [scene.changed, scene.added]);
      expect(await snapshot(store), step).toEqual(scene.afterRows);
      store.close();
    }
  }, 120_000);

  it("refuses a misspelt step instead of importing without the fault", async () => {
    const store = await openStore(copyOfBefore("misspelt"));
    process.env.SOCIOMETER_IMPORT_FAULT = "comitted:kill";
    const error = await importFiles(store, "sotopia", [scene.added]).then(() => null, (e: unknown) => e as Error).finally(() => {
      delete process.env.SOCIOMETER_IMPORT_FAULT;
    });
    expect(error?.message).toContain(`not "comitted:kill"`);
    expect(await snapshot(store)).toEqual(scene.beforeRows);
    store.close();
  });
});

describe("an import whose process is killed at a step of its transaction", () => {
  it("leaves the old store or the whole import, and a re-import duplicates nothing", async () => {
    // The eight children at once: each spends most of its time starting up, and each has a store of its own.
    const killed = await Promise.all(IMPORT_STEPS.map((step) =>
      cliProcess(["import", "sotopia", scene.changed, scene.added, "--db", copyOfBefore(`kill-${step}`), "--quiet"], {SOCIOMETER_IMPORT_FAULT: `${step}:kill`})));
    for (const [i, step] of IMPORT_STEPS.entries()) {
      const path = join(scene.dir, `kill-${step}.duckdb`);
      expect(killed[i].signal, `${step}: ${killed[i].stderr}`).toBe("SIGKILL");
      // The killed process never removed its journal: the next open checks the store.
      expect(existsSync(journalPath(path)), step).toBe(true);
      const notes: string[] = [];
      const store = await openStore(path, {onRepair: (m) => notes.push(m)});
      expect(notes, step).toHaveLength(1);
      expect(notes[0], step).toContain(`the sotopia import of 2 files (${scene.changed}, …) begun`);
      expect(existsSync(journalPath(path)), step).toBe(false);
      expect(await snapshot(store), step).toEqual(step === "committed" ? scene.afterRows : scene.beforeRows);
      await importFiles(store, "sotopia", [scene.changed, scene.added]);
      expect(await snapshot(store), step).toEqual(scene.afterRows);
      expect(await duplicateKeys(store), step).toBe(0);
      store.close();
    }
  }, 300_000);
});

describe("what a commit cut short leaves", () => {
  /** Rows of an import that never recorded its source, and turns and scores of an episode that is not there. */
  async function leaveRemnants(path: string): Promise<void> {
    const store = await openStore(path);
    const [{episode_id: real}] = await rows<{episode_id: string}>(store.conn, "SELECT episode_id FROM episodes WHERE benchmark = 'sotopia' ORDER BY 1 LIMIT 1");
    await store.conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id) VALUES ('ghost-1', 'sotopia', 'unrecorded0000ab'), ('ghost-2', 'sotopia', 'unrecorded0000ab')`);
    await store.conn.run(`INSERT INTO participants (episode_id, agent, model) VALUES ('ghost-1', 1, 'm'), ('ghost-1', 2, 'm'), ('gone-1', 1, 'm')`);
    await store.conn.run(`INSERT INTO messages (episode_id, seq, turn, agent, action_type, content) VALUES ('ghost-2', 0, 0, 1, 'speak', 'hi'), ('gone-1', 0, 0, 1, 'speak', 'hi')`);
    const sourceOfReal = (await rows<{source_id: string}>(store.conn, "SELECT source_id FROM episodes WHERE episode_id = $1", [real]))[0].source_id;
    await store.conn.run(`INSERT INTO ratings VALUES ($1, 1, 'goal', 'leftover-judge', 'llm', 5, NULL, '', 'unrecorded0000ab'),
      ('gone-1', 1, 'goal', 'leftover-judge', 'llm', 5, NULL, '', $2)`, [real, sourceOfReal]);
    store.close();
  }

  const expected = [
    {table: "episodes", rows: 2, why: "no recorded source"},
    {table: "ratings", rows: 1, why: "no recorded source"},
    {table: "messages", rows: 2, why: "no episode"},
    {table: "participants", rows: 3, why: "no episode"},
    {table: "ratings", rows: 1, why: "no episode"},
  ];

  it("is removed by the next read-write open when the import left its journal, and refused by a read-only one until then", async () => {
    const path = copyOfBefore("remnants-journal");
    await leaveRemnants(path);
    writeFileSync(journalPath(path), JSON.stringify({pid: 1, started: "2026-12-08T02:00:00.000Z", format: "sotopia", files: [scene.added]}) + "\n");
    await expect(openStore(path, {readOnly: true})).rejects.toThrow(`the sotopia import of ${scene.added} begun 2026-12-08T02:00:00.000Z (process 1) did not finish, and what it left has not been checked: run \`sociometer repair --db ${path}\``);
    const notes: string[] = [];
    const store = await openStore(path, {onRepair: (m) => notes.push(m)});
    expect(store.repaired).toEqual(expected);
    expect(notes).toEqual([`store: remnants-journal.duckdb: the sotopia import of ${scene.added} begun 2026-12-08T02:00:00.000Z (process 1) did not finish; ` +
      "removed what it left (2 episodes rows with no recorded source, 1 ratings row with no recorded source, 2 messages rows with no episode, 3 participants rows with no episode, 1 ratings row with no episode). Import its files again."]);
    expect(await snapshot(store)).toEqual(scene.beforeRows);
    store.close();
    expect(existsSync(journalPath(path))).toBe(false);
  });

  it("is shown by status and removed by sociometer repair when there is no journal (stores from before it)", async () => {
    const path = copyOfBefore("remnants-no-journal");
    await leaveRemnants(path);
    const status = await cliProcess(["status", "--db", path, "--format", "json"]);
    expect(status.code).toBe(0);
    // status reads only the cheap tables: rows without a source, and scores without an episode.
    expect(JSON.parse(status.stdout).problems).toEqual([
      {table: "episodes", rows: 2, why: "no recorded source"},
      {table: "ratings", rows: 1, why: "no recorded source"},
      {table: "ratings", rows: 1, why: "no episode"},
    ]);
    expect(status.stderr).toContain("the store holds 2 episodes rows with no recorded source, 1 ratings row with no recorded source, 1 ratings row with no episode: run sociometer repair");
    const repair = await cliProcess(["repair", "--db", path]);
    expect(repair.code).toBe(0);
    expect(repair.stdout).toBe(`store ${path}: removed 2 episodes rows with no recorded source, 1 ratings row with no recorded source, ` +
      "2 messages rows with no episode, 3 participants rows with no episode, 1 ratings row with no episode; import the interrupted files again\n");
    const again = await cliProcess(["repair", "--db", path]);
    expect(again.stdout).toBe(`store ${path}: nothing to remove; every row belongs to a recorded source and its episode\n`);
    const store = await openStore(path, {readOnly: true});
    expect(await snapshot(store)).toEqual(scene.beforeRows);
    store.close();
  }, 60_000);

  it("includes a real torn WAL: DuckDB's replay of a commit cut short, repaired to the old store", async () => {
    // 130,000 scores fill a row group, which DuckDB writes to the database file and logs only as pointers in the WAL.
    const path = copyOfBefore("torn");
    const child = join(REPO, "test/helpers/torn-commit.ts");
    const signal = await new Promise<string | null>((resolve) =>
      execFile(process.execPath, ["--import", "tsx", child, path], {cwd: REPO}, (e) => resolve((e as {signal?: string} | null)?.signal ?? null)));
    expect(signal).toBe("SIGKILL");
    const wal = readFileSync(`${path}.wal`);
    expect(wal.length).toBeGreaterThan(0);
    // The kill came as the WAL's last bytes were written: the sources row and the end of the commit never reached the disk.
    writeFileSync(`${path}.wal`, wal.subarray(0, Math.floor(wal.length * 0.99)));
    writeFileSync(journalPath(path), JSON.stringify({pid: 2, started: "2026-12-08T02:00:00.000Z", format: "sotopia", files: ["/torn.jsonl"]}) + "\n");
    const store = await openStore(path, {onRepair: () => {}});
    // DuckDB 1.5.6 replays the pointed-to scores without their episode and source (a later DuckDB may not: then this says so).
    expect(store.repaired).toEqual([{table: "ratings", rows: 130_000, why: "no recorded source"}]);
    expect(await snapshot(store)).toEqual(scene.beforeRows);
    store.close();
  }, 60_000);
});
