// One import: fingerprint the files, decide what is new, unchanged or
// replaced, read and validate every record, and write it all in one
// transaction, so the store gets the whole import or none of it.

import {listValue} from "@duckdb/node-api";
import {createHash} from "node:crypto";
import {existsSync, statSync, writeFileSync} from "node:fs";
import {availableParallelism} from "node:os";
import {basename, resolve} from "node:path";
import {rows, type Store} from "../store/db.js";
import {silentProgress, type Progress} from "../progress.js";
import {beginImportJournal, endImportJournal} from "../store/import-journal.js";
import {ImportError, RecordProblem} from "./errors.js";
import {faultPoint} from "./fault.js";
import {batchNames} from "./batch.js";
import {sha256File} from "./files.js";
import {applyModelNames, checkModelNameConflicts, revertModelNames, type SeatModel} from "./model-names.js";
import type {ReadContext} from "./format.js";
import {getFormat} from "./registry.js";
import {suggestFormat} from "./sniff.js";
import {fileState, SourceFile, type FileState} from "./source-file.js";
import {checkedAgainstStore, StoredEpisodes} from "./stored-episodes.js";
import {DATASET_MODEL} from "../queries/store-contents.js";
import {StoreWriter} from "./writer.js";

export interface ImportOptions {
  /** Import the valid records and write the rejected ones, with reasons, to `rejectsPath`. */
  skipInvalid?: boolean;
  rejectsPath?: string;
  progress?: Progress;
}

export type FileStatus = "imported" | "replaced" | "unchanged";

export interface FileSummary {
  path: string;
  status: FileStatus;
  sourceId: string;
  /** For unchanged files, and replaced ones whose new content is another file's: the path that content was imported from. */
  sameAs?: string;
  /** For unchanged files: when their content was imported (UTC, to the second); their notes are that import's. */
  importedAt?: string;
  episodes: number;
  /** Of `episodes`, the benchmark's definitions and inputs (nobody played them: STSS tasks, InformativeBench schedules), which the store counts apart. */
  definitions: number;
  ratings: number;
  rejected: number;
  /** Episodes whose judge failed (a bare number instead of scores): transcript imported, no scores. */
  judgeFailed: number;
  /** Rows that repeat an earlier row of the same file exactly (same rater, response and scores): counted once. */
  duplicateLines: {line: number; of: number}[];
  /** What was imported but looks wrong, such as an empty file. */
  warnings: string[];
  /** Seats the episode logs call by a placeholder, named by this (ratings) file: how many episodes got each name. */
  modelNames: {placeholder: string; model: string; episodes: number}[];
  /** How the file was read where it needed reading (e.g. a fill series in a model column); kept with the source, and given again when the file is unchanged. */
  notes: string[];
}

export interface ImportSummary {
  format: string;
  files: FileSummary[];
  episodes: number;
  definitions: number;
  ratings: number;
  rejected: number;
  judgeFailed: number;
  warnings: number;
  rejectsPath: string | null;
  seconds: number;
}

export interface Reject {
  file: string;
  line: number;
  field: string | null;
  problem: string;
  raw: string;
}

interface ExistingSource {
  source_id: string;
  path: string;
  format: string;
  sha256: string;
  bytes: number;
  /** The version of its format's reader that read it (1 for sources stored before versions were recorded). */
  reader_version: number;
  imported_at: string;
  /** The notes of its import, one a line (none kept before the reader's notes were). */
  notes: string | null;
}

/** An episode this import adds: its seat names, and where it is (`where` for messages: file name and line). */
interface Added {
  names: string[];
  /** Each seat's model as the log names it (a placeholder such as custom_model included). */
  models: string[];
  where: string;
  path: string;
  line: number;
}

/** Whether a seat's model played the episode: the rule `status` and the overview count by (loaders/queries/store-contents.ts). */
const played = (model: string): boolean => model !== DATASET_MODEL;

/** A source's id names its path (content is tracked by sha256), so it is known before the file is read. */
const sourceIdOf = (path: string): string => createHash("sha256").update(path).digest("hex").slice(0, 16);

/** Imports `paths` in format `formatName` into the store, atomically. Throws ImportError on the first bad record unless skipInvalid. */
export async function importFiles(store: Store, formatName: string, paths: readonly string[], options: ImportOptions = {}): Promise<ImportSummary> {
  const started = Date.now();
  const format = getFormat(formatName);
  const progress = options.progress ?? silentProgress;
  const files = [...new Set(paths.map((p) => resolve(p)))];
  for (const f of files) {
    if (!existsSync(f)) throw new ImportError(f, null, null, "no such file");
    if (!statSync(f).isFile()) throw new ImportError(f, null, null, "not a file");
  }

  const conn = store.conn;
  const existing = await rows<ExistingSource>(conn,
    `SELECT source_id, path, format, sha256, bytes, coalesce(reader_version, 1) AS reader_version, strftime(imported_at, '%Y-%m-%d %H:%M:%S') AS imported_at, notes
     FROM sources LEFT JOIN source_readers USING (source_id)`);
  const bySha = new Map(existing.map((s) => [s.sha256, s]));
  const byPath = new Map(existing.map((s) => [s.path, s]));

  const summaries: FileSummary[] = [];
  const rejects: Reject[] = [];
  let ratingsItems = 0;
  let chained = false;

  const restoreMemoryLimit = await boundMemory(store);
  const restoreThreads = await boundThreads(store);
  let writer: StoreWriter | null = null;
  let restoreCheckpoint: (() => Promise<void>) | null = null;
  try {
    beginImportJournal(store.path, {format: format.name, files});
    faultPoint("journaled");
    await conn.run("BEGIN TRANSACTION");
    faultPoint("begun");
    // Plan: what each file is, and clear the rows of files that changed. A file
    // can only be unchanged if a stored source (or another file here) has its
    // exact size; only those are hashed up front, the rest as they are read.
    // Paths decide first: a stored path with other content now is replaced,
    // whatever else holds its new bytes; only then may new content turn out to
    // be another file's (a copy), judged against the sources that stay.
    const states = files.map((f) => fileState(statSync(f)));
    const storedSizes = new Set(existing.map((s) => s.bytes));
    let removedSources = false;
    const candidates: {path: string; sha: string | null; state: FileState; previous: ExistingSource | undefined; reread: string | null}[] = [];
    for (const [i, path] of files.entries()) {
      const bytes = states[i].size;
      const mayRepeat = storedSizes.has(bytes) || states.some((s, j) => j !== i && s.size === bytes);
      const sha = mayRepeat ? await sha256File(path) : null;
      const previous = byPath.get(path);
      // A file is read as one format: the same path under another format is a slip, never "unchanged".
      if (previous && previous.format !== format.name) {
        throw new ImportError(path, null, null, `is in the store as ${previous.format}, not ${format.name}; a file is read as one format (sociometer import ${previous.format} ${path} brings it up to date)`);
      }
      // Same bytes read by an older reader are read again; a newer reader's rows (a newer sociometer's) are kept.
      if (previous && sha === previous.sha256 && previous.reader_version >= format.readerVersion) {
        summaries.push({path, status: "unchanged", sourceId: previous.source_id, ...storedReading(previous), episodes: 0, definitions: 0, ratings: 0, rejected: 0, judgeFailed: 0, duplicateLines: [], warnings: [], modelNames: []});
        continue;
      }
      if (previous) {
        await deleteSource(store, previous.source_id);
        removedSources = true;
        if (bySha.get(previous.sha256) === previous) bySha.delete(previous.sha256);
      }
      const reread = previous && sha === previous.sha256
        ? `re-read: the ${format.name} reader changed since this file was imported (version ${previous.reader_version} → ${format.readerVersion})`
        : null;
      candidates.push({path, sha, state: states[i], previous, reread});
    }
    const planned: {path: string; sha: string | null; state: FileState; status: FileStatus; reread: string | null}[] = [];
    const shasNow = new Map<string, string>();
    for (const {path, sha, state, previous, reread} of candidates) {
      const storedCopy = sha === null ? undefined : bySha.get(sha);
      // A copy of a file stored under another format is no more "unchanged" than the file itself would be.
      if (storedCopy && storedCopy.format !== format.name) {
        throw new ImportError(path, null, null, `holds the same bytes as ${storedCopy.path}, which is in the store as ${storedCopy.format}, not ${format.name}; a file is read as one format`);
      }
      // The store holds content once: a copy read by an older reader is read again, here, and the stale reading goes.
      if (storedCopy && storedCopy.reader_version < format.readerVersion) {
        await deleteSource(store, storedCopy.source_id);
        removedSources = true;
        bySha.delete(storedCopy.sha256);
        if (sha) shasNow.set(sha, path);
        planned.push({path, sha, state, status: previous ? "replaced" : "imported", reread: `re-read: the ${format.name} reader changed since ${storedCopy.path}, which holds the same bytes, was imported (version ${storedCopy.reader_version} → ${format.readerVersion}); this file's reading replaces its rows`});
        continue;
      }
      const sameAs = storedCopy?.path ?? (sha === null ? undefined : shasNow.get(sha));
      if (sameAs !== undefined) {
        // Its rows are already there, under the other path; a replaced file's own old rows are gone.
        // An unchanged copy was read as its stored twin was: that import's notes are its own.
        const reading = !previous && storedCopy ? storedReading(storedCopy) : {notes: []};
        summaries.push({
          path, status: previous ? "replaced" : "unchanged", sourceId: sourceIdOf(sameAs), sameAs, ...reading,
          episodes: 0, definitions: 0, ratings: 0, rejected: 0, judgeFailed: 0, duplicateLines: [], warnings: [], modelNames: [],
        });
        continue;
      }
      if (sha) shasNow.set(sha, path);
      planned.push({path, sha, state, status: previous ? "replaced" : "imported", reread});
    }

    faultPoint("cleared");

    // Episodes this import adds, and what it knows of those in the store (after
    // removing replaced files): read for the episodes the import names, so its
    // cost follows its input, not the store (stored-episodes.ts).
    const stored = await StoredEpisodes.of(store);
    if (format.asksAboutStoredEpisodes) await stored.readEveryId();
    const added = new Map<string, Added>();
    // Each ratings file's rows by key, kept to name the line of a clash with another file (checkRatingConflicts).
    const ratingLines = new Map<string, Map<string, {line: number}>>();
    let doneBytes = 0;
    const context = {
      lookUpEpisodes: (ids: Iterable<string>) => stored.lookUp(ids, {withSeats: true}),
      hasEpisode: (id: string) => added.has(id) || stored.has(id),
      seatsOf: (id: string) => (added.get(id) ?? stored.seatsOf(id))?.names ?? [],
      modelsOf: (id: string) => (added.get(id) ?? stored.seatsOf(id))?.models ?? [],
      onProgress: (b: number) => progress.update(doneBytes + b),
    };

    writer = await StoreWriter.open(conn);
    const totalBytes = planned.reduce((s, p) => s + p.state.size, 0);
    progress.start(`importing ${planned.length} file(s)`, totalBytes, "bytes");
    for (const plan of planned) {
      const sourceId = sourceIdOf(plan.path);
      const source = SourceFile.open(plan.path, plan.state);
      const ctx: ReadContext = {...context, source};
      const summary: FileSummary = {
        path: plan.path, status: plan.status, sourceId, episodes: 0, definitions: 0, ratings: 0, rejected: 0, judgeFailed: 0, duplicateLines: [], warnings: [], modelNames: [],
        notes: plan.reread ? [plan.reread] : [],
      };
      const seatModels = new Map<string, SeatModel & {line: number}>();
      const ratingKeys = new Map<string, {line: number; value: number; rationale: string | null}>();
      ratingLines.set(plan.path, ratingKeys);
      let records = 0;
      const name = basename(plan.path);
      const reject = (line: number, field: string | null, problem: string, raw: string) => {
        if (!options.skipInvalid) throw new ImportError(plan.path, line, field, problem);
        rejects.push({file: plan.path, line, field, problem, raw});
        summary.rejected++;
      };
      let sha: string;
      try {
        for await (const item of checkedAgainstStore(format.read(plan.path, ctx), stored)) {
          if (item.kind === "reject") {
            reject(item.line, item.field, item.problem, item.raw);
          } else if (item.kind === "note") {
            summary.notes.push(item.note);
          } else if (item.kind === "batch") {
            // The same checks as for single episodes below, per episode of the batch; rejected ones are left out of the append.
            const b = item.batch;
            let skip: Uint8Array | null = null;
            for (let i = 0; i < b.count; i++) {
              const id = b.episodes.episode_id[i];
              const earlier = added.get(id);
              if (earlier || stored.has(id)) {
                reject(b.line[i], "episode_id", `episode ${id} is already ${earlier ? `in this import (${earlier.where})` : "in the store, from another file"}`, "");
                (skip ??= new Uint8Array(b.count))[i] = 1;
                continue;
              }
              const models: string[] = [];
              for (let k = b.participants.start[i]; k < b.participants.start[i + 1]; k++) models.push(b.dict[b.participants.modelCode[k]]!);
              added.set(id, {names: batchNames(b, i), models, where: `${name}:${b.line[i]}`, path: plan.path, line: b.line[i]});
              chained ||= b.episodes.chain_id[i] !== null;
              summary.episodes++;
              if (!models.some(played)) summary.definitions++;
              summary.ratings += b.ratings.start[i + 1] - b.ratings.start[i];
              if (b.episodes.judgeFailed[i]) summary.judgeFailed++;
              records++;
            }
            writer.batch(b, sourceId, skip);
          } else if (item.kind === "episode") {
            const e = item.episode;
            const earlier = added.get(e.episode_id);
            if (earlier || stored.has(e.episode_id)) {
              reject(item.line, "episode_id", `episode ${e.episode_id} is already ${earlier ? `in this import (${earlier.where})` : "in the store, from another file"}`, "");
              continue;
            }
            added.set(e.episode_id, {names: e.participants.map((p) => p.character ?? ""), models: e.participants.map((p) => p.model), where: `${name}:${item.line}`, path: plan.path, line: item.line});
            writer.episode(e, sourceId);
            chained ||= e.chain_id !== null;
            summary.episodes++;
            if (!e.participants.some((p) => played(p.model))) summary.definitions++;
            summary.ratings += e.ratings.length;
            if (e.settings?.judge_failed) summary.judgeFailed++;
            records++;
          } else {
            const earlier = item.ratings.map((r) => ratingKeys.get(ratingKey(r)));
            if (earlier.length && earlier.every((e, i) => e && e.value === item.ratings[i].value && e.rationale === item.ratings[i].rationale)) {
              summary.duplicateLines.push({line: item.line, of: earlier[0]!.line});
              continue;
            }
            const clash = item.ratings.findIndex((_, i) => earlier[i]);
            if (clash >= 0) {
              const r = item.ratings[clash];
              reject(item.line, "rater", `${r.rater} already rated ${r.dimension} of agent ${r.agent} in ${r.episode_id}${r.run_id ? ` (${r.run_id})` : ""} on line ${earlier[clash]!.line}, with a different score or rationale`, "");
              continue;
            }
            for (const r of item.ratings) {
              ratingKeys.set(ratingKey(r), {line: item.line, value: r.value, rationale: r.rationale});
              writer.rating(r, sourceId);
            }
            const claim = item.seatModel;
            if (claim && !seatModels.has(`${claim.episode_id}\u0000${claim.agent}`)) seatModels.set(`${claim.episode_id}\u0000${claim.agent}`, {...claim, line: item.line});
            summary.ratings += item.ratings.length;
            ratingsItems++;
            records++;
          }
        }
        sha = await source.finish(plan.sha);
      } catch (e) {
        // A bad record (a line cut by a rewrite) or a failed read in a file that changed under the import is the change's doing: report the change.
        source.checkUnchanged();
        const error = e instanceof RecordProblem ? new ImportError(plan.path, 1, e.field, e.problem) : e;
        // Failing in the first record often means the wrong format name: say which one fits.
        if (error instanceof ImportError && records === 0 && summary.rejected === 0) throw suggestFormat(error, format.name);
        throw error;
      } finally {
        source.close();
      }
      faultPoint("appended");
      doneBytes += source.size;
      // Kept as a source (importing it again is a no-op), but a file with nothing in it is more likely a mistake than a result.
      if (records === 0 && summary.rejected === 0 && summary.duplicateLines.length === 0) {
        summary.warnings.push(source.size === 0 ? "the file is empty (0 bytes): no rows imported" : "the file holds no records: no rows imported");
      }
      for (const c of seatModels.values()) writer.row("model_names", {...c, source_id: sourceId});
      summary.modelNames = modelNameCounts(seatModels.values());
      await conn.run(
        "INSERT INTO sources VALUES ($1, $2, $3, $4, $5, now(), $6, $7, $8)",
        [sourceId, plan.path, format.name, sha, source.size, records, summary.rejected, storedNotes(plan.reread || plan.status !== "replaced" ? summary.notes : ["replaced an earlier version"].concat(summary.notes))],
      );
      await conn.run("INSERT INTO source_readers VALUES ($1, $2)", [sourceId, format.readerVersion]);
      faultPoint("recorded");
      summaries.push(summary);
    }
    writer.flush();
    writer.close();
    await writer.flushTables();
    writer = null;
    faultPoint("flushed");
    progress.finish();

    if (ratingsItems > 0) {
      await checkRatingConflicts(store, planned.map((p) => sourceIdOf(p.path)), (path, r) => {
        const episode = added.get(r.episode_id);
        return ratingLines.get(path)?.get(ratingKey(r))?.line ?? (episode?.path === path ? episode.line : null);
      });
    }
    if (summaries.some((f) => f.modelNames.length)) await checkModelNameConflicts(store);
    // Episodes written again (a changed log) get back the names ratings files gave their placeholder seats.
    // So do seats whose names a removed or replaced ratings file took back while another file still gives them.
    if (added.size || removedSources || summaries.some((f) => f.modelNames.length)) await applyModelNames(store);
    if (chained) await checkChainPositions(store, planned.map((p) => sourceIdOf(p.path)), added);
    if (removedSources) await checkOrphans(store);
    if (format.verify && planned.length) await format.verify(store);
    if (planned.length) await checkRatedEpisodes(store, planned.map((p) => sourceIdOf(p.path)));
    faultPoint("checked");
    restoreCheckpoint = await commitByCheckpoint(store);
    await conn.run("COMMIT");
    faultPoint("committed");
  } catch (e) {
    try {
      writer?.close();
    } catch {
      // The rollback below discards whatever the appender held.
    }
    // Nothing to roll back when the fault came before BEGIN or after COMMIT, or when COMMIT itself failed.
    await conn.run("ROLLBACK").catch((r: unknown) => {
      if (!/no transaction is active/i.test(String(r))) throw r;
    });
    progress.finish();
    throw e;
  } finally {
    await restoreCheckpoint?.();
    await restoreThreads();
    await restoreMemoryLimit();
    // Committed or rolled back: nothing of the import is left half-written for the next open to remove.
    endImportJournal(store.path);
  }

  let rejectsPath: string | null = null;
  if (rejects.length) {
    rejectsPath = resolve(options.rejectsPath ?? `rejects-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`);
    writeFileSync(rejectsPath, rejects.map((r) => JSON.stringify(r)).join("\n") + "\n");
  }
  const sum = (k: "episodes" | "definitions" | "ratings" | "rejected" | "judgeFailed") => summaries.reduce((s, f) => s + f[k], 0);
  return {
    format: format.name, files: summaries, episodes: sum("episodes"), definitions: sum("definitions"), ratings: sum("ratings"), rejected: sum("rejected"),
    judgeFailed: sum("judgeFailed"), warnings: summaries.reduce((s, f) => s + f.warnings.length, 0), rejectsPath, seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Makes the next commit a checkpoint: with checkpoint_threshold at 0 DuckDB
 * writes the transaction into the database file and switches the file's
 * header to it, instead of logging it in the WAL. The header switch is atomic
 * under SIGKILL; replaying a WAL that a kill cut short is not, in DuckDB 1.5
 * (import-journal.ts): 1 in 40 kills during a 9,744-episode commit left part
 * of it, none in 40 with this (BENCHMARKS.md, import-kill). It also saves the
 * checkpoint that closing the store did after the commit: an import took
 * 2.03 s instead of 2.31 s. Returns what puts the threshold back.
 */
async function commitByCheckpoint(store: Store): Promise<() => Promise<void>> {
  // The kill benchmark's baseline: the commit as DuckDB makes it by default (bench/import-kill.ts).
  if (process.env.SOCIOMETER_IMPORT_COMMIT === "wal") return async () => {};
  const [{threshold}] = await rows<{threshold: string}>(store.conn, "SELECT current_setting('checkpoint_threshold') AS threshold");
  await store.conn.run("SET checkpoint_threshold = '0B'");
  return () => store.conn.run(`SET checkpoint_threshold = '${threshold.replace(/[^0-9A-Za-z. ]/g, "")}'`).then(() => {});
}

/**
 * DuckDB's memory for an import. Its default limit is 80% of the machine's
 * RAM, which lets the blocks of a large import's row groups stay cached long
 * after they are written to the store file; under this bound they are evicted
 * instead. With it a million-episode dump imported at 2.4 GiB peak RSS, of
 * which DuckDB held about 1 GiB (BENCHMARKS.md, import).
 */
export const IMPORT_MEMORY_LIMIT_BYTES = 2 * 2 ** 30;

const BYTE_UNITS: Readonly<Record<string, number>> = {
  B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40,
};

/** Lowers the store's memory_limit to IMPORT_MEMORY_LIMIT_BYTES if it is higher; returns what puts it back. */
async function boundMemory(store: Store): Promise<() => Promise<void>> {
  const [{limit}] = await rows<{limit: string}>(store.conn, "SELECT current_setting('memory_limit') AS limit");
  // DuckDB's own rendering of the setting ("18.7 GiB"); anything else is left alone rather than guessed at.
  const m = /^(\d+(?:\.\d+)?) ?([KMGT]i?B|B)$/.exec(limit);
  if (!m || Number(m[1]) * BYTE_UNITS[m[2]] <= IMPORT_MEMORY_LIMIT_BYTES) return async () => {};
  await store.conn.run(`SET memory_limit = '${IMPORT_MEMORY_LIMIT_BYTES}B'`);
  // DuckDB shows the limit cut to one decimal: setting that figure back would lower it a little on every import.
  // Half a unit of the last decimal more is shown as the same figure again, and is within 0.05 of what it was.
  const bytes = Math.ceil((Number(m[1]) + 0.05) * BYTE_UNITS[m[2]]);
  return () => store.conn.run(`SET memory_limit = '${bytes}B'`).then(() => {});
}

/**
 * DuckDB's threads during an import: the cores the import's own threads leave
 * (the main thread appends, a parse worker parses; at least one). In
 * DuckDB's queries, the COMMIT's checkpoint among them, the thread that runs
 * the query can spin on a mutex while another does the work; with one thread
 * the appender's flushes run wholly on the main thread instead of partly on
 * DuckDB's (1–2 CPU-s more there at 100k, at load 12–17), but all threads
 * together take less. On 2 cores, with one thread, a 10k dump import took
 * 6.95 CPU-s instead of 8.25 and a 100k one 46.4 instead of 52.0 (medians of
 * three, alternating, at load 12–17; BENCHMARKS.md, import, issue 18). On
 * more cores the queries after the appends keep the cores the import leaves.
 */
export const importThreads = (cores = availableParallelism()): number => Math.max(1, cores - 2);

/** Lowers the store's threads to importThreads() if it is higher; returns what puts it back. */
async function boundThreads(store: Store): Promise<() => Promise<void>> {
  const [{threads}] = await rows<{threads: number}>(store.conn, "SELECT current_setting('threads')::INTEGER AS threads");
  const bound = importThreads();
  if (threads <= bound) return async () => {};
  await store.conn.run(`SET threads = ${bound}`);
  return () => store.conn.run(`SET threads = ${threads}`).then(() => {});
}

/** The notes of an import as sources.notes keeps them: one a line (a note's own line breaks as spaces), null for none. */
const storedNotes = (notes: readonly string[]): string | null => (notes.length ? notes.map((n) => n.replace(/[\r\n]+/g, " ")).join("\n") : null);

/** When a stored source was imported and the notes of that import: what an unchanged file's summary says of it. */
const storedReading = (s: ExistingSource): {importedAt: string; notes: string[]} => ({importedAt: s.imported_at, notes: s.notes === null ? [] : s.notes.split("\n")});

/** Episodes per (placeholder, name) a file gave, for the summary. */
function modelNameCounts(claims: Iterable<SeatModel>): FileSummary["modelNames"] {
  const counts = new Map<string, {placeholder: string; model: string; episodes: Set<string>}>();
  for (const c of claims) {
    const key = `${c.placeholder}\u0000${c.model}`;
    const entry = counts.get(key) ?? {placeholder: c.placeholder, model: c.model, episodes: new Set<string>()};
    entry.episodes.add(c.episode_id);
    counts.set(key, entry);
  }
  return [...counts.values()].map((e) => ({placeholder: e.placeholder, model: e.model, episodes: e.episodes.size})).sort((a, b) => a.model.localeCompare(b.model));
}

const ratingKey = (r: {episode_id: string; agent: number; dimension: string; rater: string; run_id: string}) =>
  `${r.episode_id}\u0000${r.agent}\u0000${r.dimension}\u0000${r.rater}\u0000${r.run_id}`;

/** Removes every row a source contributed. */
async function deleteSource(store: Store, sourceId: string): Promise<void> {
  const c = store.conn;
  const ofSource = "SELECT episode_id FROM episodes WHERE source_id = $1";
  await c.run("DELETE FROM ratings WHERE source_id = $1", [sourceId]);
  // Names a ratings file gave belong to it, not to the episodes' file: they go (and are taken back) with it alone.
  await revertModelNames(store, sourceId);
  // Every other table of the store keyed by episode (core and benchmark tables alike) loses that file's
  // episodes, but for the rows judge runs wrote: like their scores they belong to the run, and a run resumes
  // from its judgments (a file re-read or changed under them would otherwise be judged, and scored, again).
  // checkOrphans then makes sure the episodes they refer to are still there.
  const keyed = await rows<{table_name: string; of_runs: boolean}>(c,
    `SELECT table_name, bool_or(column_name = 'run_id') AS of_runs FROM information_schema.columns
     WHERE table_catalog = current_database() AND table_schema = 'main'
       AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() AND table_schema = 'main' AND table_type = 'BASE TABLE')
       AND table_name NOT IN ('episodes', 'ratings', 'model_names', 'judgments', 'judge_batch_requests')
     GROUP BY table_name HAVING bool_or(column_name = 'episode_id') ORDER BY 1`);
  for (const {table_name, of_runs} of keyed) {
    await c.run(`DELETE FROM ${table_name} WHERE episode_id IN (${ofSource})${of_runs ? " AND run_id IS NULL" : ""}`, [sourceId]);
  }
  await c.run("DELETE FROM episodes WHERE source_id = $1", [sourceId]);
  await c.run("DELETE FROM source_readers WHERE source_id = $1", [sourceId]);
  await c.run("DELETE FROM sources WHERE source_id = $1", [sourceId]);
}

/** Of rows found in several files, the last one this import read (null line: an earlier import's), and how to name the others. */
function placeOfClash(places: {path: string; line: number | null}[]): {path: string; line: number | null; others: string} {
  let here = places[places.length - 1];
  for (const p of places) if (p.line !== null) here = p;
  const others = places.filter((p) => p !== here).map((p) => (p.line === null ? `${p.path} (imported earlier)` : `${p.path}:${p.line}`));
  return {...here, others: others.join(", ")};
}

/**
 * The same rater scoring the same thing twice, across files, is an error, not
 * a silent double count. `lineOf` gives the line of a row this import read from
 * `path`, null for rows of an earlier import.
 */
async function checkRatingConflicts(
  store: Store,
  sourceIds: readonly string[],
  lineOf: (path: string, r: {episode_id: string; agent: number; dimension: string; rater: string; run_id: string}) => number | null,
): Promise<void> {
  // Only the keys this import wrote can clash (the store had none before it), so
  // only those are grouped: the cost follows the import, not the store (a GROUP
  // BY over every rating of a 1M-episode store took seconds and gigabytes).
  const dup = await rows<{episode_id: string; agent: number; dimension: string; rater: string; run_id: string; paths: string[]}>(
    store.conn,
    `WITH mine AS (
       SELECT DISTINCT episode_id, agent, dimension, rater, run_id FROM ratings WHERE list_contains($1, source_id)
     )
     SELECT r.episode_id, r.agent, r.dimension, r.rater, r.run_id, list(s.path ORDER BY s.imported_at, s.path) AS paths
     FROM ratings r SEMI JOIN mine USING (episode_id, agent, dimension, rater, run_id) JOIN sources s USING (source_id)
     GROUP BY r.episode_id, r.agent, r.dimension, r.rater, r.run_id HAVING count(*) > 1 LIMIT 1`,
    [listValue([...sourceIds])],
  );
  if (dup.length) {
    const d = dup[0];
    const at = placeOfClash(d.paths.map((path) => ({path, line: lineOf(path, d)})));
    throw new ImportError(at.path, at.line, "rater",
      `${d.rater} rated ${d.dimension} of agent ${d.agent} in ${d.episode_id}${d.run_id ? ` (${d.run_id})` : ""} more than once: also in ${at.others}`);
  }
}

/**
 * One episode per chain position: a chain is its id, memory mode and models (see loaders/import/lifelong.ts chainKey).
 * Only chains this import (sources `sourceIds`) wrote to can clash now, so only those are read, not every chain of the store.
 */
async function checkChainPositions(store: Store, sourceIds: readonly string[], added: ReadonlyMap<string, Added>): Promise<void> {
  const dup = await rows<{chain_id: string; chain_index: number; episodes: string[]; paths: string[]}>(
    store.conn,
    `WITH touched AS (
       SELECT DISTINCT chain_id FROM episodes WHERE list_contains($1, source_id) AND chain_id IS NOT NULL
     ),
     chains AS (
       SELECT e.episode_id, e.chain_id, e.chain_index, coalesce(e.settings->>'memory_mode', '') AS memory,
              (SELECT string_agg(p.model, ' / ' ORDER BY p.agent) FROM participants p WHERE p.episode_id = e.episode_id) AS models, s.path
       FROM episodes e JOIN sources s USING (source_id) WHERE e.chain_id IN (SELECT chain_id FROM touched)
     )
     SELECT chain_id, chain_index, list(episode_id ORDER BY episode_id) AS episodes, list(path ORDER BY episode_id) AS paths
     FROM chains GROUP BY chain_id, chain_index, memory, models HAVING count(*) > 1 LIMIT 1`,
    [listValue([...sourceIds])],
  );
  if (dup.length) {
    const d = dup[0];
    const at = placeOfClash(d.episodes.map((id, i) => ({path: d.paths[i], line: added.get(id)?.line ?? null})));
    const named = d.episodes.map((id, i) => {
      const line = added.get(id)?.line;
      return `${id} at ${d.paths[i]}${line === undefined ? " (imported earlier)" : `:${line}`}`;
    });
    throw new ImportError(at.path, at.line, "chain_index", `chain ${d.chain_id} has more than one episode at index ${d.chain_index}: ${named.join(", ")}`);
  }
}

/**
 * No score of this import may lack its episode. The readers see to it record
 * by record (a ratings file names episodes of the store or of the same import);
 * this is the store's own refusal, whatever a reader gets wrong. Reads only the
 * import's ratings, so its cost follows the import.
 */
async function checkRatedEpisodes(store: Store, sourceIds: readonly string[]): Promise<void> {
  const orphan = await rows<{episode_id: string; path: string}>(
    store.conn,
    `SELECT r.episode_id, s.path FROM ratings r JOIN sources s USING (source_id)
     WHERE list_contains($1, r.source_id) AND r.episode_id NOT IN (SELECT episode_id FROM episodes) LIMIT 1`,
    [listValue([...sourceIds])],
  );
  if (orphan.length) throw new ImportError(orphan[0].path, null, "episode_id", `scores for episode ${orphan[0].episode_id}, which is not in the store nor in this import`);
}

/** A changed (or re-read) episode file must not leave other files' scores pointing at episodes it no longer has. */
async function checkOrphans(store: Store): Promise<void> {
  const orphan = await rows<{episode_id: string; path: string}>(
    store.conn,
    `SELECT r.episode_id, s.path FROM ratings r JOIN sources s USING (source_id)
     WHERE r.episode_id NOT IN (SELECT episode_id FROM episodes) LIMIT 1`,
  );
  if (orphan.length) {
    throw new ImportError(orphan[0].path, null, "episode_id",
      `scores for episode ${orphan[0].episode_id} would be left without their episode: the changed or re-read file no longer gives it`);
  }
  // A judge run's judgments (failed ones have no scores) and HSII verdicts are its own rows, kept by deleteSource.
  const judged = await rows<{episode_id: string; run_id: string}>(
    store.conn,
    `SELECT episode_id, run_id FROM judgments WHERE episode_id NOT IN (SELECT episode_id FROM episodes)
     UNION ALL
     SELECT episode_id, run_id FROM hsii_judgments WHERE run_id IS NOT NULL AND episode_id NOT IN (SELECT episode_id FROM episodes)
     LIMIT 1`,
  );
  if (judged.length) {
    throw new ImportError(`judge-run:${judged[0].run_id}`, null, "episode_id",
      `judge run ${judged[0].run_id} judged episode ${judged[0].episode_id}, which would be left out: the changed or re-read file no longer gives it`);
  }
}
