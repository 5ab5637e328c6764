// What every `sociometer run` command shares, whichever benchmark it plays:
// where logs go, the settings read the same way from every command line, the
// dry run's printout, and the end of a run (cost, merged log, import, exit
// code). run.ts and run-informativebench.ts both build on it, so neither
// imports the other for these.

import {existsSync, readFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {importFiles, type ImportSummary} from "../import/session.js";
import {stderrProgress, silentProgress, type Progress} from "../progress.js";
import type {Chat} from "../run/chat.js";
import {DEFAULT_BASE_URL, displayEndpoint, type ChatClient} from "../run/client.js";
import type {EndpointFailure} from "../run/episodes/support.js";
import {DEFAULT_PRICES_PATH, loadPrices} from "../run/prices.js";
import {defaultStorePath, type Store} from "../store/db.js";
import {pricedAsNote} from "./judge.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SAMPLE_PROFILES = join(ROOT, "data/samples/profiles");
export const RUNS_DIR = join(ROOT, "data/runs");

export interface RunDeps {
  /** A Chat to use instead of the real client (tests). */
  chat?: Chat;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/**
 * The run's log: this command's records, after the records of the same run an
 * earlier command wrote to the same file and this one did not play again, so
 * that selecting other episodes of a run adds to its log instead of dropping
 * what was there (the import replaces the file as a whole).
 */
export function mergeRunLog(path: string, kind: string, runId: string, records: readonly {episode_id: string}[]): {episode_id: string}[] {
  if (!existsSync(path)) return [...records];
  const now = new Set(records.map((r) => r.episode_id));
  const prefix = `${kind}-${runId}-`;
  const earlier = readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as {episode_id: string})
    .filter((r) => typeof r.episode_id === "string" && r.episode_id.startsWith(prefix) && !now.has(r.episode_id));
  return [...earlier, ...records];
}

export function printDryRun(out: (t: string) => void, prompts: [string, {role: string; content: string}[]][], count: string): void {
  for (const [title, messages] of prompts) {
    out(`── ${title} ──\n`);
    for (const m of messages) out(`[${m.role}]\n${m.content}\n\n`);
  }
  out(`dry run: ${count}; nothing was sent\n`);
}

export function describeImport(s: ImportSummary): string {
  const f = s.files[0]!;
  return f.status === "unchanged"
    ? `import: unchanged, the same log is already in the store (nothing to do)\n`
    : `import (${s.format}): ${f.status}, ${s.episodes} episode(s)\n`;
}

/** What every runner's command line sets the same way: the store, the price table, the progress bar and the endpoint as the run id names it. */
export function runSetting(values: {db?: string; prices?: string; quiet?: boolean; "base-url"?: string}): {dbPath: string; prices: ReturnType<typeof loadPrices> | undefined; progress: Progress; endpoint: string} {
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  // A price table asked for must exist (a typo would silently price nothing); the shipped one may be missing.
  const prices = values.prices !== undefined ? loadPrices(values.prices) : existsSync(DEFAULT_PRICES_PATH) ? loadPrices(DEFAULT_PRICES_PATH) : undefined;
  const bar = values.quiet ? silentProgress : stderrProgress();
  let started = false;
  // finish only after a start, so a run that asks nothing prints no empty bar.
  const progress: Progress = {...bar, start: (...a) => ((started = true), bar.start(...a)), finish: () => started && ((started = false), bar.finish())};
  const endpoint = displayEndpoint(values["base-url"]?.trim() || process.env.OPENAI_BASE_URL?.trim() || DEFAULT_BASE_URL);
  return {dbPath, prices, progress, endpoint};
}

/**
 * The end every runner shares once its log is written: what the endpoint was
 * asked and cost, the log imported (unless `store` is null), and the units
 * that stopped on endpoint errors, which make the exit code 3 (run again to
 * resume).
 */
export async function finishRun(
  run: {client: ChatClient | null | undefined; store: Store | null; format: string; outPath: string; progress: Progress; failures: readonly EndpointFailure[]},
  {out, err}: {out: (text: string) => void; err: (text: string) => void}
): Promise<number> {
  if (run.client) {
    const s = run.client.stats;
    out(`endpoint ${run.client.endpoint}: ${s.requests} request(s) sent, ${s.cached} answered from the cache, ${s.retries} retried; ` +
      `${s.promptTokens} prompt + ${s.completionTokens} completion tokens sent; estimated cost $${s.cost.toFixed(4)}${pricedAsNote(s.pricedAs)}${s.unpriced ? ` (${s.unpriced} request(s) of unpriced models not counted)` : ""}\n`);
  }
  if (run.store) out(describeImport(await importFiles(run.store, run.format, [run.outPath], {progress: run.progress})));
  if (run.failures.length) {
    err(`${run.failures.length} unit(s) stopped on endpoint errors and are not in the log; run the same command again to resume:\n`);
    for (const f of run.failures.slice(0, 10)) err(`  ${f.what}: ${f.message}\n`);
    return 3;
  }
  return 0;
}
