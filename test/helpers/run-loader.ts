// Runs one data loader alone, as Framework runs it (`tsx loader.ts [--param=value]`
// from the project's root), and returns what it wrote to standard output.

import {spawn} from "node:child_process";
import {REPO} from "./fixtures.js";

/**
 * `loader` is a path from the repository's root (src/data/…). With `store`,
 * the loader reads that store (SOCIOMETER_DB). A failure names the loader, its
 * exit code and what it wrote to standard error.
 */
export function runLoaderAlone(loader: string, options: {store?: string; args?: readonly string[]; env?: NodeJS.ProcessEnv} = {}): Promise<Buffer> {
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
