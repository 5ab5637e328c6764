// One folder per test run for what test files share: stores filled and sites
// built once (test/helpers/shared-stores.ts, test/browser/sites.ts). The
// global setup (test/global-setup.ts) makes it and removes it when the run
// ends; a file run outside that setup (a benchmark script, say) gets a folder
// of its own process, removed when the process exits.

import {existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import {inject} from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's shared folder (test/global-setup.ts). */
    sharedDir: string;
  }
}

let own: string | undefined;

/** The global setup's folder; none outside a vitest run. */
function providedDir(): string | undefined {
  try {
    return inject("sharedDir");
  } catch {
    return undefined;
  }
}

/** The folder this test run's files share. */
export function sharedDir(): string {
  const provided = providedDir();
  if (provided) return provided;
  if (!own) {
    own = mkdtempSync(join(tmpdir(), "sociometer-shared-"));
    const dir = own;
    process.on("exit", () => rmSync(dir, {recursive: true, force: true}));
  }
  return own;
}

/** How long a file waits for another's work before it gives up. */
const WAIT_MS = 20 * 60_000;

/** What this process has asked for, by name. */
const asked = new Map<string, Promise<unknown>>();

/**
 * The result of `make` for `name`, made once per test run by whichever file
 * asks first, in a folder of its own under the shared folder; the others wait
 * for it. The result must be JSON (paths into that folder, say). A failure is
 * every asker's failure, with the maker's message.
 */
export function oncePerRun<T>(name: string, make: (dir: string) => Promise<T>): Promise<T> {
  let result = asked.get(name) as Promise<T> | undefined;
  if (!result) asked.set(name, (result = makeOnce(name, make)));
  return result;
}

async function makeOnce<T>(name: string, make: (dir: string) => Promise<T>): Promise<T> {
  const dir = join(sharedDir(), name);
  const done = join(dir, "result.json");
  const failed = join(dir, "failed.txt");
  try {
    // mkdir is atomic: of the files that ask at once, one makes it.
    mkdirSync(dir);
  } catch {
    const start = Date.now();
    while (!existsSync(done) && !existsSync(failed)) {
      if (Date.now() - start > WAIT_MS) throw new Error(`the shared ${name} was not made after ${WAIT_MS / 60_000} min (${dir})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    if (existsSync(failed)) throw new Error(`the shared ${name} failed in another test file: ${readFileSync(failed, "utf8")}`);
    return JSON.parse(readFileSync(done, "utf8")) as T;
  }
  try {
    const result = await make(dir);
    // Renamed into place: a file waiting for it never reads half of it.
    writeFileSync(`${done}.partial`, JSON.stringify(result));
    renameSync(`${done}.partial`, done);
    return result;
  } catch (error) {
    writeFileSync(failed, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
