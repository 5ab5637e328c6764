// The header of a wide SOTOPIA ratings file (`<dimension>_<seat>`,
// `<dimension>_reasoning_<seat>`): which seats and dimensions it scores. A
// column the import would not read refuses the file, so no score is left behind.

import {closest} from "../did-you-mean.js";
import {SOTOPIA_DIMENSIONS, sotopiaDimension, type Dimension} from "../../src/lib/dimensions.js";
import {RecordProblem} from "./errors.js";

export interface WideColumns {
  seats: number[];
  /** The dimensions scored, in the paper's order: the same for every seat. */
  dimensions: Dimension[];
}

const SEAT_COLUMN = /^([A-Za-z][A-Za-z0-9_]*?)(_reasoning)?_(\d+)$/;
const DIMENSION_KEYS = SOTOPIA_DIMENSIONS.map((d) => d.key);

/** `goal-1`, `goal 1`, `goal.1`, `goal1`: a seat's column in another spelling, once separators are underscores and the seat's may be missing. */
const LOOSE_SEAT_COLUMN = /^([a-z][a-z_]*?)(_reasoning)?_?(\d+)$/;

/** The `<dimension>[_reasoning]_<seat>` column a header name not in that shape probably means, if any. */
function meantAsScoreColumn(name: string): string | null {
  const m = LOOSE_SEAT_COLUMN.exec(name.toLowerCase().replace(/[\s.-]+/g, "_"));
  if (!m) return null;
  const [, written, reasoning, seat] = m;
  const dimension = sotopiaDimension(written!) ? written! : closest(written!, DIMENSION_KEYS);
  return dimension ? `${dimension}${reasoning ?? ""}_${seat}` : null;
}

const listed = (items: readonly string[]) => (items.length < 3 ? items.join(" and ") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);

/** Seats and dimensions of a wide header (its trimmed names distinct: the reader refuses a repeated one first); a RecordProblem on `header` for a column that is misnamed, or missing for one seat. */
export function wideColumns(names: readonly string[]): WideColumns {
  const scored = new Set<string>();
  const reasoned: {name: string; score: string}[] = [];
  const seatSet = new Set<number>();
  const misnamed: string[] = [];
  for (const [i, raw] of names.entries()) {
    const name = raw.trim();
    const m = SEAT_COLUMN.exec(name);
    if (!m) {
      const meant = meantAsScoreColumn(name);
      if (meant) misnamed.push(`column ${i + 1}, ${JSON.stringify(name)}, looks like the score column ${meant} spelt another way (wide files name them <dimension>_<seat>)`);
      continue;
    }
    const [, dimension, reasoning, seat] = m;
    if (Number(seat) < 1) throw new RecordProblem("header", `column ${i + 1}, ${JSON.stringify(name)}, names seat ${seat}; seats count from 1`);
    if (!sotopiaDimension(dimension!)) {
      const meant = closest(dimension!, DIMENSION_KEYS);
      const hint = meant ? `did you mean ${meant}${reasoning ?? ""}_${seat}?` : "rename or remove it";
      misnamed.push(`column ${i + 1}, ${JSON.stringify(name)}, is named like a score column of seat ${seat}, but ${JSON.stringify(dimension)} is no SOTOPIA dimension (${hint})`);
      continue;
    }
    seatSet.add(Number(seat));
    if (reasoning) reasoned.push({name, score: `${dimension}_${seat}`});
    else scored.add(name);
  }
  if (misnamed.length) {
    throw new RecordProblem("header", `${misnamed.join("; ")}; the dimensions are ${DIMENSION_KEYS.join(", ")}`);
  }
  const seats = [...seatSet].sort((a, b) => a - b);
  const dimensions = SOTOPIA_DIMENSIONS.filter((d) => seats.some((s) => scored.has(`${d.key}_${s}`)));
  const missing: string[] = [];
  const partly: string[] = [];
  for (const d of dimensions) {
    const has = seats.filter((s) => scored.has(`${d.key}_${s}`));
    if (has.length === seats.length) continue;
    for (const s of seats) if (!has.includes(s)) missing.push(`${d.key}_${s}`);
    partly.push(`${d.key} for seat${has.length > 1 ? "s" : ""} ${listed(has.map(String))} only`);
  }
  if (missing.length) {
    throw new RecordProblem("header", `missing score column(s) ${missing.join(", ")} (the file scores ${partly.join(", ")}): a wide file scores each of its dimensions for every seat (${listed(seats.map(String))} here)`);
  }
  const orphan = reasoned.find((r) => !scored.has(r.score));
  if (orphan) throw new RecordProblem("header", `column ${JSON.stringify(orphan.name)} holds rationales for a score column ${orphan.score} the file does not have`);
  return {seats, dimensions};
}
