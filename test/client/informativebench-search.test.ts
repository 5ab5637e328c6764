// The InformativeBench question list's search gives the records the page's
// former filter gave (each field lower-cased and tested with includes), for
// searches typed on, deleted, and changed with the menus; and the page reads
// the search once typing pauses.

import {afterEach, describe, expect, it, vi} from "vitest";
import {afterPause, QuestionSearch, type QuestionFilter} from "../../src/client/informativebench-search.js";
import type {IbScoredRow} from "../../src/lib/informativebench.js";

/** The page's filter before QuestionSearch, verbatim. */
function formerFilter(scored: readonly IbScoredRow[], {dataset, model, search}: QuestionFilter): IbScoredRow[] {
  const needle = search.trim().toLowerCase();
  return scored.filter((r) => (dataset === "all" || r.dataset === dataset) && (model === "all" || r.model === model) &&
    (!needle || [r.question_id, r.question, r.prediction ?? "", ...r.gold].some((t) => t.toLowerCase().includes(needle))));
}

const row = (i: number, question: string, prediction: string | null, gold: string[]): IbScoredRow => ({
  episode_id: `ep-${i}`, model: i % 3 === 0 ? "gpt-4" : "gpt-3.5", dataset: i % 2 === 0 ? "FriendsTV" : "NeedleInTheHaystack", metric: "precision",
  question_id: `Q${i}`, question, prediction, gold, turns: null, score: i % 2, problem: null,
  settings: "", consensus: false, cot: false,
} as unknown as IbScoredRow);

// Hand-picked texts: capitals, a Greek final sigma and a dotted capital I (whose lower cases depend on
// context or grow), an empty prediction, no prediction, and words split across two fields.
const HAND = [
  row(1, "Who met ROSS at the café?", "Rachel", ["Rachel", "Monica"]),
  row(2, "Where is ΟΔΥΣΣΕΥΣ going", null, ["Ithaca"]),
  row(3, "İstanbul or Ankara?", "", ["İstanbul"]),
  row(4, "When does the meeting start", "at nine", ["9:00", "nine"]),
  row(5, "How many", "three", ["3"]),
  row(6, "question ends with ross", "achel", ["x"]),
];

/** Many records over a small alphabet, so searches of one to four letters keep some and drop others. */
function generated(n: number): IbScoredRow[] {
  const letters = "abcAB Σσςİi ";
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const text = (len: number) => {
    let s = "";
    for (let k = 0; k < len; k++) s += letters[next() % letters.length];
    return s;
  };
  const rows: IbScoredRow[] = [];
  for (let i = 0; i < n; i++) rows.push(row(100 + i, text(12), next() % 5 === 0 ? null : text(6), next() % 4 === 0 ? [] : [text(4), text(3)]));
  return rows;
}

describe("QuestionSearch", () => {
  it("keeps exactly the records the former filter kept, in order, through typing, deleting and menu changes", () => {
    const rows = [...HAND, ...generated(3000)];
    const search = new QuestionSearch(rows);
    // Half the records indexed, as when a search comes while the page is still indexing in idle time.
    let batches = 0;
    expect(search.index(() => batches++ < 3)).toBe(false);
    const steps: QuestionFilter[] = [];
    const menus: [string, string][] = [["all", "all"], ["FriendsTV", "all"], ["all", "gpt-4"], ["NeedleInTheHaystack", "gpt-3.5"]];
    for (const [dataset, model] of menus) {
      for (const typed of ["", "r", "ro", "ros", "ross", "ro", "ΣΣ", "σς", "ςa", "i", "İ", "i̇", "  Ab ", "ab c", "rachel", "ross\u0000ach", "zzz", ""]) steps.push({dataset, model, search: typed});
    }
    let kept = 0;
    for (const step of steps) {
      const want = formerFilter(rows, step);
      expect(search.filter(step), JSON.stringify(step)).toEqual(want);
      kept += want.length;
      if (step.search === "zzz" && step.dataset === "FriendsTV") expect(search.index()).toBe(true);
    }
    expect(kept).toBeGreaterThan(0);
  });

  it("finds words in any field, any case, but never across two fields", () => {
    const search = new QuestionSearch(HAND);
    search.index();
    const ids = (s: string) => search.filter({dataset: "all", model: "all", search: s}).map((r) => r.question_id);
    expect(ids("ROSS")).toEqual(["Q1", "Q6"]);
    expect(ids("rachel")).toEqual(["Q1"]);
    expect(ids("q5")).toEqual(["Q5"]);
    expect(ids("ὀδυσσευσ")).toEqual([]);
    expect(ids("οδυσσευς")).toEqual(["Q2"]);
    // "ross" ends the question of Q6 and "achel" is its prediction: the two fields do not join.
    expect(ids("rossachel")).toEqual([]);
    expect(ids("  ")).toEqual(["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"]);
  });
});

describe("afterPause", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("passes the typed value on once typing pauses for 150 ms, or at once on Enter", () => {
    vi.useFakeTimers();
    // Node's EventTarget stands in for the elements: the wrapper only needs events, a value and append.
    vi.stubGlobal("document", {createElement: () => Object.assign(new EventTarget(), {append() {}})});
    const input = Object.assign(new EventTarget(), {value: ""}) as unknown as HTMLElement & {value: string};
    const wrapper = afterPause(input);
    const seen: unknown[] = [];
    wrapper.addEventListener("input", () => seen.push(wrapper.value));
    for (const typed of ["r", "ro", "ros"]) {
      input.value = typed;
      input.dispatchEvent(new Event("input"));
      vi.advanceTimersByTime(100);
    }
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(seen).toEqual(["ros"]);
    input.value = "ross";
    input.dispatchEvent(new Event("input"));
    input.dispatchEvent(Object.assign(new Event("keydown"), {key: "Enter"}));
    expect(seen).toEqual(["ros", "ross"]);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(["ros", "ross"]);
  });
});
