// Format `sotopia-ratings`: scores by human annotators (or any rater) for
// episodes already in the store or in the same import. Two CSV layouts:
//   long: episode_id, agent, dimension, rater, value[, rationale, rater_kind, run_id]
//   wide: the SOTOPIA annotation files: [ID,] pk, prolific_id, <dimension>_<seat>, <dimension>_reasoning_<seat>

import {closest} from "../did-you-mean.js";
import {scoreProblem, sotopiaDimension, SOTOPIA_DIMENSIONS, type Dimension} from "../../src/lib/dimensions.js";
import {parseCsv, UnclosedQuote, type CsvRow} from "./csv.js";
import {ImportError, RecordProblem} from "./errors.js";
import {decodeWhole, NotUtf8} from "./files.js";
import {fillSeriesStem, namesConflict, PLACEHOLDER_MODELS, type ModelCell, type SeatModel} from "./model-names.js";
import type {RaterKind, RatingRecord, ReadItem} from "./records.js";
import type {ImportFormat, ReadContext} from "./format.js";
import {wideColumns, type WideColumns} from "./sotopia-wide-header.js";

const RATER_KINDS: readonly RaterKind[] = ["llm", "human", "rule"];
export const LONG_REQUIRED = ["episode_id", "agent", "dimension", "rater", "value"];
/** Number() also reads 0x7, 0b101, 0o7 and Infinity; a score is written in decimal. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function dimensionNamed(name: string, field: string): Dimension {
  const dim = sotopiaDimension(name);
  if (dim) return dim;
  const keys = SOTOPIA_DIMENSIONS.map((d) => d.key);
  const meant = closest(name, keys);
  throw new RecordProblem(field, `unknown dimension ${JSON.stringify(name)}${meant ? `: did you mean ${JSON.stringify(meant)}?` : ""} (expected one of ${keys.join(", ")})`);
}

function score(dim: Dimension, text: string, field: string): number {
  if (!text.trim()) throw new RecordProblem(field, `is empty (expected a score in [${dim.lo}, ${dim.hi}])`);
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) throw new RecordProblem(field, `expected a decimal number in [${dim.lo}, ${dim.hi}], got ${JSON.stringify(text)}`);
  const value = Number(trimmed);
  const problem = scoreProblem(dim, value);
  if (problem) throw new RecordProblem(field, problem);
  return value;
}

function requireEpisode(ctx: ReadContext, episodeId: string, field: string): void {
  if (!episodeId) throw new RecordProblem(field, "is empty");
  if (!ctx.hasEpisode(episodeId)) {
    throw new RecordProblem(field, `episode ${JSON.stringify(episodeId)} is not in the store (import its episode log first, or in the same command)`);
  }
}

function seat(ctx: ReadContext, episodeId: string, agent: string, field: string): number {
  if (/^\d+$/.test(agent.trim())) {
    const n = Number(agent);
    if (n >= 1 && n <= ctx.seatsOf(episodeId).length) return n;
    throw new RecordProblem(field, `seat ${n} does not exist in episode ${episodeId} (it has ${ctx.seatsOf(episodeId).length} agents)`);
  }
  const names = ctx.seatsOf(episodeId);
  const i = names.indexOf(agent.trim());
  if (i < 0) throw new RecordProblem(field, `${JSON.stringify(agent)} is neither a seat number nor a participant of ${episodeId} (${names.join(", ")})`);
  return i + 1;
}

function longRow(row: CsvRow, col: Map<string, number>, ctx: ReadContext): RatingRecord {
  const get = (name: string) => {
    const i = col.get(name);
    return i === undefined ? "" : (row.fields[i] ?? "");
  };
  const episode_id = get("episode_id").trim();
  requireEpisode(ctx, episode_id, "episode_id");
  const dimension = dimensionNamed(get("dimension").trim(), "dimension");
  const kind = (get("rater_kind").trim() || "human") as RaterKind;
  if (!RATER_KINDS.includes(kind)) throw new RecordProblem("rater_kind", `expected one of ${RATER_KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
  const rater = get("rater").trim();
  if (!rater) throw new RecordProblem("rater", "is empty");
  return {
    episode_id,
    agent: seat(ctx, episode_id, get("agent"), "agent"),
    dimension: dimension.key,
    rater,
    rater_kind: kind,
    value: score(dimension, get("value"), "value"),
    rationale: get("rationale") || null,
    run_id: get("run_id").trim(),
  };
}

function wideRow(row: CsvRow, col: Map<string, number>, ctx: ReadContext, {seats, dimensions}: WideColumns): RatingRecord[] {
  const get = (name: string) => row.fields[col.get(name)!] ?? "";
  const episode_id = get("pk").trim();
  requireEpisode(ctx, episode_id, "pk");
  const rater = get("prolific_id").trim();
  if (!rater) throw new RecordProblem("prolific_id", "is empty");
  // The annotation tool's response id tells two submissions by the same rater apart.
  const idColumn = col.has("ID") ? "ID" : col.has("") ? "" : null;
  const response = idColumn === null ? "" : get(idColumn).trim();
  const run_id = response ? `response-${response}` : "";
  const out: RatingRecord[] = [];
  for (const s of seats) {
    if (s > ctx.seatsOf(episode_id).length) throw new RecordProblem(`*_${s}`, `episode ${episode_id} has no seat ${s}`);
    for (const d of dimensions) {
      const field = `${d.key}_${s}`;
      const reasoning = col.has(`${d.key}_reasoning_${s}`) ? get(`${d.key}_reasoning_${s}`) : "";
      out.push({
        episode_id, agent: s, dimension: d.key, rater, rater_kind: "human",
        value: score(d, get(field), field), rationale: reasoning || null, run_id,
      });
    }
  }
  return out;
}

/** The `model` cell of every row, read ahead so that a column that names one episode differently can be judged as a whole. */
function modelCells(text: string, col: Map<string, number>): ModelCell[] {
  const cells: ModelCell[] = [];
  const rows = parseCsv(text);
  rows.next(); // header
  try {
    for (const row of rows) {
      const model = (row.fields[col.get("model")!] ?? "").trim();
      if (model) cells.push({line: row.line, episode: (row.fields[col.get("pk")!] ?? "").trim(), model});
    }
  } catch {
    // The main pass reports a malformed file, at the row where it breaks.
  }
  return cells;
}

/** The episode ids of every row (column `column`), read ahead so that the import looks up these episodes alone in the store. */
function referencedEpisodes(text: string, column: number): Set<string> {
  const ids = new Set<string>();
  const rows = parseCsv(text);
  rows.next(); // header
  try {
    for (const row of rows) {
      const id = (row.fields[column] ?? "").trim();
      if (id) ids.add(id);
    }
  } catch {
    // The main pass reports a malformed file, at the row where it breaks.
  }
  return ids;
}

/**
 * Which placeholder seat of the episode the row's model plays, if any. An
 * episode whose log names every seat needs nothing from the ratings file.
 */
function seatModel(ctx: ReadContext, episode_id: string, model: string): SeatModel | undefined {
  if (!model) return undefined;
  const models = ctx.modelsOf(episode_id);
  const seats = models.flatMap((m, i) => (PLACEHOLDER_MODELS.has(m) ? [i + 1] : []));
  if (!seats.length) return undefined;
  if (seats.length > 1) {
    throw new RecordProblem("model", `episode ${episode_id} calls seats ${seats.join(" and ")} all ${JSON.stringify(models[seats[0]! - 1])}: cannot tell which of them is ${JSON.stringify(model)}`);
  }
  return {episode_id, agent: seats[0]!, placeholder: models[seats[0]! - 1]!, model};
}

async function* readRatings(path: string, ctx: ReadContext): AsyncGenerator<ReadItem> {
  const text = decodeWhole(ctx.source.readAll());
  if (text instanceof NotUtf8) {
    yield {kind: "reject", line: text.line, field: null, problem: text.problem, raw: ""};
    return;
  }
  let rows: Generator<CsvRow>;
  let header: CsvRow | undefined;
  try {
    rows = parseCsv(text);
    header = rows.next().value ?? undefined;
  } catch (e) {
    if (!(e instanceof UnclosedQuote)) throw e;
    yield {kind: "reject", line: e.line, field: "header", problem: e.message, raw: ""};
    return;
  }
  if (!header) throw new RecordProblem(null, "the file is empty (expected a header row)");
  // Columns are found by their trimmed name, so a second column of one name would silently hide the first.
  const col = new Map<string, number>();
  for (const [i, raw] of header.fields.entries()) {
    const name = raw.trim();
    const earlier = col.get(name);
    if (earlier !== undefined) {
      const what = name ? `are both named ${JSON.stringify(name)}` : "both have no name";
      throw new ImportError(path, header.line, name || "header",
        `column ${earlier + 1} and column ${i + 1} ${what} (header names are compared after trimming spaces around them; case counts): rename or remove one of them`);
    }
    col.set(name, i);
  }
  const wide = col.has("pk") && col.has("prolific_id");
  const columns = wide ? wideColumns(header.fields) : {seats: [], dimensions: []};
  if (wide && !columns.dimensions.length) throw new RecordProblem("header", "wide layout without any <dimension>_<seat> column");
  if (!wide) {
    const missing = LONG_REQUIRED.filter((c) => !col.has(c));
    if (missing.length) {
      throw new RecordProblem("header", `missing column(s) ${missing.join(", ")}: expected the long layout (${LONG_REQUIRED.join(", ")}[, rationale]) or the wide annotation layout (pk, prolific_id, <dimension>_<seat>)`);
    }
  }
  if (wide && columns.dimensions.length < SOTOPIA_DIMENSIONS.length) {
    const absent = SOTOPIA_DIMENSIONS.filter((d) => !columns.dimensions.includes(d)).map((d) => d.key);
    yield {kind: "note", note: `scores ${columns.dimensions.length} of the ${SOTOPIA_DIMENSIONS.length} SOTOPIA dimensions, for every seat: ${columns.dimensions.map((d) => d.key).join(", ")} (no columns for ${absent.join(", ")})`};
  }
  await ctx.lookUpEpisodes(referencedEpisodes(text, col.get(wide ? "pk" : "episode_id")!));
  // Wide files name the model under test in a `model` column; a spreadsheet fill series there is read as one name, and said so.
  const named = wide && col.has("model");
  let seriesStem: string | null = null;
  if (named) {
    const cells = modelCells(text, col);
    const series = namesConflict(cells) ? fillSeriesStem(cells) : null;
    if (series) {
      seriesStem = series.stem;
      yield {kind: "note", note: `the model column counts up row by row (${JSON.stringify(series.first.model)} on line ${series.first.line} … ${JSON.stringify(series.last.model)} on line ${series.last.line}), as a spreadsheet fill series does, and so names one episode differently on different rows: read as one model, ${JSON.stringify(series.stem)}`};
    }
  }
  const seatNamedOn = new Map<string, {model: string; line: number}>();
  for (;;) {
    let next: IteratorResult<CsvRow>;
    try {
      next = rows.next();
    } catch (e) {
      if (!(e instanceof UnclosedQuote)) throw e;
      // Everything after the quote was read into one field, so the rest of the file holds no rows to go on with.
      yield {kind: "reject", line: e.line, field: header.fields[e.column]?.trim() || `field ${e.column + 1}`, problem: `${e.message}; the rest of the file is read as that one field`, raw: ""};
      return;
    }
    if (next.done) return;
    const row = next.value;
    try {
      if (row.fields.length !== header.fields.length) {
        throw new RecordProblem(null, `has ${row.fields.length} fields, the header has ${header.fields.length}`);
      }
      if (!wide) {
        yield {kind: "ratings", line: row.line, ratings: [longRow(row, col, ctx)]};
        continue;
      }
      const ratings = wideRow(row, col, ctx, columns);
      const cell = named ? (row.fields[col.get("model")!] ?? "").trim() : "";
      const claim = seatModel(ctx, (row.fields[col.get("pk")!] ?? "").trim(), cell && (seriesStem ?? cell));
      if (claim) {
        const key = `${claim.episode_id}\u0000${claim.agent}`;
        const earlier = seatNamedOn.get(key);
        if (earlier && earlier.model !== claim.model) {
          throw new RecordProblem("model", `names seat ${claim.agent} of episode ${claim.episode_id} (${claim.placeholder} in its log) ${JSON.stringify(claim.model)}, but line ${earlier.line} named it ${JSON.stringify(earlier.model)}: one seat cannot be two models`);
        }
        if (!earlier) seatNamedOn.set(key, {model: claim.model, line: row.line});
      }
      yield {kind: "ratings", line: row.line, ratings, seatModel: claim};
    } catch (e) {
      if (!(e instanceof RecordProblem)) throw e;
      yield {kind: "reject", line: row.line, field: e.field, problem: e.problem, raw: row.fields.join(",").slice(0, 2000)};
    }
  }
}

/** Bump when a change to this reader changes the rows a file gives: a stored file read by an older version is read again on its next import (session.ts). */
export const SOTOPIA_RATINGS_READER_VERSION = 1;

export const sotopiaRatingsFormat: ImportFormat = {
  name: "sotopia-ratings",
  readerVersion: SOTOPIA_RATINGS_READER_VERSION,
  description: "Scores per episode, agent and dimension by any rater, as CSV (long layout, or the wide SOTOPIA annotation layout)",
  scoresStoredEpisodes: true,
  read: readRatings,
};
