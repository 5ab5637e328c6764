// Import benchmark (section `import` of BENCHMARKS.md). For each size N, writes
// N synthetic episodes in the public SOTOPIA JSONL dump shape, padded to real
// dump lines' size (~31 KB), then measures on that same file, each in a fresh
// child process so peak RSS belongs to one measurement:
//   importer   importFiles(store, "sotopia", [file], {}) into a fresh store
//   read_json  DuckDB's CREATE TABLE AS SELECT * FROM read_json(…): a naive import
//   parse      stream the file line by line and JSON.parse each line: the floor
//
// Child mode (used by the harness): tsx bench/import.ts --measure <method> <file> <db>
//
// Phases (by hand, not part of the section):
//   node --expose-gc --import tsx bench/import.ts --phases <file> <db> [lines]
// runs the importer's steps one after another on one thread over the file's
// first lines, 200 at a time, and prints the time of each step per episode:
// where an import's CPU goes, apart from how the threads overlap. Each step
// starts after a full collection (with --expose-gc), so none is charged for
// another's garbage; what collecting costs the import is then not in them.

import {DuckDBInstance} from "@duckdb/node-api";
import {isUtf8} from "node:buffer";
import {createHash} from "node:crypto";
import {createReadStream, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync} from "node:fs";
import {availableParallelism, loadavg} from "node:os";
import {join, resolve} from "node:path";
import {fileURLToPath, pathToFileURL} from "node:url";
import {deserialize, serialize} from "node:v8";
import {BatchBuilder, type EpisodeBatch} from "../loaders/import/batch.js";
import {MAX_JSON_DEPTH, tooDeep} from "../loaders/import/json-text.js";
import {importFiles} from "../loaders/import/session.js";
import {dumpIntoBatch, dumpReading, episodeFromDump} from "../loaders/import/sotopia.js";
import {nestsDeeperThan, type JsonObject} from "../loaders/import/validate.js";
import {StoreWriter} from "../loaders/import/writer.js";
import {stderrProgress} from "../loaders/progress.js";
import {openStore} from "../loaders/store/db.js";
import {writeSotopiaDump} from "./dump.js";
import {machine, mb, measureInChild, rate, reportFromChild, type BenchContext, type Measurement} from "./helpers.js";

const DEFAULT_SIZES = [10_000, 100_000];
const SEED = "bench-import";
const MAX_OBJECT_SIZE = 64 * 2 ** 20;
const GOALS = {readJson: 1.5, parse: 0.5};

const METHODS = ["parse", "read_json", "importer"] as const;
type Method = (typeof METHODS)[number];

// How many threads each method keeps busy: the floor is one; the ratios below compare wall times all the same.
const LABELS: Record<Method, string> = {
  importer: `importer: \`importFiles(store, "sotopia", [file], {})\` (${threadsOfImporter()})`,
  read_json: `baseline: DuckDB \`CREATE TABLE raw AS SELECT * FROM read_json(…)\` (DuckDB's ${availableParallelism()} threads)`,
  parse: "floor: stream lines, `JSON.parse` each (1 thread)",
};

/** The importer's threads on this machine for a dump as large as the bench's. */
function threadsOfImporter(): string {
  const workers = dumpReading.workers;
  return `main thread + ${workers} parse worker${workers === 1 ? "" : "s"} + a hash thread, and DuckDB's`;
}

type Outcome = ({ok: true} & Measurement) | {ok: false; error: string};

interface SizeResult {
  n: number;
  bytes: number;
  outcomes: Record<Method, Outcome>;
}

/** Writes `n` realistic-size synthetic episodes to `file`, streaming (never the whole file in memory). */
async function writeDump(file: string, n: number, log: (m: string) => void): Promise<void> {
  const progress = stderrProgress();
  progress.start(`[bench] writing ${n.toLocaleString("en-US")} episodes`, n, "items");
  await writeSotopiaDump(file, {seed: SEED, count: n, style: "realistic"}, (i) => progress.update(i));
  progress.finish();
  log(`wrote ${file} (${mb(statSync(file).size)})`);
}

const removeDb = (db: string): void => {
  for (const f of [db, `${db}.wal`]) rmSync(f, {force: true});
};

/** Runs the benchmark at every size and returns the markdown section. */
export async function run(ctx: BenchContext): Promise<string> {
  const sizes = ctx.sizes.length ? ctx.sizes : DEFAULT_SIZES;
  mkdirSync(ctx.dir, {recursive: true});
  const results: SizeResult[] = [];
  let duckdbVersion = "";
  for (const n of sizes) {
    const file = join(ctx.dir, `sotopia-dump-${n}.jsonl`);
    if (existsSync(file)) ctx.log(`reusing ${file} (kept by an earlier --keep run)`);
    else await writeDump(file, n, ctx.log);
    const bytes = statSync(file).size;
    // Methods take turns within each round, so a change in machine load hits all of them alike; the median round counts.
    const runs = Object.fromEntries(METHODS.map((m) => [m, [] as Measurement[]])) as Record<Method, Measurement[]>;
    const failures = {} as Partial<Record<Method, string>>;
    for (let round = 1; round <= ctx.repeat; round++) {
      for (const method of METHODS) {
        if (failures[method]) continue;
        const db = join(ctx.dir, `${method}-${n}.duckdb`);
        removeDb(db);
        ctx.log(`${method}: ${n.toLocaleString("en-US")} episodes, ${mb(bytes)}, run ${round} of ${ctx.repeat}`);
        try {
          // The machine is shared: a run's 1-minute load average says how far to trust its time.
          const load = loadavg()[0];
          const m: Measurement = {...(await measureInChild(fileURLToPath(import.meta.url), ["--measure", method, file, db])), load};
          runs[method].push(m);
          if (typeof m.duckdb === "string") duckdbVersion = m.duckdb;
          ctx.log(`${method}: ${m.seconds.toFixed(2)} s, ${rate(n / m.seconds)} episodes/s, ${rate(bytes / 1e6 / m.seconds)} MB/s, peak RSS ${mb(m.peakRss)}, load ${load.toFixed(2)}`);
        } catch (e) {
          failures[method] = e instanceof Error ? e.message : String(e);
          ctx.log(`${method}: failed: ${failures[method]}`);
        }
        if (!ctx.keep) removeDb(db);
      }
    }
    const outcomes = Object.fromEntries(METHODS.map((method): [Method, Outcome] => {
      const error = failures[method];
      if (error) return [method, {ok: false, error}];
      const sorted = [...runs[method]].sort((a, b) => a.seconds - b.seconds);
      const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
      return [method, {ok: true, ...median, peakRss: Math.max(...sorted.map((m) => m.peakRss)), runs: sorted.map((m) => m.seconds)}];
    })) as Record<Method, Outcome>;
    if (!ctx.keep) rmSync(file, {force: true});
    results.push({n, bytes, outcomes});
  }
  return section(results, duckdbVersion, ctx.repeat);
}

function section(results: readonly SizeResult[], duckdbVersion: string, repeat: number): string {
  const fmtN = (n: number) => n.toLocaleString("en-US");
  const rows = results.flatMap(({n, bytes, outcomes}) =>
    METHODS.map((method) => {
      const o = outcomes[method];
      const cells = o.ok
        ? [fmtN(Number(o.episodes)), `${o.seconds.toFixed(2)} s${Array.isArray(o.runs) && o.runs.length > 1 ? ` (${o.runs.map((x: number) => x.toFixed(2)).join(", ")})` : ""}`,
          `${Number(o.cpuSeconds).toFixed(2)} s`, rate(n / o.seconds), rate(bytes / 1e6 / o.seconds), mb(o.peakRss), Number(o.load).toFixed(2)]
        : ["", `failed: ${o.error.replaceAll("|", "\\|").slice(0, 160)}`, "", "", "", "", ""];
      return `| ${fmtN(n)} | ${mb(bytes)} | ${LABELS[method]} | ${cells.join(" | ")} |`;
    }),
  );
  const ratio = (a: Outcome, b: Outcome, goal: number) => {
    if (!a.ok || !b.ok) return "n/a";
    const r = b.seconds / a.seconds; // throughput ratio: same episodes, so time b / time a
    return `${r.toFixed(2)}× (${r >= goal ? "goal met" : "goal not met"})`;
  };
  const cpuRatio = (a: Outcome, b: Outcome) => (a.ok && b.ok ? `${(Number(b.cpuSeconds) / Number(a.cpuSeconds)).toFixed(2)}×` : "n/a");
  const ratios = results.map(({n, outcomes: o}) =>
    `| ${fmtN(n)} | ${ratio(o.importer, o.read_json, GOALS.readJson)} | ${ratio(o.importer, o.parse, GOALS.parse)} | ${cpuRatio(o.importer, o.parse)} |`);
  const avg = results.length ? results.reduce((s, r) => s + r.bytes / r.n, 0) / results.length : 0;
  return `## Import: SOTOPIA JSONL dump

${new Date().toISOString().slice(0, 10)} · ${machine(duckdbVersion ? [`DuckDB ${duckdbVersion}`] : [])}

Input: N synthetic episodes in the public SOTOPIA dump shape
(\`sotopiaEpisodes\` in \`scripts/samples/sotopia.ts\`, \`realistic\` style:
about ${(avg / 1000).toFixed(1)} KB a line, like the real dump), one file per N. Each method runs
${repeat} time(s), taking turns with the others, each run in a fresh child process, on the same
file, into a fresh DuckDB file where it writes one; time covers opening, the work and closing.
The table shows the median run (all runs in brackets); CPU is that run's, all
threads together (\`process.cpuUsage()\`); peak RSS is the largest
of the runs' \`process.resourceUsage().maxRSS\`; load is the machine's 1-minute load
average as that median run started (${availableParallelism()} cores: above ${availableParallelism()}, other work shared them).

| N | file | method | episodes read | time | CPU | episodes/s | MB/s | peak RSS | load |
| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

Throughput ratios (higher is better; goals: importer ≥ ${GOALS.readJson}× read_json, ≥ ${GOALS.parse}× the parse floor):

| N | importer / read_json | importer / parse floor | floor CPU / importer CPU |
| ---: | --- | --- | ---: |
${ratios.join("\n")}

Reproduce: \`npm run bench -- import --sizes ${results.map((r) => r.n).join(",")}\` (or \`BENCH_SIZES=…\`).
`;
}

// ---------------------------------------------------------------------------
// Child mode: one measurement, result printed as JSON on stdout.

async function parseFloor(file: string): Promise<number> {
  let episodes = 0;
  let carry: Buffer | null = null;
  for await (const chunk of createReadStream(file, {highWaterMark: 4 * 2 ** 20}) as AsyncIterable<Buffer>) {
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl >= 0; nl = buf.indexOf(10, start)) {
      if (nl > start && typeof JSON.parse(buf.toString("utf8", start, nl)).episode_id === "string") episodes++;
      start = nl + 1;
    }
    carry = start < buf.length ? buf.subarray(start) : null;
  }
  if (carry && typeof JSON.parse(carry.toString("utf8")).episode_id === "string") episodes++;
  return episodes;
}

async function readJson(file: string, db: string): Promise<{episodes: number; duckdb: string}> {
  const instance = await DuckDBInstance.create(db);
  const conn = await instance.connect();
  await conn.run("CREATE TABLE raw AS SELECT * FROM read_json($1, format = 'newline_delimited', maximum_object_size = $2)", [file, MAX_OBJECT_SIZE]);
  const [[count, version]] = (await conn.runAndReadAll("SELECT count(*), version() FROM raw")).getRows() as [[bigint, string]];
  conn.closeSync();
  instance.closeSync();
  return {episodes: Number(count), duckdb: version};
}

async function importer(file: string, db: string): Promise<{episodes: number; ratings: number; rejected: number; steps: string}> {
  const t0 = performance.now();
  const store = await openStore(db);
  const t1 = performance.now();
  let t2 = t1;
  try {
    const summary = await importFiles(store, "sotopia", [file], {});
    t2 = performance.now();
    return {episodes: summary.episodes, ratings: summary.ratings, rejected: summary.rejected, steps: ""};
  } finally {
    store.close();
    const t3 = performance.now();
    stepTimes = `open ${((t1 - t0) / 1000).toFixed(2)} s, import ${((t2 - t1) / 1000).toFixed(2)} s, close (checkpoint) ${((t3 - t2) / 1000).toFixed(2)} s`;
  }
}

/** Wall time of the importer's three steps, for BENCH_THREAD_CPU runs. */
let stepTimes = "";

/**
 * CPU seconds of each thread of this process (Linux), sampled every 100 ms so
 * threads that end before the measurement does (the parse worker, the hash
 * thread) are counted too: from /proc/self/task/<tid>/stat, utime + stime.
 */
function threadCpu(): {stop: () => {tid: number; name: string; seconds: number}[]} {
  const seen = new Map<number, {name: string; seconds: number}>();
  const tick = Number(process.env.CLK_TCK ?? 100);
  const sample = () => {
    for (const tid of readdirSync("/proc/self/task")) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
        seen.set(Number(tid), {name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), seconds: (Number(fields[11]) + Number(fields[12])) / tick});
      } catch {
        // The thread ended between the listing and the read: its last sample stands.
      }
    }
  };
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return [...seen].map(([tid, t]) => ({tid, ...t})).filter((t) => t.seconds >= 0.01).sort((a, b) => b.seconds - a.seconds);
    },
  };
}

async function child(method: string, file: string, db: string): Promise<void> {
  const threads = process.env.BENCH_THREAD_CPU ? threadCpu() : null;
  const cpuAtStart = process.cpuUsage();
  const started = performance.now();
  let extra: Record<string, unknown>;
  if (method === "parse") extra = {episodes: await parseFloor(file)};
  else if (method === "read_json") extra = await readJson(file, db);
  else if (method === "importer") extra = await importer(file, db);
  else throw new Error(`unknown method ${JSON.stringify(method)} (expected ${METHODS.join(", ")})`);
  // Every thread's CPU over the measured span: the floor uses one, the others several.
  const cpu = process.cpuUsage(cpuAtStart);
  extra.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // By hand (BENCH_THREAD_CPU=1): which thread spent what; the main thread's id is the process id.
  if (threads && stepTimes) extra.steps = stepTimes;
  else delete extra.steps;
  if (threads) extra.threads = threads.stop().map((t) => `${t.tid === process.pid ? "main" : `${t.name} ${t.tid}`}: ${t.seconds.toFixed(2)} s`).join(", ");
  reportFromChild((performance.now() - started) / 1000, extra);
}

/** The first `limit` lines of a file, each its own buffer. */
function firstLines(file: string, limit: number): Buffer[] {
  const fd = openSync(file, "r");
  const lines: Buffer[] = [];
  let carry = Buffer.alloc(0);
  let at = 0;
  for (const chunk = Buffer.allocUnsafe(1 << 22); lines.length < limit; ) {
    const got = readSync(fd, chunk, 0, chunk.length, at);
    if (got === 0) break;
    at += got;
    const buf = Buffer.concat([carry, chunk.subarray(0, got)]);
    let start = 0;
    for (let nl = buf.indexOf(10); nl >= 0 && lines.length < limit; nl = buf.indexOf(10, start)) {
      lines.push(Buffer.from(buf.subarray(start, nl)));
      start = nl + 1;
    }
    carry = Buffer.from(buf.subarray(start));
  }
  return lines;
}

/** Prints each step's time per episode (see the header). */
async function phases(file: string, db: string, limit: number): Promise<void> {
  const lines = firstLines(file, limit);
  const spent = new Map<string, number>();
  // Without a collection before each step, the first step to allocate pays for the garbage of the ones before it.
  const collect = (globalThis as {gc?: () => void}).gc ?? (() => {});
  const time = <T>(step: string, work: () => T): T => {
    collect();
    const started = performance.now();
    const result = work();
    spent.set(step, (spent.get(step) ?? 0) + performance.now() - started);
    return result;
  };
  removeDb(db);
  const store = await openStore(db);
  await store.conn.run("BEGIN TRANSACTION");
  const writer = await StoreWriter.open(store.conn);
  const hash = createHash("sha256");
  const fatalDecoder = new TextDecoder("utf-8", {fatal: true});
  for (let at = 0; at < lines.length; at += 200) {
    const part = lines.slice(at, at + 200);
    time("sha256 of the bytes (hash thread)", () => part.forEach((b) => hash.update(b)));
    // The two steps they replaced, for comparison (left out of the total).
    time("(replaced) fatal TextDecoder", () => part.map((b) => fatalDecoder.decode(b)));
    const texts = time("strict UTF-8 decode (worker)", () => part.map((b) => {
      if (!isUtf8(b)) throw new Error("not UTF-8");
      return b.toString("utf8");
    }));
    time("(replaced) tooDeep scan of the text", () => texts.forEach((t) => tooDeep(t)));
    const docs = time("JSON.parse (worker)", () => texts.map((t) => JSON.parse(t) as JsonObject));
    time("nesting depth, on the parsed tree (worker)", () => docs.forEach((d) => nestsDeeperThan(d, MAX_JSON_DEPTH)));
    const episodes = time("(replaced) validation + records: episodeFromDump", () => docs.map((d) => episodeFromDump(d)));
    time("(replaced) row building from records: BatchBuilder.add", () => {
      const builder = new BatchBuilder();
      episodes.forEach((e, i) => builder.add(e, i + 1));
      return builder.take(0);
    });
    const batch = time("validation + rows into columns: dumpIntoBatch (worker)", () => {
      const builder = new BatchBuilder();
      docs.forEach((d, i) => dumpIntoBatch(d, i + 1, builder));
      return builder.take(0);
    });
    const bytes = time("postMessage: serialise (worker)", () => serialize(batch));
    const back = time("postMessage: deserialise (main)", () => deserialize(bytes) as EpisodeBatch);
    time("appending rows: StoreWriter.batch (main)", () => writer.batch(back, "bench", null));
  }
  time("appenders flushed and closed (main)", () => {
    writer.flush();
    writer.close();
  });
  let started = performance.now();
  await store.conn.run("COMMIT");
  spent.set("COMMIT", performance.now() - started);
  started = performance.now();
  store.close();
  spent.set("closing the store (checkpoint)", performance.now() - started);
  let total = 0;
  for (const [step, ms] of spent) if (!step.startsWith("(replaced)")) total += ms;
  process.stdout.write(`${lines.length} episodes of ${file}\n`);
  for (const [step, ms] of spent) process.stdout.write(`${step.padEnd(48)} ${(ms * 1000 / lines.length).toFixed(1).padStart(7)} µs/episode ${(100 * ms / total).toFixed(1).padStart(5)}%\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href && process.argv[2] === "--phases") {
  const [, file, db, limit] = process.argv.slice(2);
  if (!file || !db) {
    process.stderr.write("usage: tsx bench/import.ts --phases <dump.jsonl> <db> [lines]\n");
    process.exit(2);
  }
  phases(file, db, Number(limit ?? 10_000)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
} else if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [flag, method, file, db] = process.argv.slice(2);
  if (flag !== "--measure" || !method || !file || !db) {
    process.stderr.write("usage: tsx bench/import.ts --measure <parse|read_json|importer> <file> <db>  (run the benchmark with npm run bench)\n");
    process.exit(2);
  }
  child(method, file, db).catch((e: unknown) => {
    process.stdout.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
