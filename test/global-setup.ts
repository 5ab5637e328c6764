// Vitest's global setup: the run's shared folder (test/helpers/shared-dir.ts),
// made before the first file and removed after the last.

import {mkdtempSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {join} from "node:path";
import type {TestProject} from "vitest/node";
import "./helpers/shared-dir.js";

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "sociometer-shared-"));
  project.provide("sharedDir", dir);
  return () => rmSync(dir, {recursive: true, force: true});
}
