// `npm run build` after `npm run store`: runs `observable build`, unless the
// last complete build's inputs are all unchanged and dist/ is as it left it
// (src/data/build-reuse.ts); then that dist/ is the build, and this says so.
// A bare `observable build` always builds (its loaders still skip work when
// the store is unchanged: src/data/site-cache.ts).
//
//   tsx scripts/build.ts              (run in the project folder)
//   tsx scripts/build.ts --force      (build even when nothing changed)

import {spawn} from "node:child_process";
import {join, resolve} from "node:path";
import {builtinAuditPaths} from "../loaders/audit/builtins.js";
import {buildInputs, changedInputs, forgetBuild, recordBuild, reuseDecision, type BuildSetting} from "../src/data/build-reuse.js";

const project = process.cwd();
const force = process.argv.slice(2).includes("--force");
// As loaders/store/db.ts resolves it, without loading DuckDB for a build that may not need it.
const setting = (): BuildSetting => ({
  project,
  storePath: resolve(process.env.SOCIOMETER_DB ?? "data/sociometer.duckdb"),
  readFiles: builtinAuditPaths(),
  env: process.env,
  nodeVersion: process.version,
});

function observableBuild(): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(project, "node_modules", ".bin", "observable"), "build"], {stdio: "inherit"});
    child.on("error", fail);
    child.on("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

// dist/ is Framework's default output, which observablehq.config.ts keeps (a change to the config is a changed input).
const before = buildInputs(setting());
const decision = reuseDecision(project, before);
if (decision.reuse && !force) {
  process.stderr.write(`build: ${decision.message}; \`npm run build -- --force\` builds anyway\n`);
} else {
  process.stderr.write(`build: building (${force ? "--force" : decision.message})\n`);
  forgetBuild(project);
  const code = await observableBuild();
  if (code !== 0) process.exit(code);
  // Recorded only when nothing changed while it ran: what dist/ shows then belongs to these inputs.
  const changed = changedInputs(before, buildInputs(setting()));
  if (changed.length) process.stderr.write(`build: not recorded for reuse, changed while it ran: ${changed.join(", ")}\n`);
  else recordBuild(project, before);
}
