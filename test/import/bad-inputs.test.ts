// The bad-input corpus (test/fixtures/bad-inputs/corpus.ts), imported into a
// store that holds the samples: every case stops with exit code 65 and the
// exact file, line, field and problem, and leaves every table's rows as they were.

import {execFile} from "node:child_process";
import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {promisify} from "node:util";
import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {exitCodeOf} from "../../loaders/cli/main.js";
import {ImportError} from "../../loaders/import/errors.js";
import {FORMATS} from "../../loaders/import/registry.js";
import {importFiles} from "../../loaders/import/session.js";
import {dumpReading} from "../../loaders/import/sotopia.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
import {BAD_INPUTS, type BadInput} from "../fixtures/bad-inputs/corpus.js";
import {REPO} from "../helpers/fixtures.js";
import {tempDir, writeFile} from "../helpers/store.js";
import {copySamplesStore, openSamplesCopy} from "../helpers/shared-stores.js";

/** Rows of every table of the store, by table. */
async function tableCounts(store: Store): Promise<Record<string, number>> {
  const tables = await rows<{table_name: string}>(store.conn,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_type = 'BASE TABLE' ORDER BY 1");
  const out: Record<string, number> = {};
  for (const {table_name} of tables) out[table_name] = Number((await rows<{n: bigint}>(store.conn, `SELECT count(*) AS n FROM "${table_name}"`))[0]!.n);
  return out;
}

/** The case's files, written to a fresh directory. */
function writeCase(c: BadInput): {dir: string; paths: string[]} {
  const dir = tempDir();
  return {dir, paths: c.files.map((f) => writeFile(dir, f.name, f.text))};
}

/** A directory for a whole describe block (tempDir's are removed after each test). */
function suiteDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sociometer-bad-inputs-"));
  afterAll(() => rmSync(dir, {recursive: true, force: true}));
  return dir;
}

const expectedMessage = (c: BadInput, dir: string) => `${join(dir, c.file)}:${c.line}: ${c.field}: ${c.problem.replaceAll("{dir}", dir)}`;

describe("bad-input corpus", () => {
  it("has at least five cases for every importer", () => {
    const perFormat = new Map(FORMATS.map((f) => [f.name, 0]));
    for (const c of BAD_INPUTS) perFormat.set(c.format, perFormat.get(c.format)! + 1);
    for (const [format, n] of perFormat) expect(n, format).toBeGreaterThanOrEqual(5);
    expect(perFormat.size).toBe(11);
  });
});

describe("bad inputs, imported in-process into a store holding the samples", () => {
  let store: Store;
  let before: Record<string, number>;
  const dir = suiteDir();
  beforeAll(async () => {
    store = await openSamplesCopy(join(dir, "samples.duckdb"));
    before = await tableCounts(store);
  }, 120_000);
  afterAll(() => store.close());

  it("starts from a store where every sample table has rows", () => {
    expect(before.episodes).toBeGreaterThan(0);
    expect(before.ratings).toBeGreaterThan(0);
    expect(before.stss_tasks).toBe(30);
  });

  it.each(BAD_INPUTS.map((c) => [`${c.format}: ${c.name}`, c] as const))("%s", async (_, c) => {
    const {dir, paths} = writeCase(c);
    const error = await importFiles(store, c.format, paths).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    const e = error as ImportError;
    expect(exitCodeOf(e)).toBe(65);
    expect({file: e.file, line: e.line, field: e.field}).toEqual({file: join(dir, c.file), line: c.line, field: c.field});
    expect(e.message).toBe(expectedMessage(c, dir));
    expect(await tableCounts(store)).toEqual(before);
  });
});

describe("a SOTOPIA dump read by a worker thread", () => {
  it("stops at the same deep record with the same message as on the main thread", async () => {
    const c = BAD_INPUTS.find((x) => x.format === "sotopia" && x.name === "a field it ignores nested 6000 deep")!;
    const {dir, paths} = writeCase(c);
    const store = await openStore(join(dir, "s.duckdb"));
    const saved = {...dumpReading};
    const env = process.env.SOCIOMETER_IMPORT_WORKERS;
    Object.assign(dumpReading, {minBytes: 0});
    process.env.SOCIOMETER_IMPORT_WORKERS = "1";
    try {
      const error = await importFiles(store, "sotopia", paths).then(() => null, (e: unknown) => e);
      expect((error as Error).message).toBe(expectedMessage(c, dir));
      expect(await tableCounts(store)).toMatchObject({episodes: 0, messages: 0, ratings: 0, sources: 0});
    } finally {
      Object.assign(dumpReading, saved);
      if (env === undefined) delete process.env.SOCIOMETER_IMPORT_WORKERS;
      else process.env.SOCIOMETER_IMPORT_WORKERS = env;
      store.close();
    }
  });
});

describe("empty files", () => {
  it("imports a 0-byte file and a file of blank lines as sources with no rows, each with a warning", async () => {
    const dir = tempDir();
    const store = await openStore(join(dir, "s.duckdb"));
    try {
      const empty = writeFile(dir, "empty.jsonl", "");
      const blank = writeFile(dir, "blank.jsonl", "\n  \n\n");
      const summary = await importFiles(store, "canonical", [empty, blank]);
      expect(summary.warnings).toBe(2);
      expect(summary.files.map((f) => [f.path, f.episodes, f.warnings])).toEqual([
        [empty, 0, ["the file is empty (0 bytes): no rows imported"]],
        [blank, 0, ["the file holds no records: no rows imported"]],
      ]);
      expect(await rows(store.conn, "SELECT path, rows FROM sources ORDER BY path")).toEqual([{path: blank, rows: 0}, {path: empty, rows: 0}]);
    } finally {
      store.close();
    }
  });
});

const run = promisify(execFile);

/** A few cases through the real CLI: same message on stderr, exit code 65, nothing on stdout. */
describe("bad inputs through the CLI", () => {
  const CLI_CASES = ["canonical: chain_index past int32", "sotopia: a field it ignores nested 6000 deep", "sotopia-ratings: a quote never closed"];
  const db = join(suiteDir(), "cli.duckdb");
  let before: Record<string, number>;
  const counts = async () => {
    const store = await openStore(db, {readOnly: true});
    try {
      return await tableCounts(store);
    } finally {
      store.close();
    }
  };
  beforeAll(async () => {
    await copySamplesStore(db);
    before = await counts();
  }, 120_000);

  it.each(CLI_CASES)("%s", async (name) => {
    const c = BAD_INPUTS.find((x) => `${x.format}: ${x.name}` === name)!;
    const {dir, paths} = writeCase(c);
    const result = await run(process.execPath, [join(REPO, "bin/sociometer.js"), "import", c.format, ...paths, "--db", db, "--quiet"], {cwd: REPO})
      .then(() => ({code: 0, stdout: "", stderr: ""}), (e: {code: number; stdout: string; stderr: string}) => e);
    expect({code: result.code, stdout: result.stdout, stderr: result.stderr})
      .toEqual({code: 65, stdout: "", stderr: `sociometer: import failed, store unchanged:\n  ${expectedMessage(c, dir)}\n`});
    expect(await counts()).toEqual(before);
  }, 30_000);

  it("says so when a file is empty, and exits 0", async () => {
    const empty = writeFile(tempDir(), "empty.jsonl", "");
    const {stdout} = await run(process.execPath, [join(REPO, "bin/sociometer.js"), "import", "canonical", empty, "--db", db, "--quiet"], {cwd: REPO});
    expect(stdout).toMatch(/^  empty\.jsonl: imported, 0 episodes, 0 scores\n    warning: the file is empty \(0 bytes\): no rows imported\ncanonical: 0 episodes and 0 scores imported in \d+\.\d s\n1 warning\(s\), above\n$/);
  }, 30_000);
});
