// Running a judge: build each case's prompt from the template, ask for JSON,
// validate it, ask again with the problem fed back (bounded), and record the
// result: scores written with rater = the judge model and the run id, or a
// failed judgment that keeps the raw answer (never a zero). A judgment is
// committed together with its scores (loaders/run/commits.ts), so a killed run
// loses at most the judgments not yet committed; it never keeps half of one.

import {createHash} from "node:crypto";
import {rows, type Store} from "../../store/db.js";
import {silentProgress, type Progress} from "../../progress.js";
import type {Chat, ChatMessage, ChatRequest} from "../chat.js";
import {requestHash} from "../cache.js";
import {ChatError} from "../client.js";
import {commitSoon, type Tx} from "../commits.js";
import {forEachLimited, serialized} from "../limiter.js";
import {fill, loadTemplate, type Template} from "../template.js";

/** One thing to judge: a unique key within the run, its episode, and the values for the template. */
export interface JudgeItem {
  key: string;
  episodeId: string;
  values: Record<string, string>;
}

/** A problem with an answer, phrased for the model that has to fix it. */
export class AnswerProblem extends Error {}

export interface WriteContext {
  runId: string;
  rater: string;
  sourceId: string;
  /** The group commit the write is part of (loaders/run/commits.ts), for rows that can join its multi-row INSERTs. */
  tx?: Tx;
}

export interface ItemsOptions {
  rater: string;
  runId: string;
  limit?: number;
  /** Judge episodes the runner recorded as failed too, as they were played up to the failure. */
  includeFailed?: boolean;
}

export interface JudgeKind<I extends JudgeItem = JudgeItem, A = unknown> {
  name: string;
  description: string;
  /** Placeholders the judge fills; a template may use any of them. */
  placeholders: readonly string[];
  /**
   * Every case the judge would judge, in a stable order (limit: at most that many episodes), and notes on what it
   * leaves out. Episodes a runner recorded as failed are left out unless includeFailed (loaders/run/judges/transcript.ts).
   */
  items(store: Store, o: ItemsOptions): Promise<{items: I[]; notes: string[]}>;
  /** The typed answer, or throws AnswerProblem naming the field at fault. */
  validate(answer: unknown, item: I): A;
  /**
   * An answer fixed by a rule, with no judge asked (hsii-pairwise: the tested text is the gold text, so the two orders
   * would be one prompt with one cached answer); recorded with attempts = 0. Undefined/null: ask the judge.
   */
  settled?(item: I): A | null;
  /** Writes an accepted answer; runs inside the judgment's transaction. */
  write(store: Store, item: I, answer: A, w: WriteContext): Promise<void>;
  /** Lines about what the run produced (e.g. penalised BEL computed from its scores). */
  summary?(store: Store, runId: string): Promise<string[]>;
}

export interface JudgeOptions {
  model: string;
  chat: Chat;
  templateFile?: string;
  /** The template already read (it decides the default run id, which the client needs first). */
  template?: Template;
  runId?: string;
  limit?: number;
  /** Judge episodes a runner recorded as failed (settings.ended = "failed"); by default they are skipped and counted. */
  includeFailed?: boolean;
  concurrency?: number;
  /** Extra answers asked for after an invalid one. */
  repairs?: number;
  temperature?: number;
  /** The endpoint as the client shows it (ChatClient.endpoint, no credentials): recorded with the run, part of every cache key. */
  endpoint: string;
  progress?: Progress;
  /** Where the dry run's prompts go. */
  print?: (text: string) => void;
}

export interface JudgeResult {
  runId: string;
  template: Template;
  items: number;
  /** Cases judged before this invocation (a resumed run). */
  alreadyDone: number;
  ok: number;
  failed: number;
  /** Cases left for a later run: their requests failed even after retries. */
  unfinished: {key: string; error: string}[];
  notes: string[];
  /** For a dry run: how many requests it would make (first attempts not in the cache). */
  wouldRequest?: number;
}

export const DEFAULT_REPAIRS = 2;

/** The JSON object in an answer: the whole text, or a fenced block, or the outermost braces. */
export function extractJson(text: string): unknown {
  const attempts = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) attempts.push(fenced[1].trim());
  const first = text.indexOf("{"), last = text.lastIndexOf("}");
  if (first >= 0 && last > first) attempts.push(text.slice(first, last + 1));
  let error = "";
  for (const a of attempts) {
    try {
      return JSON.parse(a);
    } catch (e) {
      error ||= (e as Error).message;
    }
  }
  throw new AnswerProblem(`the answer is not valid JSON (${error || "empty answer"})`);
}

/** Writes one judgment's scores in a single statement (a statement per score made the store the bottleneck at high concurrency). */
export async function insertRatings(store: Store, episodeId: string, w: WriteContext, scores: readonly {agent: number; dimension: string; value: number; rationale: string | null}[]): Promise<void> {
  if (!scores.length) return;
  if (w.tx) {
    // Inside a group commit: the rows join one INSERT for the whole batch.
    for (const s of scores) w.tx.insert("ratings", "(?, ?, ?, ?, 'llm', ?, ?, ?, ?)", [episodeId, s.agent, s.dimension, w.rater, s.value, s.rationale, w.runId, w.sourceId]);
    return;
  }
  const tuples = scores.map((_, i) => `($1, $${i * 4 + 5}, $${i * 4 + 6}, $2, 'llm', $${i * 4 + 7}, $${i * 4 + 8}, $3, $4)`).join(", ");
  await store.conn.run(`INSERT INTO ratings VALUES ${tuples}`,
    [episodeId, w.rater, w.runId, w.sourceId, ...scores.flatMap((s) => [s.agent, s.dimension, s.value, s.rationale])]);
}

/** The id of the pseudo-source a run's scores belong to (sources.source_id is 16 hex digits of a path's sha256). */
export const runSourcePath = (runId: string) => `judge-run:${runId}`;
export const sourceIdOf = (runId: string) => createHash("sha256").update(runSourcePath(runId)).digest("hex").slice(0, 16);

/** The follow-up message after an invalid answer; the online and the batch path send the same, so their requests share cache keys. */
export const repairMessage = (problem: string): ChatMessage => ({
  role: "user",
  content: `That answer cannot be used: ${problem}. Reply again with only the JSON object, in exactly the format asked for.`,
});

/** The run id when none is given: the same judge, model and template resume the same run. */
export const defaultRunId = (kind: {name: string}, model: string, template: Template): string =>
  `${kind.name}-${model.replace(/[^\w.:@+-]/g, "_")}-${template.version.slice(0, 8)}`;

export function checkRunId(runId: string): string {
  if (!/^[\w.:@+-]{1,200}$/.test(runId)) throw new Error(`--run-id may hold letters, digits and . : @ + - _ only, not ${JSON.stringify(runId)}`);
  return runId;
}

/** What every request of a run shares: the judge, its model and template, and the sampling temperature. */
export interface RunShape {
  kind: {name: string};
  model: string;
  template: Template;
  temperature: number;
}

/** The first request of a case. Its repairs add messages to it and keep every other field, so both paths (online, batch) build the same keys. */
export const judgeRequest = (shape: RunShape, item: JudgeItem): ChatRequest => ({
  model: shape.model, messages: fill(shape.template, item.values), temperature: shape.temperature, json: true,
  template: `${shape.kind.name}@${shape.template.version}`,
});

export type Checked<A> = {ok: true; value: A} | {ok: false; problem: string};

/** An answer's text, validated as the judge's typed answer, or the problem to feed back. */
export function checkAnswer<I extends JudgeItem, A>(kind: JudgeKind<I, A>, item: I, text: string): Checked<A> {
  try {
    return {ok: true, value: kind.validate(extractJson(text), item)};
  } catch (e) {
    if (e instanceof AnswerProblem) return {ok: false, problem: e.message};
    throw e;
  }
}

/**
 * Refuses to resume a run as something else: another judge, model or template,
 * or another endpoint (the same model name served elsewhere answers
 * differently, and mixing both in one run would hide it).
 */
export async function checkResume(store: Store, shape: RunShape, runId: string, endpoint: string, options?: Record<string, unknown>): Promise<void> {
  const {kind, model, template} = shape;
  const [e] = await rows<{kind: string; model: string; template_version: string; endpoint: string | null; options: string | null}>(store.conn,
    "SELECT kind, model, template_version, endpoint, options::VARCHAR AS options FROM judge_runs WHERE run_id = $1", [runId]);
  if (!e) return;
  if (e.kind !== kind.name || e.model !== model || e.template_version !== template.version) {
    throw new Error(`run ${runId} is a ${e.kind} run of ${e.model} with template version ${e.template_version}; resuming it as ${kind.name} of ${model} with ${template.version} would mix them: choose another --run-id`);
  }
  if (e.endpoint !== null && e.endpoint !== endpoint) {
    throw new Error(`run ${runId} was judged at ${e.endpoint}; resuming it at ${endpoint} would mix two servers' answers in one run: ` +
      `give this one its own --run-id (or use --base-url ${e.endpoint} to resume it)`);
  }
  if (options && e.options) {
    const differing = optionChanges(JSON.parse(e.options) as Record<string, unknown>, options);
    if (differing.length) {
      throw new Error(`run ${runId} was started with ${differing.map((d) => d.was).join(", ")}; resuming it with ${differing.map((d) => d.now).join(", ")} ` +
        `would judge its cases under two sets of rules (and --collect follows the first): resume it with the same options, or give this one its own --run-id`);
    }
  }
}

/**
 * Options that decide how a case is judged, as the command line spells them. A resumed run must keep them.
 * --limit, --include-failed, --concurrency and --batch only decide which cases are asked now, and how: a run may
 * change them (--include-failed adds the failed episodes to a run; --collect takes every case whatever started it).
 */
const JUDGING_OPTIONS: Record<string, (v: unknown) => string> = {
  repairs: (v) => `--repairs ${v}`,
  temperature: (v) => `temperature ${v}`,
};

/** The judging options whose recorded value differs from the one given now (options the run did not record are not compared). */
export function optionChanges(recorded: Record<string, unknown>, now: Record<string, unknown>): {was: string; now: string}[] {
  return Object.entries(JUDGING_OPTIONS)
    .filter(([key]) => key in recorded && key in now && recorded[key] !== now[key])
    .map(([key, spell]) => ({was: spell(recorded[key]), now: spell(now[key])}));
}

/** Creates the run's row (or checks that a resumed run is the same judge, model, template and endpoint) and its pseudo-source. */
export async function openRun(store: Store, shape: RunShape, runId: string, o: {endpoint: string; options: Record<string, unknown>}): Promise<WriteContext> {
  const sourceId = sourceIdOf(runId);
  const {kind, model, template} = shape;
  await serialized(store.conn, async () => {
    await checkResume(store, shape, runId, o.endpoint, o.options);
    await store.conn.run(
      `INSERT INTO judge_runs (run_id, kind, model, endpoint, template, template_version, options, started_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now()) ON CONFLICT (run_id) DO UPDATE SET updated_at = now()`,
      [runId, kind.name, model, o.endpoint, template.name, template.version, JSON.stringify(o.options)]);
    await store.conn.run(
      `INSERT INTO sources VALUES ($1, $2, $3, $4, 0, now(), 0, 0, $5) ON CONFLICT (source_id) DO NOTHING`,
      [sourceId, runSourcePath(runId), `judge:${kind.name}`, template.version, `${kind.name} by ${model}`]);
  });
  return {runId, rater: model, sourceId};
}

/** Records a case's outcome: an accepted answer with its scores, or a failed judgment with the raw answer. One group-committed transaction. */
export function recordJudgment<I extends JudgeItem, A>(store: Store, kind: JudgeKind<I, A>, w: WriteContext, item: I,
  answer: {ok: true; value: A} | {ok: false; problem: string; raw: string}, attempts: number): Promise<void> {
  return commitSoon(store, async (tx) => {
    if (answer.ok) await kind.write(store, item, answer.value, {...w, tx});
    tx.insert("judgments", "(?, ?, ?, ?, ?, ?, ?, now())", [
      w.runId, item.key, item.episodeId, answer.ok ? "ok" : "failed", attempts, answer.ok ? null : answer.problem, answer.ok ? null : answer.raw]);
  });
}

/** Refreshes the run's totals (judgments, requests, tokens, cost) and its source's row count. */
export async function finishRun(store: Store, w: WriteContext): Promise<void> {
  await serialized(store.conn, () => store.conn.run(
    `UPDATE judge_runs SET updated_at = now(),
       items = (SELECT count(*) FROM judgments WHERE run_id = $1),
       failed = (SELECT count(*) FILTER (WHERE status = 'failed') FROM judgments WHERE run_id = $1),
       requests = (SELECT count(*) FROM llm_calls WHERE run_id = $1),
       prompt_tokens = (SELECT coalesce(sum(prompt_tokens), 0) FROM llm_calls WHERE run_id = $1),
       completion_tokens = (SELECT coalesce(sum(completion_tokens), 0) FROM llm_calls WHERE run_id = $1),
       cost = (SELECT CASE WHEN count(*) = count(cost) THEN coalesce(sum(cost), 0) END FROM llm_calls WHERE run_id = $1)
     WHERE run_id = $1`, [w.runId]).then(() => store.conn.run(
    "UPDATE sources SET rows = (SELECT count(*) FROM judgments WHERE run_id = $1 AND status = 'ok'), imported_at = now() WHERE source_id = $2", [w.runId, w.sourceId])));
}

/** Items of the run waiting in a submitted batch that is not collected yet (loaders/run/judges/batch.ts). */
export async function pendingInBatches(store: Store, runId: string): Promise<Map<string, string>> {
  const found = await rows<{item: string; batch_id: string}>(store.conn,
    `SELECT r.item, r.batch_id FROM judge_batch_requests r JOIN judge_batches b USING (batch_id)
     WHERE b.run_id = $1 AND b.collected_at IS NULL`, [runId]);
  return new Map(found.map((r) => [r.item, r.batch_id]));
}

/** What is left to judge in a run: the cases neither judged nor waiting in a batch, and a note about the waiting ones. */
export async function casesToJudge<I extends JudgeItem>(store: Store, runId: string, items: readonly I[], notes: string[]): Promise<I[]> {
  const done = new Set((await rows<{item: string}>(store.conn, "SELECT item FROM judgments WHERE run_id = $1", [runId])).map((r) => r.item));
  const pending = await pendingInBatches(store, runId);
  const waiting = items.filter((i) => !done.has(i.key) && pending.has(i.key));
  if (waiting.length) {
    const batches = [...new Set(waiting.map((i) => pending.get(i.key)))];
    notes.push(`${waiting.length} case(s) wait in submitted batch(es) ${batches.join(", ")}: not asked again; sociometer judge --collect ${runId} collects them`);
  }
  return items.filter((i) => !done.has(i.key) && !pending.has(i.key));
}

/** Runs `kind` over the store. Resumes a run with the same id: cases already judged (or failed) are skipped. */
export async function runJudge<I extends JudgeItem, A>(store: Store, kind: JudgeKind<I, A>, o: JudgeOptions): Promise<JudgeResult> {
  const template = o.template ?? loadTemplate(kind.name, kind.placeholders, o.templateFile);
  const runId = checkRunId(o.runId ?? defaultRunId(kind, o.model, template));
  const repairs = o.repairs ?? DEFAULT_REPAIRS;
  const shape: RunShape = {kind, model: o.model, template, temperature: o.temperature ?? 0};
  const progress = o.progress ?? silentProgress;

  const {items, notes} = await kind.items(store, {rater: o.model, runId, limit: o.limit, includeFailed: o.includeFailed});
  await checkResume(store, shape, runId, o.endpoint, runOptions(o, repairs));
  const todo = await casesToJudge(store, runId, items, notes);
  const result: JudgeResult = {runId, template, items: items.length, alreadyDone: items.length - todo.length, ok: 0, failed: 0, unfinished: [], notes};

  if (o.print) {
    // Dry run: show the first prompts and count the first attempts the cache cannot answer.
    for (const item of todo.slice(0, 2)) {
      o.print(`--- ${item.key} (template ${template.name}, version ${template.version})\n`);
      for (const m of judgeRequest(shape, item).messages) o.print(`[${m.role}]\n${m.content}\n`);
    }
    const cached = new Set((await rows<{hash: string}>(store.conn, "SELECT hash FROM llm_calls")).map((r) => r.hash));
    result.wouldRequest = todo.filter((i) => !kind.settled?.(i) && !cached.has(requestHash(judgeRequest(shape, i), o.endpoint))).length;
    return result;
  }

  const w = await openRun(store, shape, runId, {endpoint: o.endpoint, options: runOptions(o, repairs)});
  let finished = 0;
  const done = () => progress.update(++finished);
  const concurrency = o.concurrency ?? 4;
  const writes = committing(2 * concurrency);

  const judgeOne = async (item: I): Promise<void> => {
    writes.throwIfFailed();
    const fixed = kind.settled?.(item);
    if (fixed !== undefined && fixed !== null) {
      await recordJudgment(store, kind, w, item, {ok: true, value: fixed}, 0);
      result.ok++;
      done();
      return;
    }
    const first = judgeRequest(shape, item);
    const messages = [...first.messages];
    try {
      for (let attempt = 1; ; attempt++) {
        const response = await o.chat({...first, messages: [...messages]});
        const checked = checkAnswer(kind, item, response.text);
        // The answer's cache write (when the client defers it) and the judgment share a commit, the answer first.
        if (checked.ok) {
          await writes.add(Promise.all([response.saved, recordJudgment(store, kind, w, item, checked, attempt)]), () => {
            result.ok++;
            done();
          });
          return;
        }
        if (attempt > repairs) {
          await writes.add(Promise.all([response.saved, recordJudgment(store, kind, w, item, {ok: false, problem: checked.problem, raw: response.text}, attempt)]), () => {
            result.failed++;
            done();
          });
          return;
        }
        await response.saved;
        messages.push({role: "assistant", content: response.text}, repairMessage(checked.problem));
      }
    } catch (e) {
      if (!(e instanceof ChatError)) throw e;
      result.unfinished.push({key: item.key, error: e.message});
    }
    done();
  };

  progress.start(`${kind.name} by ${o.model}`, todo.length);
  try {
    await forEachLimited(todo, concurrency, judgeOne);
  } finally {
    // What was answered lands (or fails) before the run returns or throws, after a bug in one case too.
    await writes.landed();
  }
  writes.throwIfFailed();
  progress.finish();

  await finishRun(store, w);
  if (kind.summary) for (const note of await kind.summary(store, runId)) result.notes.push(note);
  return result;
}

/**
 * Judgments on their way to the store. A case's slot goes on to its next case
 * as soon as the answer is checked, while the judgment waits for its group
 * commit (loaders/run/commits.ts): holding the slot through the commit left
 * it idle for a commit's time after every answer (a third of the time at
 * concurrency 32). A judgment still counts as done only once committed, and
 * at most `limit` wait at once, so a slow store slows the requests down
 * instead of piling answers up in memory.
 */
function committing(limit: number) {
  const waiting = new Set<Promise<void>>();
  let failure: {error: unknown} | null = null;
  return {
    /** Adds a write and calls onCommitted once it lands; resolves when there is room for another. */
    async add(write: Promise<unknown>, onCommitted: () => void): Promise<void> {
      const settled: Promise<void> = write.then(onCommitted, (error: unknown) => {
        failure ??= {error};
      }).finally(() => waiting.delete(settled));
      waiting.add(settled);
      while (waiting.size >= limit) await Promise.race(waiting);
    },
    /** A failed write stops the run before it asks for more. */
    throwIfFailed(): void {
      if (failure) throw failure.error;
    },
    /** Waits until every write has landed or failed. */
    async landed(): Promise<void> {
      while (waiting.size) await Promise.race(waiting);
    },
  };
}

/** The options a run is recorded with (judge_runs.options); --collect reads include_failed and repairs back. */
export const runOptions = (o: {limit?: number; temperature?: number; includeFailed?: boolean}, repairs: number) =>
  ({limit: o.limit ?? null, repairs, temperature: o.temperature ?? 0, include_failed: o.includeFailed ?? false});
