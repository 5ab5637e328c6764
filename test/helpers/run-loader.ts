// Runs one data loader and returns what it wrote to standard output, two ways.
// `runLoaderInProcess` imports it in the test's own process, as a build runs its
// loaders (src/data/run-loaders.ts): stdout captured, SOCIOMETER_DB and the
// arguments set for the run. It costs milliseconds, where a child pays 1–3 s
// of tsx and DuckDB start-up. `runLoaderAlone` runs it as Framework's preview
// does, `tsx loader.ts [--param=value]` in a child: use it where the process is
// what is tested (a loader that exits with a message, a loader run alone
// against one run in a shared process).

import {spawn} from "node:child_process";
import {resolve as resolvePath} from "node:path";
import {pathToFileURL} from "node:url";
import {REPO} from "./fixtures.js";
import {CapturedOutput, oneAtATime} from "./in-process.js";

export interface LoaderOptions {
  /** The store the loader reads (SOCIOMETER_DB). */
  store?: string;
  /** What Framework passes a parameterised loader, such as `--table=episodes`. */
  args?: readonly string[];
  /** The environment the loader runs in (default: this process's), before `store`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * `loader` is a path from the repository's root (src/data/…). With `store`,
 * the loader reads that store (SOCIOMETER_DB). A failure names the loader, its
 * exit code and what it wrote to standard error.
 */
export function runLoaderAlone(loader: string, options: LoaderOptions = {}): Promise<Buffer> {
  const env = {...(options.env ?? process.env), ...(options.store === undefined ? {} : {SOCIOMETER_DB: options.store})};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", loader, ...(options.args ?? [])], {cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"]});
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${loader} exited with ${code}: ${err}`))));
  });
}

/** How many loaders this process has imported: each import needs an address of its own. */
let runs = 0;

/** Runs `loader` (a path from the repository's root) in this process and returns what it wrote to stdout. */
export function runLoaderInProcess(loader: string, options: LoaderOptions = {}): Promise<Buffer> {
  return oneAtATime(() => inProcess(loader, options));
}

async function inProcess(loader: string, options: LoaderOptions): Promise<Buffer> {
  const file = resolvePath(REPO, loader);
  const sink = new CapturedOutput();
  const saved = {stdout: Object.getOwnPropertyDescriptor(process, "stdout")!, argv: process.argv, env: process.env};
  process.env = {...(options.env ?? process.env), ...(options.store === undefined ? {} : {SOCIOMETER_DB: options.store})};
  process.argv = [saved.argv[0]!, file, ...(options.args ?? [])];
  Object.defineProperty(process, "stdout", {value: sink, configurable: true, writable: true});
  try {
    // A new address each run: a module runs once per address, and a loader is a script that runs when imported.
    await import(`${pathToFileURL(file).href}?run=${++runs}`);
    sink.end();
    await new Promise<void>((done, fail) => sink.on("finish", done).on("error", fail));
    return sink.bytes();
  } catch (e) {
    throw new Error(`${loader} failed: ${e instanceof Error ? e.message : String(e)}`, {cause: e});
  } finally {
    Object.defineProperty(process, "stdout", saved.stdout);
    process.argv = saved.argv;
    process.env = saved.env;
  }
}
