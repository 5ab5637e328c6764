// `npm run build` reuses the last dist/ only when every input is unchanged:
// one test per kind of input (change it, and the build runs), the options
// that must not matter, and the wrapper end to end with a stand-in for
// `observable build`.

import {execFile} from "node:child_process";
import {appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from "node:fs";
import {join, relative} from "node:path";
import {pathToFileURL} from "node:url";
import {promisify} from "node:util";
import {describe, expect, it} from "vitest";
import {buildInputs, forgetBuild, recordBuild, reuseDecision, type BuildSetting} from "../../src/data/build-reuse.js";
import {ENV_NOT_AFFECTING_OUTPUT, envDigests, filesUnder, localImportClosure} from "../../src/data/build-inputs.js";
import {loaderOfOutput, loaderOutputs} from "../../src/data/site-cache.js";
import {REPO} from "../helpers/fixtures.js";
import {tempDir} from "../helpers/store.js";

const TOP_FILES = [
  "observablehq.config.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "node_modules/.package-lock.json",
  "node_modules/@observablehq/framework/package.json",
];

/** A project that was built: sources, config and lock files, a store, an audit CSV outside it, a dist, and the record. */
function builtProject(): {dir: string; setting: BuildSetting; write(path: string, text: string): void; decide(s?: Partial<BuildSetting>): ReturnType<typeof reuseDecision>} {
  const dir = tempDir();
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, ".."), {recursive: true});
    writeFileSync(join(dir, path), text);
  };
  write("src/index.md", "# Overview\n");
  write("src/client/overview.ts", "export const x = 1;\n");
  write("src/data/overview.json.ts", "process.stdout.write('{}');\n");
  write("loaders/queries/overview.ts", "export const SQL = 'SELECT 1';\n");
  for (const file of TOP_FILES) write(file, `${file}\n`);
  write("data/sociometer.duckdb", "store state 1");
  write("outside/audits/table-1.csv", "a,b\n1,2\n");
  write("dist/index.html", "<p>built</p>");
  write("dist/_file/data/overview.0123abcd.json", "{}");
  const setting: BuildSetting = {
    project: dir,
    storePath: join(dir, "data", "sociometer.duckdb"),
    readFiles: [join(dir, "outside", "audits", "table-1.csv")],
    env: {PATH: "/usr/bin"},
    nodeVersion: "v20.20.2",
  };
  recordBuild(dir, buildInputs(setting), join(dir, "dist"), new Date("2026-11-24T23:00:00Z"));
  return {dir, setting, write, decide: (s = {}) => reuseDecision(dir, buildInputs({...setting, ...s}))};
}

describe("reusing the last build", () => {
  it("reuses dist when nothing changed, and says what it checked", () => {
    expect(builtProject().decide()).toEqual({
      reuse: true,
      message: "reused dist of 2026-11-24T23:00:00Z: nothing changed since (11 source, config and lock files; the store; no output-changing SOCIOMETER_/OBSERVABLE_ option set; Node)",
    });
  });

  it("builds when no build was recorded, or the last one was forgotten when a build started", () => {
    const p = builtProject();
    forgetBuild(p.dir);
    expect(p.decide()).toEqual({reuse: false, message: "no complete build recorded"});
  });

  it("builds after a page, a client module or a loader under src/ changed, naming it", () => {
    for (const file of ["src/index.md", "src/client/overview.ts", "src/data/overview.json.ts"]) {
      const p = builtProject();
      appendFileSync(join(p.dir, file), "\n");
      expect(p.decide()).toEqual({reuse: false, message: `changed since the build of 2026-11-24T23:00:00Z: ${file}`});
    }
  });

  it("builds after a source file was added or removed", () => {
    const added = builtProject();
    added.write("src/new-page.md", "# New\n");
    expect(added.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: src/new-page.md");
    const removed = builtProject();
    rmSync(join(removed.dir, "src", "client", "overview.ts"));
    expect(removed.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: src/client/overview.ts");
  });

  it("builds after a file reached through a link under src/ changed", () => {
    const p = builtProject();
    p.write("elsewhere/linked.md", "# Linked\n");
    symlinkSync(join(p.dir, "elsewhere"), join(p.dir, "src", "linked"), "dir");
    recordBuild(p.dir, buildInputs(p.setting), join(p.dir, "dist"), new Date("2026-11-24T23:00:00Z"));
    appendFileSync(join(p.dir, "elsewhere", "linked.md"), "More.\n");
    expect(p.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: src/linked/linked.md");
  });

  it("builds after a module under loaders/ changed", () => {
    const p = builtProject();
    p.write("loaders/queries/overview.ts", "export const SQL = 'SELECT 2';\n");
    expect(p.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: loaders/queries/overview.ts");
  });

  it("builds after a file a loader reads at run time changed (the audit CSVs), wherever it is", () => {
    const p = builtProject();
    appendFileSync(join(p.dir, "outside", "audits", "table-1.csv"), "3,4\n");
    expect(p.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: outside/audits/table-1.csv");
  });

  it("builds after the config, package, lock or tsconfig file, or the installed Framework, changed", () => {
    for (const file of TOP_FILES) {
      const p = builtProject();
      appendFileSync(join(p.dir, file), "changed\n");
      expect(p.decide(), file).toEqual({reuse: false, message: `changed since the build of 2026-11-24T23:00:00Z: ${file}`});
    }
  });

  it("builds after the store changed, its WAL appeared, or another store with the same bytes is named", () => {
    const changed = builtProject();
    appendFileSync(changed.setting.storePath, ", then an import");
    expect(changed.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: the store");
    const wal = builtProject();
    writeFileSync(`${wal.setting.storePath}.wal`, "pending");
    expect(wal.decide().message).toBe("changed since the build of 2026-11-24T23:00:00Z: the store");
    const other = builtProject();
    const copy = join(other.dir, "data", "other.duckdb");
    copyFileSync(other.setting.storePath, copy);
    expect(other.decide({storePath: copy}).message).toBe("changed since the build of 2026-11-24T23:00:00Z: the store");
  });

  it("builds when an output-changing option is set, and not for options that only change how it runs", () => {
    const p = builtProject();
    expect(p.decide({env: {PATH: "/usr/bin", SOCIOMETER_EXPLORER_ROWS: "1000"}}).message).toBe(
      "changed since the build of 2026-11-24T23:00:00Z: environment SOCIOMETER_EXPLORER_ROWS",
    );
    expect(p.decide({env: {PATH: "/bin", SOCIOMETER_DB: "x.duckdb", SOCIOMETER_SHARED_LOADERS: "0", SOCIOMETER_LOADER_MEMORY: "4GiB", SOCIOMETER_LOCK_WAIT_SECONDS: "5", OBSERVABLE_TELEMETRY_DISABLE: "true", OPENAI_API_KEY: "sk-x"}}).reuse).toBe(true);
  });

  it("builds under another Node version", () => {
    expect(builtProject().decide({nodeVersion: "v22.1.0"}).message).toBe("changed since the build of 2026-11-24T23:00:00Z: Node's version");
  });

  it("builds when dist was changed or removed since, and ignores Framework's cache folder", () => {
    const edited = builtProject();
    appendFileSync(join(edited.dir, "dist", "index.html"), "<p>edited</p>");
    expect(edited.decide().message).toBe("dist is missing or changed since the build of 2026-11-24T23:00:00Z");
    const removed = builtProject();
    rmSync(join(removed.dir, "dist"), {recursive: true});
    expect(removed.decide().reuse).toBe(false);
    const cached = builtProject();
    cached.write("src/.observablehq/cache/data/overview.json", '{"new": true}');
    expect(cached.decide().reuse).toBe(true);
  });

  it("keeps no option's value in the record, only digests", () => {
    const p = builtProject();
    recordBuild(p.dir, buildInputs({...p.setting, env: {SOCIOMETER_EXPLORER_ROWS: "secret-looking-value"}}));
    expect(readFileSync(join(p.dir, "src", ".observablehq", "cache", "site-build.json"), "utf8")).not.toContain("secret-looking-value");
  });
});

describe("what the build reads is what the key covers", () => {
  const closure = (): string[] => {
    const cache = new Map<string, string[]>();
    const files = new Set(localImportClosure(join(REPO, "observablehq.config.ts"), cache));
    const root = join(REPO, "src");
    for (const output of loaderOutputs(root, ["/data/tables/episodes.parquet"])) {
      for (const file of localImportClosure(loaderOfOutput(root, output)!.loader, cache)) files.add(file);
    }
    return Array.from(files).map((f) => relative(REPO, f));
  };

  it("every module the config and the loaders import is under src/ or loaders/, which are hashed whole", () => {
    const modules = closure();
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.filter((f) => !f.startsWith("src/") && !f.startsWith("loaders/"))).toEqual(["observablehq.config.ts"]);
  });

  it("every environment variable that site code reads is an output-changing option or one known not to change outputs", () => {
    const siteFiles = new Set([...closure(), ...filesUnder(join(REPO, "src"), REPO, new Set([".observablehq"])).filter((f) => /\.[cm]?[jt]s$/.test(f))]);
    const read = new Set<string>();
    for (const file of siteFiles) {
      for (const m of readFileSync(join(REPO, file), "utf8").matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\])/g)) read.add(m[1] ?? m[2]!);
    }
    expect(read.size).toBeGreaterThan(2);
    const uncovered = Array.from(read).filter((name) => !ENV_NOT_AFFECTING_OUTPUT.has(name) && !(name in envDigests({[name]: "x"})));
    expect(uncovered).toEqual([]);
  });
});

const run = promisify(execFile);
// tsx by its own address: the project's folder has no node_modules of its own to find it in.
const TSX = pathToFileURL(join(REPO, "node_modules", "tsx", "dist", "loader.mjs")).href;

/** A project whose `observable build` is a stand-in that writes dist/ and counts its runs. */
function wrappedProject(): {dir: string; build(env?: NodeJS.ProcessEnv, args?: string[]): Promise<string>; runs(): number} {
  const dir = tempDir();
  mkdirSync(join(dir, "src"), {recursive: true});
  writeFileSync(join(dir, "src", "index.md"), "# Overview\n");
  writeFileSync(join(dir, "observablehq.config.ts"), "export default {};\n");
  mkdirSync(join(dir, "data"));
  writeFileSync(join(dir, "data", "sociometer.duckdb"), "store");
  mkdirSync(join(dir, "node_modules", ".bin"), {recursive: true});
  writeFileSync(
    join(dir, "node_modules", ".bin", "observable"),
    [
      'const fs = require("node:fs");',
      'fs.appendFileSync("runs.txt", "run\\n");',
      'fs.rmSync("dist", {recursive: true, force: true});',
      'fs.mkdirSync("dist");',
      'fs.writeFileSync("dist/index.html", fs.readFileSync("src/index.md"));',
      'if (process.env.EDIT_DURING_BUILD) fs.appendFileSync("src/index.md", "edited meanwhile\\n");',
    ].join("\n"),
  );
  return {
    dir,
    async build(env = {}, args = []) {
      const {stderr} = await run(process.execPath, ["--import", TSX, join(REPO, "scripts", "build.ts"), ...args], {cwd: dir, env: {PATH: process.env.PATH ?? "", ...env}});
      return stderr;
    },
    runs: () => (existsSync(join(dir, "runs.txt")) ? readFileSync(join(dir, "runs.txt"), "utf8").split("\n").filter(Boolean).length : 0),
  };
}

describe("npm run build (scripts/build.ts)", () => {
  it("builds, then reuses dist while nothing changes, and builds again after a page changed", async () => {
    const p = wrappedProject();
    expect(await p.build()).toContain("build: building (no complete build recorded)");
    expect(await p.build()).toMatch(/^build: reused dist of \S+: nothing changed since \(/);
    expect(p.runs()).toBe(1);
    appendFileSync(join(p.dir, "src", "index.md"), "More.\n");
    expect(await p.build()).toMatch(/build: building \(changed since the build of \S+: src\/index\.md\)/);
    expect(p.runs()).toBe(2);
    expect(readFileSync(join(p.dir, "dist", "index.html"), "utf8")).toBe("# Overview\nMore.\n");
    expect(await p.build({}, ["--force"])).toContain("build: building (--force)");
    expect(p.runs()).toBe(3);
  });

  it("does not record a build whose inputs changed while it ran, so the next one builds", async () => {
    const p = wrappedProject();
    expect(await p.build({EDIT_DURING_BUILD: "1"})).toContain("build: not recorded for reuse, changed while it ran: src/index.md");
    expect(await p.build()).toContain("build: building (no complete build recorded)");
    expect(p.runs()).toBe(2);
  });
});
