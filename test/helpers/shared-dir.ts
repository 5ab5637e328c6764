// One folder per test run for what test files share: stores filled and sites
// built once (test/browser/sites.ts). The global setup (test/global-setup.ts)
// makes it and removes it when the run ends; a file run outside that setup
// gets a folder of its own process, removed when the process exits.

import {mkdtempSync, rmSync} from "node:fs";
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

/** The folder this test run's files share. */
export function sharedDir(): string {
  const provided = inject("sharedDir");
  if (provided) return provided;
  if (!own) {
    own = mkdtempSync(join(tmpdir(), "sociometer-shared-"));
    const dir = own;
    process.on("exit", () => rmSync(dir, {recursive: true, force: true}));
  }
  return own;
}
