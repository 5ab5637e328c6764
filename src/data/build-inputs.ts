// What a build's outputs depend on, as digests: source files, the local
// modules a loader imports, the environment options, the store. Shared by the
// loader cache (site-cache.ts: rerun a loader when anything it reads changed)
// and the whole-build reuse (build-reuse.ts: reuse dist/ only when nothing did).

import {createHash} from "node:crypto";
import {existsSync, readdirSync, readFileSync, realpathSync, statSync} from "node:fs";
import {dirname, join, relative, resolve} from "node:path";

/** sha256 of a file's bytes, or "absent". */
export function fileDigest(path: string): string {
  if (!existsSync(path)) return "absent";
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** sha256 of parts joined by a separator no path or digest contains. */
export function digestOf(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\u0000");
  return hash.digest("hex");
}

/** What identifies the store's contents cheaply: its absolute path, size and modification time, and its WAL's. */
export function storeFingerprint(storePath: string): string {
  const path = resolve(storePath);
  const parts = [path];
  for (const file of [path, `${path}.wal`]) {
    if (!existsSync(file)) {
      parts.push("absent");
      continue;
    }
    const {size, mtimeMs} = statSync(file);
    parts.push(`${size}:${mtimeMs}`);
  }
  return digestOf(parts);
}

/**
 * Environment variables that change what loaders or pages produce: every
 * SOCIOMETER_* and OBSERVABLE_* variable, except those that change only how a
 * build runs: whether loaders share a process and how many such processes run
 * side by side, how long a loader waits for a lock, and DuckDB's memory cap,
 * which decides whether a loader finishes, not what it writes (a 1M build
 * given 4 GiB once must not rerun every loader after). SOCIOMETER_DB is left out because the store's fingerprint names the
 * store (and a build points it at its own snapshot). Other variables
 * (OPENAI_*, …) are read by the CLI, never by a loader or page; a test checks
 * that every variable src/ and loaders/ read is either covered or listed there.
 */
const ENV_PREFIXES = ["SOCIOMETER_", "OBSERVABLE_"];
export const ENV_NOT_AFFECTING_OUTPUT = new Set([
  "SOCIOMETER_DB",
  "SOCIOMETER_SHARED_LOADERS",
  "SOCIOMETER_LOADER_PROBE",
  "SOCIOMETER_LOADER_MEMORY",
  "SOCIOMETER_LOADER_PROCESSES",
  "SOCIOMETER_LOCK_WAIT_SECONDS",
  "OBSERVABLE_TELEMETRY_DISABLE",
  "OBSERVABLE_TELEMETRY_DEBUG",
]);

/** The output-changing variables that are set, name to value digest (values may be secrets: only digests are kept). */
export function envDigests(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) {
    if (!ENV_PREFIXES.some((p) => name.startsWith(p)) || ENV_NOT_AFFECTING_OUTPUT.has(name)) continue;
    out[name] = digestOf([name, env[name] ?? ""]);
  }
  return out;
}

// Static imports, re-exports, side-effect imports and dynamic imports with a literal specifier.
const IMPORT_SPECIFIER = /\bfrom\s*["'`]([^"'`]+)["'`]|\bimport\s*["'`]([^"'`]+)["'`]|\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g;

/** The file a relative specifier names, as tsx resolves it: `x.js` may be `x.ts`; none when it is not a local file. */
function resolveLocal(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null; // packages and node: builtins are pinned by the lock files
  const base = resolve(dirname(from), specifier.replace(/[?#].*$/, ""));
  const candidates = /\.[cm]?js$/.test(base)
    ? [base.replace(/\.([cm]?)js$/, ".$1ts"), base.replace(/\.([cm]?)js$/, ".$1tsx"), base]
    : [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, join(base, "index.ts"), join(base, "index.js")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/**
 * Every local file `entry` imports, directly or not, itself included, as
 * absolute paths. Conservative: a specifier in a comment counts too.
 */
export function localImportClosure(entry: string, cache: Map<string, string[]> = new Map()): string[] {
  const seen = new Set<string>([resolve(entry)]);
  const queue = [resolve(entry)];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!;
    let imports = cache.get(file);
    if (!imports) {
      imports = [];
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(IMPORT_SPECIFIER)) {
        const found = resolveLocal(file, match[1] ?? match[2] ?? match[3]!);
        if (found) imports.push(found);
      }
      cache.set(file, imports);
    }
    for (const next of imports) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return Array.from(seen).sort();
}

/**
 * Every file under `dir`, as paths relative to `base`, sorted; `skip` names
 * folders to leave out. Links are followed (a linked page is an input too),
 * each real folder walked once.
 */
export function filesUnder(dir: string, base: string, skip: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  const walked = new Set<string>();
  const walk = (folder: string) => {
    const real = realpathSync(folder);
    if (walked.has(real)) return;
    walked.add(real);
    for (const entry of readdirSync(folder, {withFileTypes: true})) {
      const path = join(folder, entry.name);
      const kind = entry.isSymbolicLink() && existsSync(path) ? statSync(path) : entry;
      if (kind.isDirectory()) {
        if (!skip.has(entry.name)) walk(path);
      } else if (kind.isFile()) {
        out.push(relative(base, path));
      }
    }
  };
  walk(dir);
  return out.sort();
}
