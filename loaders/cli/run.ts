// `sociometer run <sotopia|lifelong|hsii|stss|informativebench>`: play episodes against a model
// endpoint, write them as a log in the benchmark's canonical format, and import
// that log like any other. Every request goes through the cached client, so a
// rerun of the same command replays finished calls and resumes where it stopped.

import {createHash} from "node:crypto";
import {existsSync, readFileSync} from "node:fs";
import {join, resolve} from "node:path";
import {committedChat, type Chat} from "../run/chat.js";
import {createChat, type ChatClient} from "../run/client.js";
import {casesFromFile, casesFromStore, hsiiPrompt, runHsii, type HsiiCase} from "../run/episodes/hsii.js";
import {chainSetup, lifelongChains, MEMORY_MODES, runLifelong, type MemoryMode} from "../run/episodes/lifelong.js";
import {agentPrompt, DEFAULT_MAX_STALE_TURNS} from "../run/episodes/play.js";
import {runSotopia, setupOf, sotopiaTasks} from "../run/episodes/sotopia.js";
import {loadStssTemplates, planPrompt, runStss, STSS_ARCHITECTURES, stssTasksFromStore, stssUnits, turnPrompt} from "../run/episodes/stss.js";
import {stableHash, writeJsonl, type EndpointFailure} from "../run/episodes/support.js";
import {loadProfiles, PROFILE_FILES} from "../run/profiles.js";
import type {Store} from "../store/db.js";
import {openCommandStore, type CommandStore} from "./command-store.js";
import {parseCommandLine, UsageError} from "./args.js";
import {finishRun, mergeRunLog, printDryRun, runSetting, RUNS_DIR, SAMPLE_PROFILES, type RunDeps} from "./run-shared.js";

export const RUN_HELP = `sociometer run: play episodes against an OpenAI-compatible endpoint, write the log, import it

Usage:
  sociometer run sotopia  --model M [--partner-model M] [--profiles DIR] [--limit N] [--seed S] [--combo ID …] [--repeats N]
  sociometer run lifelong --model M [--partner-model M] [--memory full|summary|none] [--episodes N] [--chains N] [--pair ID …] [--summary-model M]
  sociometer run hsii     --model M [--input FILE.jsonl]   (cases from FILE in the hsii format, else from the store)
  sociometer run informativebench --model M [--input FILE.jsonl] [--no-infonav]   (its own options: sociometer run informativebench --help)
  sociometer run stss     --model M [--partner-model M] [--architecture ga|ga+tdp] [--task ID …] [--limit N]   (tasks imported with stss-tasks)

Options (defaults in brackets):
  --model M            the model of seat 1 (a second --model sets seat 2)
  --partner-model M    the model of seat 2 [same as seat 1]
  --base-url URL       the endpoint [$OPENAI_BASE_URL, else OpenAI]; the key comes from $OPENAI_API_KEY
  --profiles DIR       SOTOPIA profile files [data/samples/profiles, a small synthetic set]
  --max-turns N        turns per episode, both agents together [20]
  --max-stale-turns N  end an episode after more than N \`none\` actions in a row, as sotopia does [2]
  --retries N          re-asks after an unusable answer, before the episode is recorded as failed [2]
  --temperature T      sampling temperature [the endpoint's default]
  --seed S             order in which combos, pairs and scenarios are taken [1]
  --limit N            combos (sotopia), cases (hsii), or tasks (stss), to run [all]
  --architecture A     stss: ga, or ga+tdp (a planning step before the conversations) [ga]
  --concurrency N      episodes and requests in flight [4]
  --run-id ID          names the run [a hash of the options, so the same command gives the same run]
  --out FILE           the log [data/runs/<kind>-<run id>.jsonl]
  --no-import          write the log only
  --prices FILE        price table for the cost estimate [config/prices.json]
  --dry-run            print the first prompts and the number of requests; send nothing
  --db FILE            the store, which also caches every request [$SOCIOMETER_DB or data/sociometer.duckdb]
  --quiet              no progress on stderr
`;

const KINDS = ["sotopia", "lifelong", "hsii", "stss"] as const;
type Kind = (typeof KINDS)[number];

/**
 * The options that shape only some runners. Given to another runner they would
 * be read and then ignored, so a run would silently differ from what its
 * command line says (an `--architecture ga+tdp` lifelong run is a plain one).
 */
const RUNNERS_OF_OPTION: Record<string, readonly Kind[]> = {
  "partner-model": ["sotopia", "lifelong", "stss"],
  profiles: ["sotopia", "lifelong"],
  "max-turns": ["sotopia", "lifelong", "stss"],
  "max-stale-turns": ["sotopia", "lifelong", "stss"],
  retries: ["sotopia", "lifelong", "stss"],
  seed: ["sotopia", "lifelong", "stss"],
  limit: ["sotopia", "hsii", "stss"],
  combo: ["sotopia"],
  repeats: ["sotopia"],
  memory: ["lifelong"],
  "summary-model": ["lifelong"],
  episodes: ["lifelong"],
  chains: ["lifelong"],
  pair: ["lifelong"],
  architecture: ["stss"],
  task: ["stss"],
  input: ["hsii"],
};

/** Refuses an option the chosen runner would ignore, naming the runners that take it. */
export function checkOptionsApply(kind: Kind, given: Record<string, unknown>, models: readonly string[]): void {
  for (const [option, runners] of Object.entries(RUNNERS_OF_OPTION)) {
    if (given[option] === undefined || runners.includes(kind)) continue;
    throw new UsageError(`--${option} applies to ${runners.map((r) => `run ${r}`).join(", ")}, not run ${kind}, which would ignore it`);
  }
  if (kind === "hsii" && models.length > 1) throw new UsageError("run hsii tests one model: give one --model (the gold answers are the other side)");
}

function wholeNumber(flag: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${flag} must be a whole number ≥ ${min}, not ${v}`);
  return n;
}

/** Runs `sociometer run …`; returns the exit code (3: some work stopped on endpoint errors; rerun to resume). */
export async function runCommand(argv: string[], deps: RunDeps = {}): Promise<number> {
  if (argv[0] === "informativebench") return (await import("./run-informativebench.js")).runInformativeBenchCommand(argv.slice(1), deps);
  const out = deps.out ?? ((t: string) => process.stdout.write(t));
  const err = deps.err ?? ((t: string) => process.stderr.write(t));
  const {values, positionals} = parseCommandLine({
    args: argv, allowPositionals: true,
    options: {
      model: {type: "string", multiple: true}, "partner-model": {type: "string"}, "summary-model": {type: "string"},
      "base-url": {type: "string"}, profiles: {type: "string"}, input: {type: "string"},
      "max-turns": {type: "string"}, "max-stale-turns": {type: "string"}, retries: {type: "string"}, temperature: {type: "string"}, seed: {type: "string"},
      limit: {type: "string"}, concurrency: {type: "string"}, repeats: {type: "string"}, combo: {type: "string", multiple: true},
      memory: {type: "string"}, architecture: {type: "string"}, task: {type: "string", multiple: true}, episodes: {type: "string"}, chains: {type: "string"}, pair: {type: "string", multiple: true},
      "run-id": {type: "string"}, out: {type: "string"}, "no-import": {type: "boolean"}, prices: {type: "string"},
      "dry-run": {type: "boolean"}, db: {type: "string"}, quiet: {type: "boolean"}, help: {type: "boolean", short: "h"},
    },
  }, () => "sociometer run <sotopia|lifelong|hsii|stss|informativebench> --model M [options]   (options: sociometer run --help)");
  const kind = positionals[0] as Kind | undefined;
  if (values.help || !kind) {
    out(RUN_HELP);
    return values.help ? 0 : 1;
  }
  if (!KINDS.includes(kind)) throw new Error(`unknown runner ${JSON.stringify(kind)}; runners: ${[...KINDS, "informativebench"].join(", ")}`);
  const models = values.model ?? [];
  if (!models.length) throw new Error("--model is required (the model that plays seat 1, or the tested model for hsii)");
  checkOptionsApply(kind, values, models);
  if (models.length > 2 || (models.length === 2 && values["partner-model"])) throw new Error("give at most two models: --model for seat 1, and a second --model or --partner-model for seat 2");
  const seats: [string, string] = [models[0]!, values["partner-model"] ?? models[1] ?? models[0]!];
  const maxTurns = wholeNumber("max-turns", values["max-turns"], 1) ?? 20;
  const maxStaleTurns = wholeNumber("max-stale-turns", values["max-stale-turns"], 0) ?? DEFAULT_MAX_STALE_TURNS;
  const retries = wholeNumber("retries", values.retries, 0) ?? 2;
  const concurrency = wholeNumber("concurrency", values.concurrency, 1) ?? 4;
  const limit = wholeNumber("limit", values.limit, 1);
  const repeats = wholeNumber("repeats", values.repeats, 1) ?? 1;
  const episodes = wholeNumber("episodes", values.episodes, 1) ?? 40;
  const chainCount = wholeNumber("chains", values.chains, 1) ?? 1;
  const temperature = values.temperature === undefined ? undefined : Number(values.temperature);
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= 2)) throw new Error(`--temperature must be a number from 0 to 2, not ${values.temperature}`);
  const memory = (values.memory ?? "full") as MemoryMode;
  if (!MEMORY_MODES.includes(memory)) throw new Error(`--memory must be ${MEMORY_MODES.join(", ")}, not ${values.memory}`);
  const seed = values.seed ?? "1";
  const profilesDir = resolve(values.profiles ?? SAMPLE_PROFILES);
  const {dbPath, prices, progress, endpoint} = runSetting(values);

  // The run id follows from what shapes a request only (runShape), so a command
  // that selects more, fewer or other episodes is the same run: it replays what
  // it asked before and adds the rest. The selection is recorded in the log.
  // The endpoint (runSetting) is part of it: the same model name served elsewhere answers differently, and its episodes must not replace these.
  const architecture = STSS_ARCHITECTURES[(values.architecture ?? "ga").toLowerCase().replace(/\s+/g, "") as keyof typeof STSS_ARCHITECTURES];
  if (!architecture) throw new Error(`--architecture must be ${Object.keys(STSS_ARCHITECTURES).join(" or ")}, not ${values.architecture}`);
  const runId = values["run-id"] ?? stableHash(runShape(kind, {endpoint, seats, maxTurns, maxStaleTurns, retries, temperature, memory, summaryModel: values["summary-model"], seed, profilesDir, architecture}), 10);
  if (!/^[A-Za-z0-9._-]+$/.test(runId)) throw new Error(`--run-id may hold letters, digits, '.', '_' and '-' only, not ${JSON.stringify(runId)}`);
  const outPath = resolve(values.out ?? join(RUNS_DIR, `${kind}-${runId}.jsonl`));
  const play = {maxTurns, maxStaleTurns, maxAttempts: retries + 1, temperature, runId, models: seats, concurrency};

  // Work to do, and the dry run's account of it.
  let work: () => Promise<{records: unknown[]; failures: EndpointFailure[]}>;
  let format: string;
  let store: Store | null = null;
  // Kept when a failed run wrote to it: its cached answers let the same command resume.
  let opened: CommandStore | null = null;
  let threw = false;
  let client: ChatClient | null = null;
  // Answers are committed before a runner sees them; the request's slot is free while that runs (deferSave).
  const chatOf = (): Chat => deps.chat ?? committedChat(client!.chat);
  try {
    const needStore = !values["dry-run"] || (kind === "hsii" && !values.input) || kind === "stss";
    if (needStore) {
      opened = await openCommandStore(dbPath, {keepOnFailure: true});
      store = opened.store;
    }
    if (!values["dry-run"] && !deps.chat) {
      client = createChat({
        store: store!, deferSave: true, baseURL: values["base-url"], concurrency, runId: `run:${runId}`,
        prices,
        onRetry: ({attempt, delayMs, reason}) => err(`retry ${attempt} in ${(delayMs / 1000).toFixed(1)} s: ${reason}\n`),
      });
    }

    if (kind === "sotopia") {
      const tasks = sotopiaTasks(loadProfiles(profilesDir), {seed, limit, comboIds: values.combo, repeats});
      format = "canonical";
      if (values["dry-run"]) {
        const setup = setupOf(tasks[0]!, seats);
        printDryRun(out, [
          ["seat 1, turn 1", agentPrompt(setup, 0, [], maxTurns)],
          ["seat 2 (system part; the transcript follows the answers)", agentPrompt(setup, 1, [], maxTurns).slice(0, 1)],
        ], `${tasks.length} episode(s) from ${profilesDir}: at most ${tasks.length * maxTurns} requests (${maxTurns} turns each), plus up to ${retries} re-ask(s) per unusable answer`);
        return 0;
      }
      progress.start(`sotopia run ${runId}`, tasks.length, "items");
      work = () => runSotopia(chatOf(), tasks, {...play, selection: {seed, limit: limit ?? null, combos: values.combo ?? null, repeats}, onDone: (n) => progress.update(n)});
    } else if (kind === "lifelong") {
      const chains = lifelongChains(loadProfiles(profilesDir), {seed, chains: chainCount, pairIds: values.pair, episodes});
      const total = chains.reduce((s, c) => s + c.scenarios.length, 0);
      format = "lifelong";
      for (const c of chains) if (c.scenarios.length < episodes) err(`chain ${c.pair.id}: only ${c.scenarios.length} scenario(s) fit its relationship (${c.pair.relationship}); the chain has ${c.scenarios.length} episode(s)\n`);
      if (values["dry-run"]) {
        const setup = chainSetup(chains[0]!, chains[0]!.scenarios[0]!, seats, [null, null]);
        printDryRun(out, [["chain 1, episode 1, seat 1, turn 1", agentPrompt(setup, 0, [], maxTurns)]],
          `${chains.length} chain(s), ${total} episode(s), memory ${memory}: at most ${total * maxTurns + (memory === "summary" ? total : 0)} requests` +
          `${memory === "summary" ? " (one summary per episode included)" : ""}, plus up to ${retries} re-ask(s) per unusable answer`);
        return 0;
      }
      progress.start(`lifelong run ${runId}`, total, "items");
      work = () => runLifelong(chatOf(), chains, {...play, memory, summaryModel: values["summary-model"], selection: {chains: chainCount, pairs: values.pair ?? null, episodes}, onDone: (n) => progress.update(n)});
    } else if (kind === "stss") {
      const tasks = (await stssTasksFromStore(store!, values.task)).slice(0, limit);
      if (!tasks.length) throw new Error(`the store at ${dbPath} holds no STSS tasks; import some first (sociometer import stss-tasks tasks.json)`);
      const units = stssUnits(tasks, seed);
      const templates = loadStssTemplates();
      format = "stss";
      if (values["dry-run"]) {
        const tdp = architecture === "GA+TDP";
        printDryRun(out, [
          ...(tdp ? [["planning step, task 1", planPrompt(templates, tasks[0]!)] as [string, ReturnType<typeof planPrompt>]] : []),
          [`performer, turn 1 (with ${units[0]!.partner})${tdp ? "; the plan's answer goes where the template has {{plan}}" : ""}`, turnPrompt(templates, tasks[0]!, units[0]!.partner, null, 0, [], maxTurns)],
        ], `${tasks.length} task(s), ${units.length} conversation(s), architecture ${architecture}: at most ${(tdp ? tasks.length : 0) + units.length * (maxTurns + 1)} requests ` +
          `(${tdp ? "one plan per task, " : ""}${maxTurns} turns and a summary per conversation), plus up to ${retries} re-ask(s) per unusable answer`);
        return 0;
      }
      progress.start(`stss run ${runId}`, units.length, "items");
      work = () => runStss(chatOf(), units, {...play, architecture, templates, selection: {seed, limit: limit ?? null, tasks: values.task ?? null}, onDone: (n) => progress.update(n)});
    } else {
      let cases: HsiiCase[] = values.input ? casesFromFile(resolve(values.input)) : await casesFromStore(store!);
      if (!cases.length) throw new Error(values.input ? `${values.input}: no cases` : `the store at ${dbPath} holds no HSII cases; import some (sociometer import hsii FILE) or give --input FILE`);
      cases = cases.slice(0, limit ?? cases.length);
      format = "hsii";
      if (values["dry-run"]) {
        printDryRun(out, [["case 1", hsiiPrompt(cases[0]!)]], `${cases.length} case(s): ${cases.length} requests, one per case (answers are recorded raw, never re-asked)`);
        return 0;
      }
      progress.start(`hsii run ${runId}`, cases.length, "items");
      work = () => runHsii(chatOf(), cases, {runId, model: seats[0], temperature, concurrency, onDone: (n) => progress.update(n)});
    }

    const result = await work();
    progress.finish();
    const records = mergeRunLog(outPath, kind, runId, result.records as {episode_id: string}[]);
    writeJsonl(outPath, records);
    const kept = records.length - result.records.length;
    out(`run ${runId}: ${result.records.length} record(s) written to ${outPath}${kept ? `, after ${kept} the run wrote there before` : ""}\n`);
    return await finishRun({client, store: values["no-import"] || !records.length ? null : store!, format, outPath, progress, failures: result.failures}, {out, err});
  } catch (e) {
    threw = true;
    throw e;
  } finally {
    progress.finish();
    await opened?.close({failed: threw});
  }
}

/**
 * What shapes the requests of a run, hence its id (the run id is also the
 * cache sample, loaders/run/episodes/support.ts sampleOf). Not in it: the
 * selection (--limit, --combo, --repeats, --episodes, --chains, --pair, and
 * --seed for sotopia), which picks episodes whose own ids and requests do not
 * depend on what else was picked; the profiles' path (their content is in it);
 * the store. For lifelong the seed orders a chain's scenarios, which decides
 * what the agents remember, so it shapes the requests. For stss the
 * architecture does (GA+TDP adds the plan to every turn); --task and --seed
 * only pick conversations, whose ids name task and partner. HSII cases are told
 * apart by their prompt in the episode id (loaders/run/episodes/hsii.ts).
 */
export function runShape(kind: Kind, o: {endpoint: string; seats: [string, string]; maxTurns: number; maxStaleTurns?: number; retries: number; temperature?: number; memory: MemoryMode;
  summaryModel?: string; seed: string; profilesDir: string; architecture?: string}): unknown {
  if (kind === "hsii") return {kind, endpoint: o.endpoint, model: o.seats[0], temperature: o.temperature ?? null};
  if (kind === "stss") return {kind, endpoint: o.endpoint, seats: o.seats, maxTurns: o.maxTurns, maxStaleTurns: o.maxStaleTurns ?? DEFAULT_MAX_STALE_TURNS, retries: o.retries, temperature: o.temperature ?? null, architecture: o.architecture};
  const common = {kind, endpoint: o.endpoint, seats: o.seats, maxTurns: o.maxTurns, maxStaleTurns: o.maxStaleTurns ?? DEFAULT_MAX_STALE_TURNS, retries: o.retries, temperature: o.temperature ?? null, profiles: profilesHash(o.profilesDir)};
  if (kind === "sotopia") return common;
  return {...common, memory: o.memory, summaryModel: o.memory === "summary" ? o.summaryModel ?? o.seats[0] : null, seed: o.seed};
}

/** A hash of the profile files' content (a missing file hashes as absent; loadProfiles names it). */
function profilesHash(dir: string): string {
  const hash = createHash("sha256");
  for (const name of Object.values(PROFILE_FILES)) {
    const path = join(dir, name);
    hash.update(`${name}\u0000${existsSync(path) ? createHash("sha256").update(readFileSync(path)).digest("hex") : "absent"}\u0000`);
  }
  return hash.digest("hex");
}
