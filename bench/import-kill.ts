// Random-kill soak of an import's commit (section `import-kill` of
// BENCHMARKS.md; issue 32). Imports a dump of 9,744 sample-style SOTOPIA
// episodes (117 MB, 136,416 scores) into a copy of the samples store, and
// SIGKILLs the importing process at a random moment of its commit: after it
// closes its input, within the time from then to its exit in an import left
// alone. Then classifies the store as DuckDB reopens it (old, whole, or part
// of the import), and again after sociometer's own open (which removes what a
// killed import left when it finds its journal). Two arms, alternated kill by
// kill: the import as it commits now (by checkpoint), and the baseline, its
// commit through DuckDB's WAL as before (SOCIOMETER_IMPORT_COMMIT=wal).
// Linux only: the moment the input is closed is read from /proc/PID/fd.
//
//   npm run bench -- import-kill [--sizes EPISODES]     (BENCH_KILLS: kills per arm, default 40)

import {spawn} from "node:child_process";
import {copyFileSync, existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, statSync} from "node:fs";
import {join} from "node:path";
import {DuckDBInstance} from "@duckdb/node-api";
import {importSamples} from "../loaders/samples.js";
import {journalPath} from "../loaders/store/import-journal.js";
import {openStore} from "../loaders/store/db.js";
import {writeSotopiaDump} from "./dump.js";
import {machine, mb, REPO, type BenchContext} from "./helpers.js";

const DEFAULT_EPISODES = 9_744;
const DEFAULT_KILLS = 40;
const ARMS = [
  {name: "checkpoint", label: "commit by checkpoint (now)", env: {}},
  {name: "wal", label: "commit through the WAL (before; SOCIOMETER_IMPORT_COMMIT=wal)", env: {SOCIOMETER_IMPORT_COMMIT: "wal"}},
] as const;

type Outcome = "old" | "whole" | "part";

interface Counts {
  sources: number;
  episodes: number;
  messages: number;
  ratings: number;
  /** Scores whose episode is not in the store. */
  orphans: number;
}

async function countRows(path: string): Promise<Counts> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  const one = async (sql: string) => Number((await conn.runAndReadAll(sql)).getRows()[0][0]);
  try {
    return {
      sources: await one("SELECT count(*) FROM sources"),
      episodes: await one("SELECT count(*) FROM episodes"),
      messages: await one("SELECT count(*) FROM messages"),
      ratings: await one("SELECT count(*) FROM ratings"),
      orphans: await one("SELECT count(*) FROM ratings WHERE episode_id NOT IN (SELECT episode_id FROM episodes)"),
    };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

const same = (a: Counts, b: Counts) => JSON.stringify(a) === JSON.stringify(b);
const classify = (c: Counts, old: Counts, whole: Counts): Outcome => (same(c, old) ? "old" : same(c, whole) ? "whole" : "part");

/** Whether process `pid` has `file` open. */
function holds(pid: number, file: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * Imports `dump` into `db`; once the process has closed the dump, kills it
 * after `killAfterMs` (null: never). Resolves with the ms from closing the
 * dump to the process's end, and whether the kill came first.
 */
function importAndKill(dump: string, db: string, env: Record<string, string>, killAfterMs: number | null): Promise<{closeToEndMs: number; killed: boolean}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, "bin/sociometer.js"), "import", "sotopia", dump, "--db", db, "--quiet"],
      {cwd: REPO, stdio: ["ignore", "ignore", "pipe"], env: {...process.env, ...env}});
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    let opened = false;
    let closedAt = 0;
    const poll = setInterval(() => {
      if (holds(child.pid!, dump)) opened = true;
      else if (opened && !closedAt) {
        closedAt = Date.now();
        clearInterval(poll);
        if (killAfterMs !== null) setTimeout(() => child.kill("SIGKILL"), killAfterMs);
      }
    }, 2);
    child.on("exit", (code, signal) => {
      clearInterval(poll);
      if (code !== 0 && signal !== "SIGKILL") reject(new Error(`the import failed (${code}): ${stderr}`));
      else resolve({closeToEndMs: closedAt ? Date.now() - closedAt : NaN, killed: signal === "SIGKILL"});
    });
  });
}

const removeStore = (db: string) => {
  for (const f of [db, `${db}.wal`, journalPath(db)]) rmSync(f, {force: true});
};

export async function run(ctx: BenchContext): Promise<string> {
  if (process.platform !== "linux") throw new Error("import-kill reads /proc to see when the import closes its input: Linux only");
  const episodes = ctx.sizes[0] ?? DEFAULT_EPISODES;
  const kills = Number(process.env.BENCH_KILLS ?? DEFAULT_KILLS);
  if (!Number.isInteger(kills) || kills < 1) throw new Error(`BENCH_KILLS must be a whole number ≥ 1, not ${JSON.stringify(process.env.BENCH_KILLS)}`);
  mkdirSync(ctx.dir, {recursive: true});
  const dump = join(ctx.dir, `kill-dump-${episodes}.jsonl`);
  if (existsSync(dump)) ctx.log(`reusing ${dump}`);
  else await writeSotopiaDump(dump, {seed: "bench-import-kill", count: episodes, style: "sample"});
  const base = join(ctx.dir, "kill-base.duckdb");
  removeStore(base);
  const seed = await openStore(base);
  await importSamples(seed);
  seed.close();
  const db = join(ctx.dir, "kill.duckdb");

  // The states to tell apart, and each arm's window: the time from closing the dump to the end of an import left alone.
  const old = await countRows(base);
  const windows: Record<string, number> = {};
  let whole: Counts | null = null;
  for (const arm of ARMS) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      removeStore(db);
      copyFileSync(base, db);
      times.push((await importAndKill(dump, db, arm.env, null)).closeToEndMs);
    }
    windows[arm.name] = times.sort((a, b) => a - b)[1];
    const counts = await countRows(db);
    if (whole && !same(whole, counts)) throw new Error(`the two arms import different rows: ${JSON.stringify(whole)} and ${JSON.stringify(counts)}`);
    whole = counts;
  }
  const tally = Object.fromEntries(ARMS.map((a) => [a.name, {killed: 0, finished: 0, raw: {old: 0, whole: 0, part: 0}, opened: {old: 0, whole: 0, part: 0}, parts: [] as string[]}]));
  for (let k = 0; k < kills; k++) {
    for (const arm of ARMS) {
      removeStore(db);
      copyFileSync(base, db);
      const delay = Math.random() * windows[arm.name];
      const {killed} = await importAndKill(dump, db, arm.env, delay);
      const t = tally[arm.name];
      if (!killed) {
        t.finished++;
        continue;
      }
      t.killed++;
      // First as DuckDB replays it, then as sociometer opens it (removing what the journal says a killed import left).
      const raw = await countRows(db);
      t.raw[classify(raw, old, whole!)]++;
      const store = await openStore(db, {onRepair: () => {}});
      store.close();
      const opened = await countRows(db);
      t.opened[classify(opened, old, whole!)]++;
      if (classify(raw, old, whole!) === "part") t.parts.push(`${Math.round(delay)} ms: ${raw.ratings - old.ratings} scores, ${raw.messages - old.messages} messages, ${raw.episodes - old.episodes} episodes`);
    }
    if ((k + 1) % 10 === 0) ctx.log(`${k + 1} of ${kills} kills per arm`);
  }

  const lines = [
    "## Import killed during its commit",
    "",
    `${machine()}. \`npm run bench -- import-kill\` (bench/import-kill.ts): a ${mb(statSync(dump).size)} dump of ${episodes.toLocaleString("en-US")} ` +
      `sample-style episodes (${(whole!.ratings - old.ratings).toLocaleString("en-US")} scores) imported into a copy of the samples store; ` +
      "the process killed (SIGKILL) at a uniformly random moment between closing its input and the end an import left alone reaches. " +
      "The arms alternate kill by kill. *As DuckDB reopens it*: counts of the store's sources, episodes, messages and scores, and scores without their episode, " +
      "compared with the store before and after a whole import. *As sociometer opens it*: the same after `openStore`, which removes what a killed import left when it finds its journal.",
    "",
    "| commit | window (close → end) | kills | finished first | as DuckDB reopens it: old / whole / part | as sociometer opens it: old / whole / part |",
    "| --- | --- | --- | --- | --- | --- |",
    ...ARMS.map((a) => {
      const t = tally[a.name];
      return `| ${a.label} | ${Math.round(windows[a.name])} ms | ${t.killed} | ${t.finished} | ${t.raw.old} / ${t.raw.whole} / **${t.raw.part}** | ${t.opened.old} / ${t.opened.whole} / **${t.opened.part}** |`;
    }),
    "",
    ...ARMS.flatMap((a) => (tally[a.name].parts.length ? [`Part of the import, ${a.name} arm (kill after closing the input: what DuckDB replayed): ${tally[a.name].parts.join("; ")}.`, ""] : [])),
  ];
  if (!ctx.keep) rmSync(dump, {force: true});
  removeStore(db);
  removeStore(base);
  return lines.join("\n");
}
