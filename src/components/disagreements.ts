// The agreement page's Disagreements section: the build-time lists of
// data/disagreements.json (src/lib/disagreements.ts ranks them, as `report
// disagreements` does) drawn as a table. Imports nothing heavy: the page shows
// it without the statistics modules. Rationales come from logs and go in as
// text only (dom.ts), never as markup.

import {el, numCell} from "./dom.js";

/** One shipped row: episode, agent, dimension, A, B, gap, range (null), annotators, their mean (null), A's and B's rationale (indices into texts; -1: none). */
export type DisagreementRow = [string, number, string, number, number, number, number | null, number, number | null, number, number];

export interface DisagreementPackList {
  a: string;
  /** null: the annotators among themselves. */
  b: string | null;
  /** null: every dimension. */
  dimension: string | null;
  paired: number;
  rows: DisagreementRow[];
}

/** data/disagreements.json: each list's top rows, rationale texts once each. */
export interface DisagreementPack {
  perList: number;
  texts: string[];
  lists: DisagreementPackList[];
}

export const HUMANS_LABEL = "mean of human annotators";

/** A picker's label for a rater of the lists: "humans" is the annotators' mean. */
export const sideLabel = (name: string | null): string => (name === null ? "each other (the annotators among themselves)" : name === "humans" ? HUMANS_LABEL : name);

/** The (A, B) pair covering the most instances over every dimension; ties to the first listed (an LLM judge against the humans). */
export function startingPair(pack: DisagreementPack): {a: string; b: string | null} | null {
  let best: DisagreementPackList | null = null;
  for (const l of pack.lists) if (l.dimension === null && (best === null || l.paired > best.paired)) best = l;
  return best && {a: best.a, b: best.b};
}

/** The A choices in the lists' order, and for one A its B choices. */
export const aChoices = (pack: DisagreementPack): string[] => [...new Set(pack.lists.map((l) => l.a))];
export const bChoices = (pack: DisagreementPack, a: string): (string | null)[] => [...new Set(pack.lists.filter((l) => l.a === a).map((l) => l.b))];

export const findList = (pack: DisagreementPack, a: string, b: string | null, dimension: string | null): DisagreementPackList | undefined =>
  pack.lists.find((l) => l.a === a && l.b === b && l.dimension === dimension);

/** A number as the table shows it: up to three decimals, no trailing zeros (6.333, 4, 0.5). */
export const shortNumber = (v: number | null): string => (v === null ? "" : String(Number(v.toFixed(3))));

/** The transcript's address in the episode viewer. */
export const transcriptHref = (episode: string): string => `episodes?episode=${encodeURIComponent(episode)}`;

/**
 * The list as a table, one row per instance, each cell marked with the CLI
 * column it shows (`data-col`) so page and `report disagreements` can be
 * compared cell by cell.
 */
export function disagreementsTable(pack: DisagreementPack, list: DisagreementPackList): HTMLTableElement {
  const among = list.b === null;
  const text = (i: number) => (i < 0 ? "" : pack.texts[i] ?? "");
  const table = el("table", undefined, "disagreements");
  table.setAttribute("data-testid", "disagreements-table");
  const head = table.createTHead().insertRow();
  const columns = among
    ? [["rank", "#"], ["episode_id", "Episode"], ["agent", "Agent"], ["dimension", "Dimension"], ["range", "Range"], ["annotators", "Annotators"], ["low", "Low"], ["high", "High"], ["mean", "Mean"], ["rationales", "What the annotators said"]]
    : [["rank", "#"], ["episode_id", "Episode"], ["agent", "Agent"], ["dimension", "Dimension"], ["a", `A: ${sideLabel(list.a)}`], ["b", `B: ${sideLabel(list.b)}`], ["gap", "|A − B|"],
      ["range", "Annotators' range"], ["annotators", "Annotators"], ["a_rationale", "A's rationale"], ["b_rationale", "B's rationale"]];
  for (const [, label] of columns) head.append(el("th", label));
  const body = table.createTBody();
  list.rows.forEach(([episode, agent, dimension, a, b, gap, range, annotators, mean, aText, bText], k) => {
    const tr = body.insertRow();
    const cell = (col: string, td: HTMLTableCellElement) => {
      td.dataset.col = col;
      tr.append(td);
    };
    cell("rank", numCell(String(k + 1)));
    const link = el("a", episode);
    link.href = transcriptHref(episode);
    link.title = "Open the transcript in the episode viewer";
    const ep = el("td");
    ep.append(link);
    cell("episode_id", ep);
    cell("agent", numCell(String(agent)));
    cell("dimension", el("td", dimension));
    const values: [string, number | null][] = among
      ? [["range", gap], ["annotators", annotators], ["low", a], ["high", b], ["mean", mean]]
      : [["a", a], ["b", b], ["gap", gap], ["range", range], ["annotators", annotators]];
    for (const [col, v] of values) cell(col, numCell(shortNumber(v), v ?? undefined));
    const texts: [string, number][] = among ? [["rationales", bText]] : [["a_rationale", aText], ["b_rationale", bText]];
    for (const [col, i] of texts) cell(col, el("td", text(i), "rationale"));
  });
  return table;
}
