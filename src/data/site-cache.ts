// Prepares Observable Framework's cache folder (src/.observablehq/cache) before
// a build or preview. Called from observablehq.config.ts, so it runs for
// `npm run build`, `npm run dev` and a bare `observable build` alike.

import {spawn} from "node:child_process";
import {createHash} from "node:crypto";
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, dirname, extname, join, relative, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {snapshotStore} from "../../loaders/store/snapshot.js";
import {digestOf, envDigests, fileDigest, localImportClosure, storeFingerprint} from "./build-inputs.js";

/**
 * Packages Framework's client bundle looks up on the npm registry even when no
 * page imports them (OFFLINE.md item 9). An empty `_npm/<name>@<version>`
 * folder answers the look-up from the cache, so a build needs no network. The
 * versions are the ones the registry named when this list was made; no page
 * loads these packages, so they only have to be valid version numbers.
 */
const NPM_LOOKUPS = [
  "@observablehq/plot@0.6.17",
  "@observablehq/sample-datasets@1.0.1",
  "apache-arrow@21.2.0",
  "arquero@8.0.3",
  "d3@7.9.2",
  "d3-dsv@3.0.2",
  "echarts@6.1.0",
  "htl@1.0.0",
  "leaflet@1.9.4",
  "lodash@4.18.1",
  "mapbox-gl@3.32.0",
  "parquet-wasm@0.8.0",
  "react@19.3.1",
  "react-dom@19.3.1",
  "topojson-client@3.1.0",
];

/** Creates the empty npm cache folders that stop Framework's registry look-ups. */
export function stubNpmLookups(cacheDir: string): void {
  for (const spec of NPM_LOOKUPS) mkdirSync(join(cacheDir, "_npm", spec), {recursive: true});
}

/**
 * Framework reuses a data loader's cached output until the loader's source file
 * changes; it cannot know the loader reads the store. When the store changed
 * since the last build (a new import, or another SOCIOMETER_DB), drop the
 * cached loader outputs so every page is rebuilt from the current store.
 * Returns whether they were dropped.
 */
export function invalidateLoaderCache(cacheDir: string, storePath: string): boolean {
  const marker = join(cacheDir, "store-fingerprint.txt");
  const current = storeFingerprint(storePath);
  const previous = existsSync(marker) ? readFileSync(marker, "utf8") : null;
  if (previous === current) return false;
  rmSync(join(cacheDir, "data"), {recursive: true, force: true});
  mkdirSync(cacheDir, {recursive: true});
  writeFileSync(marker, current);
  return true;
}

/**
 * Framework also cannot know a loader reads files outside src/ (the built-in
 * audit CSVs in data/audits/ behind data/audits.json). When any of `inputs`
 * was added, removed or changed since the last build, drop the cached `output`
 * (a path inside the cache, e.g. "data/audits.json") so its loader runs again.
 * Runs when the config is loaded: at each build and each start of
 * `npm run dev`, not while a dev server is already running. Returns whether
 * the output was dropped.
 */
export function invalidateOutputOnInputs(cacheDir: string, output: string, inputs: readonly string[]): boolean {
  const marker = join(cacheDir, `inputs-${output.replace(/[^A-Za-z0-9]+/g, "-")}.txt`);
  const parts = [...inputs].sort().map((file) => {
    if (!existsSync(file)) return `${file}:absent`;
    const {size, mtimeMs} = statSync(file);
    return `${file}:${size}:${mtimeMs}`;
  });
  const current = createHash("sha256").update(parts.join("|")).digest("hex");
  const previous = existsSync(marker) ? readFileSync(marker, "utf8") : null;
  if (previous === current) return false;
  rmSync(join(cacheDir, output), {force: true});
  mkdirSync(cacheDir, {recursive: true});
  writeFileSync(marker, current);
  return true;
}

/**
 * Whether the store is the one the cached loader outputs were built from: its
 * fingerprint is the one recorded at the last build. Reads no store.
 */
export function storeUnchanged(cacheDir: string, storePath: string): boolean {
  const marker = join(cacheDir, "store-fingerprint.txt");
  return existsSync(storePath) && existsSync(marker) && readFileSync(marker, "utf8") === storeFingerprint(storePath);
}

/**
 * For a rebuild: whether it can read the live store instead of a snapshot,
 * because no loader will run against it. `readFacts` reads what the config
 * needs from the store (the explorer's paths, the footer's counts); it runs
 * between two fingerprint checks, so what it read belongs to the state the
 * cached outputs were built from, and the pages and the config agree. Returns
 * those facts, or null when the store changed, an output is missing or stale, or an
 * import landed meanwhile: then the build takes a snapshot (snapshotForBuild).
 */
export async function reuseCachedBuild<T extends {dynamicPaths: readonly string[]}>(
  root: string,
  cacheDir: string,
  storePath: string,
  readFacts: () => Promise<T>,
): Promise<T | null> {
  if (!storeUnchanged(cacheDir, storePath)) return null;
  const facts = await readFacts();
  const outputs = loaderOutputs(root, facts.dynamicPaths);
  const current = staleLoaderOutputs(cacheDir, loaderKeys(root, outputs)).length === 0;
  if (!current || !storeUnchanged(cacheDir, storePath)) return null;
  process.stderr.write(`loaders: all ${outputs.length} outputs cached from this store, code and options; none runs, no store snapshot\n`);
  return facts;
}

/**
 * For a build: copies the store once (waiting while an import holds it) into
 * a temporary folder removed when the build ends, points SOCIOMETER_DB at the
 * copy for the data loaders Framework starts, and returns the copy's path.
 * Every page then shows one state of the store, whatever lands meanwhile.
 * The loader cache is checked against the live store while it is held, so a
 * cached output always belongs to the state that was copied.
 */
export async function snapshotForBuild(cacheDir: string, storePath: string): Promise<string> {
  if (!existsSync(storePath)) {
    invalidateLoaderCache(cacheDir, storePath);
    return storePath; // the loaders say there is no store
  }
  const dir = mkdtempSync(join(tmpdir(), "sociometer-build-"));
  process.on("exit", () => rmSync(dir, {recursive: true, force: true}));
  const snapshot = join(dir, basename(storePath));
  await snapshotStore(storePath, snapshot, {whileHeld: () => invalidateLoaderCache(cacheDir, storePath)});
  process.env.SOCIOMETER_DB = snapshot;
  return snapshot;
}

/** A data loader of the site and the arguments Framework passes it for one output. */
export interface LoaderRun {
  /** Absolute path of the loader file. */
  loader: string;
  /** `--name=value` for each parameter of a parameterised loader ([table].parquet.ts). */
  args: string[];
}

/**
 * The TypeScript loader Framework would run for `output` (a path inside
 * `root`, such as "data/overview.parquet" or "data/tables/episodes.parquet"):
 * `output`.ts, else a `[param]` loader of the same extension in its folder.
 */
export function loaderOfOutput(root: string, output: string): LoaderRun | null {
  const direct = join(root, `${output}.ts`);
  if (existsSync(direct)) return {loader: direct, args: []};
  const ext = extname(output);
  const folder = join(root, dirname(output));
  if (!ext || !existsSync(folder)) return null;
  for (const file of readdirSync(folder).sort()) {
    const param = new RegExp(`^\\[([a-z0-9_]+)\\]${ext.replace(".", "\\.")}\\.ts$`, "i").exec(file)?.[1];
    if (param) return {loader: join(folder, file), args: [`--${param}=${basename(output, ext)}`]};
  }
  return null;
}

/**
 * Every output of the site's TypeScript data loaders: one per `name.ext.ts`
 * in `root`/data, and the outputs of parameterised loaders the config lists in
 * its dynamic paths (the explorer's store tables).
 */
export function loaderOutputs(root: string, dynamicPaths: readonly string[]): string[] {
  const outputs = readdirSync(join(root, "data"))
    .filter((f) => /^[^.[\]]+\.[a-z]+\.ts$/i.test(f))
    .sort()
    .map((f) => `data/${f.slice(0, -".ts".length)}`);
  for (const path of dynamicPaths) {
    const output = path.replace(/^\//, "");
    if (!outputs.includes(output) && loaderOfOutput(root, output)?.args.length) outputs.push(output);
  }
  return outputs;
}

/** Files every loader's output depends on besides its own imports: the installed packages (DuckDB's version among them) and how TypeScript runs. */
const SHARED_LOADER_INPUTS = ["package.json", "package-lock.json", "node_modules/.package-lock.json", "tsconfig.json"];

/**
 * For each output, a digest of what its loader reads apart from the store:
 * every local module it imports (src/data, src/lib, loaders/…), its
 * parameters, the lock files, and the environment options that change outputs
 * (build-inputs.ts). The store is the store fingerprint's business
 * (invalidateLoaderCache). `root` is the site's source folder; the project is
 * its parent.
 */
export function loaderKeys(root: string, outputs: readonly string[], env: NodeJS.ProcessEnv = process.env): Map<string, string> {
  const project = resolve(root, "..");
  const shared = SHARED_LOADER_INPUTS.map((f) => `${f}:${fileDigest(join(project, f))}`);
  const environment = Object.entries(envDigests(env)).map(([name, digest]) => `${name}:${digest}`);
  const importsOf = new Map<string, string[]>();
  const digests = new Map<string, string>();
  const digestOfFile = (file: string) => {
    let d = digests.get(file);
    if (d === undefined) digests.set(file, (d = fileDigest(file)));
    return d;
  };
  const keys = new Map<string, string>();
  for (const output of outputs) {
    const run = loaderOfOutput(root, output);
    if (!run) continue;
    const code = localImportClosure(run.loader, importsOf).map((f) => `${relative(project, f)}:${digestOfFile(f)}`);
    keys.set(output, digestOf([...shared, ...environment, `args:${run.args.join(" ")}`, ...code]));
  }
  return keys;
}

const LOADER_KEYS = "loader-keys.json";

function recordedLoaderKeys(cacheDir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(cacheDir, LOADER_KEYS), "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * Outputs whose cached file is missing, or was made by a loader whose code,
 * parameters, packages or environment options differ from now. Framework
 * cannot tell: a build uses a cached output even when its loader changed
 * ("[using stale]"), and never looks at what the loader imports.
 */
export function staleLoaderOutputs(cacheDir: string, keys: ReadonlyMap<string, string>): string[] {
  const recorded = recordedLoaderKeys(cacheDir);
  return Array.from(keys.keys()).filter((o) => !existsSync(join(cacheDir, o)) || recorded[o] !== keys.get(o));
}

/**
 * Drops the stale outputs (staleLoaderOutputs) and records the current keys:
 * whatever makes an output next, in this build (this process's loaders, or
 * Framework after one failed here), makes it from the code keyed now. An
 * output that is not made stays missing, and runs again at the next build.
 * Returns the outputs dropped or missing.
 */
export function dropStaleLoaderOutputs(cacheDir: string, keys: ReadonlyMap<string, string>): string[] {
  const stale = staleLoaderOutputs(cacheDir, keys);
  for (const output of stale) rmSync(join(cacheDir, output), {force: true});
  mkdirSync(cacheDir, {recursive: true});
  writeFileSync(join(cacheDir, LOADER_KEYS), JSON.stringify({...recordedLoaderKeys(cacheDir), ...Object.fromEntries(keys)}, null, 1));
  return stale;
}

const RUN_LOADERS = join(dirname(fileURLToPath(import.meta.url)), "run-loaders.ts");

/** How many loader processes a build runs at once unless SOCIOMETER_LOADER_PROCESSES says otherwise: one a core of a 2-core machine. */
export const DEFAULT_LOADER_PROCESSES = 2;

/**
 * How many run-loaders processes a build runs side by side:
 * SOCIOMETER_LOADER_PROCESSES (1 or 2), else DEFAULT_LOADER_PROCESSES. Each
 * process holds one loader at a time, under DuckDB's cap per loader
 * (src/data/store.ts), so two take up to twice a loader's memory.
 */
export function loaderProcesses(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.SOCIOMETER_LOADER_PROCESSES?.trim();
  if (!text) return DEFAULT_LOADER_PROCESSES;
  if (text !== "1" && text !== "2") throw new Error(`SOCIOMETER_LOADER_PROCESSES: expected 1 or 2, got ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * Loaders that share a query's result (src/data/shared-query.ts): each
 * pattern's outputs run in one process, one after another, where the first
 * one's result is kept for the others. The compare loaders share the staged
 * compare rows; the first-view packs share the overview's query with one
 * another and each benchmark's queries with that benchmark's Parquet loaders.
 * A loader left out of its group still writes the same bytes; it only runs
 * the shared query again.
 */
const SHARED_GROUPS = [/^data\/compare-/, /^data\/(overview|sotopia|hsii|stss|lifelong|informativebench|checkpoint|words-per-turn)[-.]/];

/**
 * Expected CPU seconds of a loader when no build on this machine recorded it:
 * measured at a million episodes (docs/scale.md), each pattern's first match
 * counts. Only the order they give matters.
 */
const STATIC_COSTS: readonly [RegExp, number][] = [
  [/^data\/viewer-episodes\./, 345],
  // Not measured at a million: ten times the 43 CPU-s measured at 100k (issue 33).
  [/^data\/viewer-scores\./, 430],
  [/^data\/compare-rows-sotopia\./, 208],
  [/^data\/sotopia-by-task\./, 58],
  [/^data\/compare-summary\./, 32],
  [/^data\/(viewer-list|agreement-summary|agreement-rows|disagreements)\./, 26],
  [/^data\/(sotopia-first-view|sotopia-stats)\./, 10],
  [/^data\/(tables\/|[a-z]+-first-view\.|overview|explorer-manifest|reliability-raters)/, 5],
];

/** The CPU seconds a build expects `output`'s loader to take, from the static table. */
function staticCost(output: string): number {
  return STATIC_COSTS.find(([pattern]) => pattern.test(output))?.[1] ?? 1;
}

/** Where a build records each loader's CPU seconds, for the next build's order. */
const LOADER_CPU = "loader-cpu.json";

/** The CPU seconds each loader took at the builds before, by output (empty when none was recorded). */
export function recordedLoaderCpu(cacheDir: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(cacheDir, LOADER_CPU), "utf8")) as Record<string, number>;
  } catch {
    return {};
  }
}

/** Adds `cpu` (CPU seconds by output) to the record kept for the next build. */
function recordLoaderCpu(cacheDir: string, cpu: ReadonlyMap<string, number>): void {
  if (cpu.size === 0) return;
  mkdirSync(cacheDir, {recursive: true});
  writeFileSync(join(cacheDir, LOADER_CPU), JSON.stringify({...recordedLoaderCpu(cacheDir), ...Object.fromEntries(cpu)}, null, 1));
}

/**
 * `outputs` as the queue the loader processes take from: loaders that share a
 * result together (SHARED_GROUPS, in the order given), then every group by its
 * expected CPU seconds, longest first, so the long ones start early and the
 * short ones fill in beside them. Expected costs are the last builds'
 * (`recorded`) when they cover every output, else the static table's (a
 * record of another store size would mix badly with it). Ties keep the order
 * given.
 */
export function loaderQueue(outputs: readonly string[], recorded: Readonly<Record<string, number>> = {}): string[][] {
  const known = outputs.every((o) => typeof recorded[o] === "number");
  const cost = (o: string) => (known ? recorded[o]! : staticCost(o));
  const groups: {outputs: string[]; cost: number; first: number}[] = [];
  const byPattern = new Map<RegExp, (typeof groups)[number]>();
  for (const [i, output] of outputs.entries()) {
    const pattern = SHARED_GROUPS.find((p) => p.test(output));
    let group = pattern ? byPattern.get(pattern) : undefined;
    if (!group) {
      group = {outputs: [], cost: 0, first: i};
      groups.push(group);
      if (pattern) byPattern.set(pattern, group);
    }
    group.outputs.push(output);
    group.cost += cost(output);
  }
  return groups.sort((a, b) => b.cost - a.cost || a.first - b.first).map((g) => g.outputs);
}

/** What a run-loaders process in queue mode tells the build: it wants work, or how a loader went. */
export type LoaderMessage = {next: true} | {output: string; ok: boolean; cpuSeconds: number};

/**
 * Starts one run-loaders process that takes groups of outputs from `queue`
 * (shared with the other processes) until it is empty, and reports each
 * loader's CPU seconds into `cpu`. A process that dies only leaves its
 * outputs for Framework, which runs them itself.
 */
function runLoaderProcess(root: string, lane: number, queue: string[][], cpu: Map<string, number>, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", RUN_LOADERS, root, `--queue=${lane}`], {stdio: ["ignore", "ignore", "inherit", "ipc"], env});
    child.on("message", (message: LoaderMessage) => {
      if ("next" in message) child.send({outputs: queue.shift() ?? []}, () => undefined);
      else if (message.ok) cpu.set(message.output, message.cpuSeconds);
    });
    child.on("error", () => done());
    child.on("close", () => done());
  });
}

/**
 * Runs the loaders of `outputs` (paths inside `root`), each into Framework's
 * cache under `root`: loaderProcesses(env) processes side by side take groups
 * of them from one queue (loaderQueue, ordered by the CPU seconds recorded at
 * the last builds), each logging one line per loader that names it and the
 * process. Records each loader's CPU seconds for the next build.
 */
export async function runLoaders(root: string, outputs: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const cacheDir = join(root, ".observablehq", "cache");
  const recorded = recordedLoaderCpu(cacheDir);
  const queue = loaderQueue(outputs, recorded);
  const cpu = new Map<string, number>();
  const processes = Math.min(loaderProcesses(env), queue.length);
  const by = outputs.every((o) => typeof recorded[o] === "number") ? "the CPU-s each took at the last build" : "a static order (no build recorded them all)";
  process.stderr.write(`loaders: ${outputs.length} in ${processes} process${processes === 1 ? "" : "es"} from one queue of ${queue.length} groups, longest first by ${by}\n`);
  await Promise.all(Array.from({length: processes}, (_, i) => runLoaderProcess(root, i + 1, queue, cpu, env)));
  recordLoaderCpu(cacheDir, cpu);
}

/**
 * Before a build: runs every loader whose output the cache lacks or holds
 * stale (all of them after the store changed; after a code change, those
 * whose loader imports the changed module: staleLoaderOutputs) in one process
 * (src/data/run-loaders.ts), so that Framework finds them cached instead of
 * starting a process per loader. SOCIOMETER_SHARED_LOADERS=0 leaves them to
 * Framework. Resolves with the outputs it was asked for; a loader that failed
 * there is left for Framework, which runs it again and reports its error.
 * `only` narrows the outputs (dev makes the first views first).
 */
export async function runLoadersOnce(
  root: string,
  storePath: string,
  dynamicPaths: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  only: (output: string) => boolean = () => true,
): Promise<string[]> {
  const outputs = loaderOutputs(root, dynamicPaths).filter(only);
  // Dropped whoever runs them next: left in the cache, Framework would ship them as they are.
  const missing = dropStaleLoaderOutputs(join(root, ".observablehq", "cache"), loaderKeys(root, outputs, env));
  const named = missing.length > 8 ? `${missing.slice(0, 8).join(", ")}, …` : missing.join(", ");
  process.stderr.write(`loaders: ${missing.length} of ${outputs.length} outputs to make (missing, or made from another store, code or options)${named ? `: ${named}` : ""}\n`);
  if (env.SOCIOMETER_SHARED_LOADERS === "0" || !existsSync(storePath)) return [];
  if (missing.length) await runLoaders(root, missing, env);
  return missing;
}
