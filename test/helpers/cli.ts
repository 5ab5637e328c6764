// The CLI as a user runs it, for tests: a real child process (bin/sociometer.js),
// its exit code, stdout and stderr, whether it succeeded or not.

import {execFile} from "node:child_process";
import {join} from "node:path";
import {promisify} from "node:util";
import {REPO} from "./fixtures.js";

const run = promisify(execFile);

/** Runs `sociometer …args` in the repository and returns what it printed and its exit code. */
export async function cli(args: string[]): Promise<{code: number; stdout: string; stderr: string}> {
  try {
    const {stdout, stderr} = await run(process.execPath, [join(REPO, "bin/sociometer.js"), ...args], {cwd: REPO, env: {...process.env, NO_COLOR: "1"}});
    return {code: 0, stdout, stderr};
  } catch (e) {
    const x = e as {code: number; stdout: string; stderr: string};
    return {code: x.code, stdout: x.stdout, stderr: x.stderr};
  }
}
