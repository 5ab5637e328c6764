// Whole-build reuse for `npm run build` (scripts/build.ts): with every input
// of the last build unchanged, its dist/ is the build, and Framework's own
// per-page work (10 CPU-seconds on the samples, whatever the store holds) is
// skipped. A stale dist is a wrong number on a page, so the inputs are all of
// them: every file under src/ and loaders/, the built-in audit CSVs, the
// config, package and lock files, the installed Framework, Node's version,
// the store's fingerprint and the output-changing environment options; and
// dist/ itself must be as that build left it.

import {existsSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync} from "node:fs";
import {dirname, isAbsolute, join, relative} from "node:path";
import {digestOf, envDigests, fileDigest, filesUnder, storeFingerprint} from "./build-inputs.js";

/** Files at the project's top level (or below node_modules) that change what a build produces. */
const PROJECT_FILES = [
  "observablehq.config.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "node_modules/.package-lock.json",
  "node_modules/@observablehq/framework/package.json",
];

/** Source folders hashed whole: pages, client modules, loaders and what they import. */
const SOURCE_FOLDERS = ["src", "loaders"];

export interface BuildSetting {
  /** The project folder (where observablehq.config.ts is). */
  project: string;
  /** The store the build reads (SOCIOMETER_DB, else data/sociometer.duckdb). */
  storePath: string;
  /** Files a loader reads at run time besides the store: the built-in audit CSVs. */
  readFiles: readonly string[];
  env: NodeJS.ProcessEnv;
  nodeVersion: string;
}

/** Every input of a build and its digest, by a name a person can read ("src/sotopia.md", "the store", "SOCIOMETER_EXPLORER_ROWS"). */
export function buildInputs(setting: BuildSetting): Record<string, string> {
  const {project} = setting;
  const inputs: Record<string, string> = {};
  for (const folder of SOURCE_FOLDERS) {
    // Framework's cache holds outputs, not inputs.
    for (const file of filesUnder(join(project, folder), project, new Set([".observablehq"]))) inputs[file] = fileDigest(join(project, file));
  }
  for (const file of PROJECT_FILES) inputs[file] = fileDigest(join(project, file));
  for (const file of setting.readFiles) {
    const name = relative(project, file);
    inputs[name.startsWith("..") || isAbsolute(name) ? file : name] = fileDigest(file);
  }
  inputs["the store"] = storeFingerprint(setting.storePath);
  for (const [name, digest] of Object.entries(envDigests(setting.env))) inputs[`environment ${name}`] = digest;
  inputs["Node's version"] = digestOf([setting.nodeVersion]);
  return inputs;
}

/** What a build left in dist/: every file's path, size and modification time. */
export function distDigest(dist: string): string {
  if (!existsSync(dist)) return "absent";
  const files = filesUnder(dist, dist);
  return digestOf(files.map((f) => {
    const {size, mtimeMs} = statSync(join(dist, f));
    return `${f}:${size}:${mtimeMs}`;
  }));
}

interface BuildRecord {
  builtAt: string;
  inputs: Record<string, string>;
  dist: string;
}

/** Where the record of the last complete build lives: Framework's cache folder, never shipped. */
export function buildRecordPath(project: string): string {
  return join(project, "src", ".observablehq", "cache", "site-build.json");
}

function readRecord(path: string): BuildRecord | null {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as BuildRecord;
  } catch {
    return null;
  }
}

export type ReuseDecision = {reuse: true; message: string} | {reuse: false; message: string};

/** The names whose digests differ between two sets of inputs, added and removed ones included, sorted. */
export function changedInputs(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return Array.from(names).filter((n) => before[n] !== after[n]).sort();
}

function listed(names: readonly string[]): string {
  return names.length > 8 ? `${names.slice(0, 8).join(", ")} and ${names.length - 8} more` : names.join(", ");
}

/** Whether dist/ can stand as this build, and why (or why not), in words for the build's log. */
export function reuseDecision(project: string, inputs: Record<string, string>, dist = join(project, "dist")): ReuseDecision {
  const record = readRecord(buildRecordPath(project));
  if (!record) return {reuse: false, message: "no complete build recorded"};
  const changed = changedInputs(record.inputs, inputs);
  if (changed.length) return {reuse: false, message: `changed since the build of ${record.builtAt}: ${listed(changed)}`};
  if (distDigest(dist) !== record.dist) return {reuse: false, message: `${relative(project, dist) || dist} is missing or changed since the build of ${record.builtAt}`};
  const files = Object.keys(inputs).filter((n) => !n.startsWith("environment ") && n !== "the store" && n !== "Node's version").length;
  const options = Object.keys(inputs).filter((n) => n.startsWith("environment ")).map((n) => n.slice("environment ".length));
  const setting = options.length ? `the options ${options.join(", ")}` : "no output-changing SOCIOMETER_/OBSERVABLE_ option set";
  return {reuse: true, message: `reused ${relative(project, dist) || dist} of ${record.builtAt}: nothing changed since (${files} source, config and lock files; the store; ${setting}; Node)`};
}

/** Forgets the last build, before a new one starts: an interrupted build must not look complete. */
export function forgetBuild(project: string): void {
  rmSync(buildRecordPath(project), {force: true});
}

/** Records a complete build made from `inputs`, with dist/ as it left it. */
export function recordBuild(project: string, inputs: Record<string, string>, dist = join(project, "dist"), now = new Date()): void {
  const path = buildRecordPath(project);
  mkdirSync(dirname(path), {recursive: true});
  const record: BuildRecord = {builtAt: now.toISOString().replace(/\.\d+Z$/, "Z"), inputs, dist: distDigest(dist)};
  writeFileSync(path, JSON.stringify(record, null, 1));
}
