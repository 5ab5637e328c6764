// Seats that an episode log names only by a placeholder, named by a ratings
// file instead. The Sotopia-π logs call mistral-instruct, BC, SR and BC+SR all
// `custom_model`; their annotation CSVs' `model` column tells them apart.
// Names land in model_names (migration 008) and are applied to participants
// inside the import's transaction, by the ratings import and again by any
// later import that rewrites those episodes.

import {rows, type Store} from "../store/db.js";
import {ImportError} from "./errors.js";

/** Model names that say only "some model the runner was given", never which one. */
export const PLACEHOLDER_MODELS: ReadonlySet<string> = new Set(["custom_model"]);

/** A ratings row's claim: this seat of this episode, a placeholder in the log, is this model. */
export interface SeatModel {
  episode_id: string;
  agent: number;
  placeholder: string;
  model: string;
}

/** The model column of one row of a ratings file, in file order. */
export interface ModelCell {
  line: number;
  episode: string;
  model: string;
}

/**
 * The stem of a `model` column that a spreadsheet filled by dragging one cell
 * down, so that a trailing number counts up row by row ("mistral-selftrain-round2",
 * "…round3", …), or null. Only asked when the column names one episode
 * differently on different rows; it must then share one stem, end in a number
 * that never decreases from row to row, and take at least three values.
 */
export function fillSeriesStem(cells: readonly ModelCell[]): {stem: string; first: ModelCell; last: ModelCell} | null {
  let stem: string | null = null;
  let previous = -Infinity;
  const counts = new Set<number>();
  for (const cell of cells) {
    const m = /^(.*\D)(\d+)$/.exec(cell.model);
    if (!m) return null;
    if (stem === null) stem = m[1];
    const n = Number(m[2]);
    if (m[1] !== stem || n < previous) return null;
    previous = n;
    counts.add(n);
  }
  const trimmed = stem?.replace(/[-_ .]+$/, "") ?? "";
  if (counts.size < 3 || !trimmed) return null;
  return {stem: trimmed, first: cells[0]!, last: cells[cells.length - 1]!};
}

/** Does some episode get two different names on different rows? */
export function namesConflict(cells: readonly ModelCell[]): boolean {
  const seen = new Map<string, string>();
  for (const c of cells) {
    const earlier = seen.get(c.episode);
    if (earlier !== undefined && earlier !== c.model) return true;
    seen.set(c.episode, c.model);
  }
  return false;
}

/** A name from another ratings file for the same seat is an error, not a silent merge. */
export async function checkModelNameConflicts(store: Store): Promise<void> {
  const clash = await rows<{episode_id: string; agent: number}>(store.conn, `
    SELECT episode_id, agent FROM model_names GROUP BY episode_id, agent HAVING count(DISTINCT model) > 1 ORDER BY 1, 2 LIMIT 1`);
  if (!clash.length) return;
  const {episode_id, agent} = clash[0]!;
  const claims = await rows<{path: string; line: number; model: string}>(store.conn, `
    SELECT s.path, n.line, n.model FROM model_names n JOIN sources s USING (source_id)
    WHERE n.episode_id = $1 AND n.agent = $2 ORDER BY s.imported_at, s.path, n.line`, [episode_id, agent]);
  const last = claims[claims.length - 1]!;
  throw new ImportError(last.path, last.line, "model",
    `names seat ${agent} of episode ${episode_id} ${JSON.stringify(last.model)}, but ${claims.slice(0, -1).filter((c) => c.model !== last.model)
      .map((c) => `${c.path}:${c.line} names it ${JSON.stringify(c.model)}`).join("; ")}: one seat cannot be two models`);
}

/** Gives every placeholder seat the name a ratings file gave it (episodes imported before or after that file). */
export async function applyModelNames(store: Store): Promise<void> {
  await store.conn.run(`
    UPDATE participants SET model = n.model FROM model_names n
    WHERE participants.episode_id = n.episode_id AND participants.agent = n.agent AND participants.model = n.placeholder`);
}

/** Takes back the names a ratings file gave, before its rows are removed (the file changed, or is imported again). */
export async function revertModelNames(store: Store, sourceId: string): Promise<void> {
  await store.conn.run(`
    UPDATE participants SET model = n.placeholder FROM model_names n
    WHERE n.source_id = $1 AND participants.episode_id = n.episode_id AND participants.agent = n.agent AND participants.model = n.model`,
  [sourceId]);
  await store.conn.run("DELETE FROM model_names WHERE source_id = $1", [sourceId]);
}
