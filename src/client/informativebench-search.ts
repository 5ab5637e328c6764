// The InformativeBench question list's search, cheap per keystroke at any size
// (issue 18: at ×100 the samples every keystroke lower-cased the id, question,
// prediction and gold of 234k records and rebuilt the list's rows). Each
// record's searched text is lower-cased once, when the records or the match
// mode change, and a keystroke that only lengthens the search looks inside the
// previous matches; the page waits for a pause in typing before it searches.

import type {IbScoredRow} from "../lib/informativebench.js";

/** Between a record's fields in its searched text: no search can hold it (see matches), so no match spans two fields. */
const FIELD_BREAK = "\u0000";

export interface QuestionFilter {
  dataset: string;
  model: string;
  /** The search as typed; compared lower-cased and trimmed, as the list always did. */
  search: string;
}

/** The fields a search reads, lower-cased one by one (so each is the text the old filter compared), joined by FIELD_BREAK. */
function searchedText(r: IbScoredRow): string {
  let text = r.question_id.toLowerCase() + FIELD_BREAK + r.question.toLowerCase() + FIELD_BREAK + (r.prediction ?? "").toLowerCase();
  for (const g of r.gold) text += FIELD_BREAK + g.toLowerCase();
  return text;
}

/**
 * A search over one list of scored records (one match mode's): `filter` gives
 * the records a filter keeps, in their order, the same records as testing each
 * field with toLowerCase().includes. It remembers its last answer, so typing
 * on narrows that answer instead of the whole list.
 */
export class QuestionSearch {
  readonly rows: readonly IbScoredRow[];
  #texts: string[] | null = null;
  #last: {dataset: string; model: string; needle: string; kept: IbScoredRow[]; at: number[]} | null = null;

  constructor(rows: readonly IbScoredRow[]) {
    this.rows = rows;
  }

  /** Every record's searched text, made on the first search (the list without one never needs it). */
  #searched(): string[] {
    if (this.#texts === null) {
      const texts: string[] = new Array(this.rows.length);
      for (let i = 0; i < this.rows.length; i++) texts[i] = searchedText(this.rows[i]!);
      this.#texts = texts;
    }
    return this.#texts;
  }

  filter({dataset, model, search}: QuestionFilter): IbScoredRow[] {
    const needle = search.trim().toLowerCase();
    const last = this.#last;
    // A longer search with the same menus can only keep some of the last matches.
    const narrowing = last !== null && last.dataset === dataset && last.model === model && needle.startsWith(last.needle);
    const from = narrowing ? last.at : null;
    const count = from === null ? this.rows.length : from.length;
    const texts = needle === "" ? null : this.#searched();
    const byField = needle.includes(FIELD_BREAK);
    const kept: IbScoredRow[] = [];
    const at: number[] = [];
    for (let k = 0; k < count; k++) {
      const i = from === null ? k : from[k]!;
      const r = this.rows[i]!;
      if (dataset !== "all" && r.dataset !== dataset) continue;
      if (model !== "all" && r.model !== model) continue;
      if (texts !== null && !(byField ? fieldsInclude(r, needle) : texts[i]!.includes(needle))) continue;
      kept.push(r);
      at.push(i);
    }
    this.#last = {dataset, model, needle, kept, at};
    return kept;
  }
}

/** The old test, field by field: only for a search that holds FIELD_BREAK itself, which the joined text would match across fields. */
function fieldsInclude(r: IbScoredRow, needle: string): boolean {
  if (r.question_id.toLowerCase().includes(needle) || r.question.toLowerCase().includes(needle) || (r.prediction ?? "").toLowerCase().includes(needle)) return true;
  for (const g of r.gold) if (g.toLowerCase().includes(needle)) return true;
  return false;
}

/**
 * `input` (an Inputs form) behind a wrapper whose value follows the input's
 * once typing has paused for `ms`, so a page cell reading it (view(…)) runs
 * once per pause, not per keystroke. Enter applies at once.
 */
export function afterPause<T extends HTMLElement & {value: unknown}>(input: T, ms = 150): HTMLElement & {value: unknown} {
  const wrapper = document.createElement("div") as unknown as HTMLElement & {value: unknown};
  wrapper.append(input);
  wrapper.value = input.value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const apply = () => {
    timer = undefined;
    if (wrapper.value === input.value) return;
    wrapper.value = input.value;
    wrapper.dispatchEvent(new Event("input", {bubbles: true}));
  };
  input.addEventListener("input", (event) => {
    // The keystroke's own event would reach view()'s listener on the wrapper at once: only the wrapper's counts.
    event.stopPropagation();
    clearTimeout(timer);
    timer = setTimeout(apply, ms);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    clearTimeout(timer);
    apply();
  });
  return wrapper;
}
