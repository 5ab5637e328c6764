// The CLI for tests, two ways. `cli` runs a command in the test's own process
// (the program's runCommand, with stdout and stderr captured), which costs
// milliseconds instead of a child's start-up of tsx and DuckDB (1–3 s on a busy
// machine). `cliProcess` runs the real program (bin/sociometer.js) as a child:
// use it where the process is what is tested (exit after output drains, pipes,
// signals, environment variables read at start-up).

import {execFile} from "node:child_process";
import {join} from "node:path";
import {promisify} from "node:util";
import {runCommand} from "../../loaders/cli/main.js";
import {REPO} from "./fixtures.js";
import {CapturedOutput, oneAtATime} from "./in-process.js";

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sociometer …args` in this process, as the program would from the repository, and returns what it printed and its exit code. */
export function cli(args: string[]): Promise<CliResult> {
  return oneAtATime(() => captured(args));
}

async function captured(args: string[]): Promise<CliResult> {
  const out = new CapturedOutput();
  const err = new CapturedOutput();
  const saved = {stdout: Object.getOwnPropertyDescriptor(process, "stdout")!, stderr: Object.getOwnPropertyDescriptor(process, "stderr")!};
  const savedColor = process.env.NO_COLOR;
  Object.defineProperty(process, "stdout", {value: out, configurable: true, writable: true});
  Object.defineProperty(process, "stderr", {value: err, configurable: true, writable: true});
  process.env.NO_COLOR = "1";
  try {
    const code = await runCommand(args);
    return {code, stdout: out.text(), stderr: err.text()};
  } finally {
    Object.defineProperty(process, "stdout", saved.stdout);
    Object.defineProperty(process, "stderr", saved.stderr);
    if (savedColor === undefined) delete process.env.NO_COLOR;
    else process.env.NO_COLOR = savedColor;
  }
}

/** A child's result: `code` is null when a signal ended it, and only then is `signal` there (so it equals an in-process CliResult otherwise). */
export interface ProcessResult extends Omit<CliResult, "code"> {
  code: number | null;
  signal?: NodeJS.Signals;
}

/** Runs `sociometer …args` as a child process in the repository and returns what it printed and its exit code. */
export async function cliProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ProcessResult> {
  try {
    const {stdout, stderr} = await run(process.execPath, [join(REPO, "bin/sociometer.js"), ...args], {cwd: REPO, env: {...process.env, NO_COLOR: "1", ...env}});
    return {code: 0, stdout, stderr};
  } catch (e) {
    const x = e as {code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string};
    return {code: x.code, ...(x.signal ? {signal: x.signal} : {}), stdout: x.stdout, stderr: x.stderr};
  }
}

/** An exit code other than 0, as `cliOrThrow` rejects with it: the message ends with what the command wrote to stderr. */
export class CliFailure extends Error {
  constructor(args: readonly string[], readonly code: number, readonly stdout: string, readonly stderr: string) {
    super(`sociometer ${args.join(" ")} exited with ${code}\n${stderr}`);
  }
}

/** `cli`, resolving with the output of a command that exits with 0 and rejecting (CliFailure) otherwise, as a promisified execFile does. */
export async function cliOrThrow(args: string[]): Promise<{stdout: string; stderr: string}> {
  const {code, stdout, stderr} = await cli(args);
  if (code !== 0) throw new CliFailure(args, code, stdout, stderr);
  return {stdout, stderr};
}
