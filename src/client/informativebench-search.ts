// The InformativeBench question list's search, cheap per keystroke at any size
// (issue 18: at ×100 the samples every keystroke lower-cased the id, question,
// prediction and gold of 234k records). Each record's fields are lower-cased
// once per list of scored records (per match mode), in idle time once the
// records come; a keystroke that only lengthens the search looks inside the
// previous matches; and the page waits for a pause in typing before it searches.

import type {IbScoredRow} from "../lib/informativebench.js";

export interface QuestionFilter {
  dataset: string;
  model: string;
  /** The search as typed; compared lower-cased and trimmed, as the list always did. */
  search: string;
}

/**
 * A search over one list of scored records (one match mode's): `filter` gives
 * the records a filter keeps, in their order, the same records as testing each
 * field with toLowerCase().includes. It remembers its last answer, so typing
 * on narrows that answer instead of the whole list; and it lower-cases each
 * record's fields once, in idle time (indexInIdle), reading a record not yet
 * done as the list always did.
 */
export class QuestionSearch {
  readonly rows: readonly IbScoredRow[];
  /** The lower-cased fields of records 0 … indexed − 1, record after record: record i's are fields[starts[i]] up to fields[starts[i + 1]]. */
  readonly #fields: string[] = [];
  readonly #starts: Int32Array;
  #indexed = 0;
  #last: {dataset: string; model: string; needle: string; at: number[]} | null = null;

  constructor(rows: readonly IbScoredRow[]) {
    this.rows = rows;
    this.#starts = new Int32Array(rows.length + 1);
  }

  /** Lower-cases the fields of further records, 500 at a time while `more()` says so; true once every record is done. */
  index(more: () => boolean = () => true): boolean {
    const fields = this.#fields;
    while (this.#indexed < this.rows.length && more()) {
      const end = Math.min(this.rows.length, this.#indexed + 500);
      for (let i = this.#indexed; i < end; i++) {
        const r = this.rows[i]!;
        fields.push(r.question_id.toLowerCase(), r.question.toLowerCase(), (r.prediction ?? "").toLowerCase());
        for (const g of r.gold) fields.push(g.toLowerCase());
        this.#starts[i + 1] = fields.length;
      }
      this.#indexed = end;
    }
    return this.#indexed === this.rows.length;
  }

  filter({dataset, model, search}: QuestionFilter): IbScoredRow[] {
    const needle = search.trim().toLowerCase();
    const last = this.#last;
    // A longer search with the same menus can only keep some of the last matches.
    const from = last !== null && last.dataset === dataset && last.model === model && needle.startsWith(last.needle) ? last.at : null;
    const count = from === null ? this.rows.length : from.length;
    const kept: IbScoredRow[] = [];
    const at: number[] = [];
    for (let k = 0; k < count; k++) {
      const i = from === null ? k : from[k]!;
      const r = this.rows[i]!;
      if (dataset !== "all" && r.dataset !== dataset) continue;
      if (model !== "all" && r.model !== model) continue;
      if (needle !== "" && !(i < this.#indexed ? this.#indexedIncludes(i, needle) : fieldsInclude(r, needle))) continue;
      kept.push(r);
      at.push(i);
    }
    this.#last = {dataset, model, needle, at};
    return kept;
  }

  #indexedIncludes(i: number, needle: string): boolean {
    for (let f = this.#starts[i]!, to = this.#starts[i + 1]!; f < to; f++) if (this.#fields[f]!.includes(needle)) return true;
    return false;
  }
}

/** The list's former test, for a record not yet indexed. */
function fieldsInclude(r: IbScoredRow, needle: string): boolean {
  if (r.question_id.toLowerCase().includes(needle) || r.question.toLowerCase().includes(needle) || (r.prediction ?? "").toLowerCase().includes(needle)) return true;
  for (const g of r.gold) if (g.toLowerCase().includes(needle)) return true;
  return false;
}

/** Indexes `search` while the page is idle (requestIdleCallback, else a timer turn at a time), a few milliseconds per turn. */
export function indexInIdle(search: QuestionSearch): void {
  if (typeof requestIdleCallback === "function") {
    const work = (deadline: IdleDeadline) => {
      if (!search.index(() => deadline.timeRemaining() > 2)) requestIdleCallback(work);
    };
    requestIdleCallback(work);
  } else {
    const work = () => {
      const until = performance.now() + 8;
      if (!search.index(() => performance.now() < until)) setTimeout(work, 0);
    };
    setTimeout(work, 0);
  }
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
