// The episode viewer's views: a transcript, and each agent's ratings with the
// raters' rationales. Every string here comes from logs and is untrusted, so
// it only ever reaches the page through textContent (never innerHTML).

import {sotopiaDimension, type Dimension} from "../lib/dimensions.js";
import {overallScore} from "../lib/sotopia.js";
import {benchmarkLabel, type FilteredList, type ScoredInstance, type EpisodeDetail, type EpisodeSummary, type Message, type Participant, type Rating} from "../client/episodes.js";

/** participants.model of a speaker whose lines come from the benchmark's data (loaders/queries/store-contents.ts). */
const DATASET_MODEL = "dataset";

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Why the address's episode is not shown (see notFoundText), as a warning; log text, so textContent only. */
export function notFoundView(text: string): HTMLElement {
  const div = el("div", text, "warning");
  div.setAttribute("data-testid", "episode-not-found");
  return div;
}

/** The title of the episode shown: codename and id, benchmark, scenario, and a warning when it is synthetic. */
export function episodeHeaderView(e: EpisodeSummary | null): HTMLElement {
  const div = el("div", undefined, "episode-header");
  div.setAttribute("data-testid", "episode-header");
  if (!e) {
    div.append(el("p", "Pick an episode in the table above."));
    return div;
  }
  div.append(el("h2", e.codename ? `${e.codename}: ${e.episode_id}` : e.episode_id));
  const facts = [benchmarkLabel(e.benchmark), e.scenario_id && `scenario ${e.scenario_id}`, e.task_type && `type ${e.task_type}`].filter(Boolean).join(" · ");
  div.append(el("p", facts, "benchmark"));
  if (e.tag) div.append(el("p", `Experiment: ${e.tag}`, "tag"));
  div.append(el("p", e.scenario, "scenario"));
  if (e.synthetic) {
    const note = el("div", "Synthetic sample episode: generated to exercise the tools, not a real model run.", "warning");
    note.setAttribute("data-testid", "synthetic-note");
    div.append(note);
  }
  return div;
}

/** Who a seat is, as shown in the transcript: "Character (model)". */
function seatName(p: Participant | undefined, agent: number | null): string {
  if (agent === null) return "Environment";
  if (!p) return `Agent ${agent}`;
  return `${p.character || `Agent ${agent}`} (${p.model === DATASET_MODEL ? "from the dataset" : p.model})`;
}

/** The transcript, one block per message in episode order. */
export function transcriptView(messages: readonly Message[], participants: readonly Participant[]): HTMLElement {
  const bySeat = new Map(participants.map((p) => [p.agent, p]));
  const root = el("div", undefined, "transcript");
  root.setAttribute("data-testid", "transcript");
  if (messages.length === 0) root.append(el("p", "This episode has no messages.", "empty"));
  for (const m of messages) {
    const block = el("div", undefined, "message");
    block.dataset.agent = m.agent === null ? "env" : String(m.agent);
    block.dataset.action = m.action_type;
    const who = el("div", `Turn ${m.turn} · ${seatName(bySeat.get(m.agent ?? -1), m.agent)} · ${m.action_type}`, "who");
    block.append(who, el("div", m.content, "text"));
    root.append(block);
  }
  return root;
}

/** What a rating's dimension is called: "Believability (BEL)" where the store defines it, else its key (an STSS condition). */
function dimensionLabel(r: Rating): string {
  if (r.dimension_name === null) return r.dimension;
  return r.abbrev && r.abbrev !== r.dimension_name ? `${r.dimension_name} (${r.abbrev})` : r.dimension_name;
}

/**
 * One agent's card: who they are, their goal, and every rater's scores with
 * rationales, in the benchmark's dimension order. The overall score appears
 * when a rater scored every one of `overall` (the seven SOTOPIA dimensions).
 */
export function agentRatingsView(participant: Participant, ratings: readonly Rating[], overall: readonly Pick<Dimension, "key">[]): HTMLElement {
  const card = el("section", undefined, "card agent-ratings");
  card.dataset.agent = String(participant.agent);
  card.append(el("h3", `Agent ${participant.agent}: ${participant.character || "unnamed"}`));
  card.append(el("p", participant.model === DATASET_MODEL ? "Lines from the benchmark's dataset: not a model, not evaluated." : `Model: ${participant.model}`, "model"));
  if (participant.goal) {
    const goal = el("details", undefined, "goal");
    goal.append(el("summary", "Social goal"), el("div", participant.goal));
    card.append(goal);
  }
  if (participant.background) {
    const bg = el("details", undefined, "background");
    bg.append(el("summary", "Background"), el("div", participant.background, "goal"));
    card.append(bg);
  }

  const mine = ratings.filter((r) => r.agent === participant.agent);
  if (mine.length === 0 && participant.model === DATASET_MODEL) return card;
  if (mine.length === 0) {
    card.append(el("p", "No ratings for this agent.", "empty"));
    return card;
  }
  const raters = [...new Set(mine.map((r) => `${r.rater}\u0000${r.rater_kind}\u0000${r.run_id}`))].sort();
  for (const key of raters) {
    const [rater, kind, runId] = key.split("\u0000");
    const scores = mine
      .filter((r) => r.rater === rater && r.rater_kind === kind && r.run_id === runId)
      .sort((a, b) => (a.dimension_order ?? Infinity) - (b.dimension_order ?? Infinity) || (a.dimension < b.dimension ? -1 : a.dimension > b.dimension ? 1 : 0));
    card.append(el("h4", `Rated by ${rater} (${kind}${runId ? `, run ${runId}` : ""})`));
    const table = el("table", undefined, "numeric ratings");
    const head = table.createTHead().insertRow();
    head.append(el("th", "Dimension"), el("th", "Range", "range"), el("th", "Score", "num"));
    const body = table.createTBody();
    const values: Record<string, number> = {};
    for (const r of scores) {
      values[r.dimension] = r.value;
      const tr = body.insertRow();
      tr.dataset.dimension = r.dimension;
      tr.append(el("td", dimensionLabel(r), "dim"), el("td", r.lo !== null && r.hi !== null ? `[${r.lo}, ${r.hi}]` : "", "range"), el("td", String(r.value), "num"));
      // The rationale on its own full-width line under its score: rationales run long.
      if (r.rationale) {
        const why = body.insertRow();
        why.className = "rationale-row";
        const td = el("td", r.rationale, "rationale");
        td.colSpan = 3;
        why.append(td);
      }
    }
    // Overall only when all seven are scored, as in the statistics (METRICS.md § SOTOPIA-EVAL).
    if (overall.length > 0 && overall.every((d) => d.key in values)) {
      const tr = body.insertRow();
      tr.dataset.dimension = "overall";
      tr.className = "overall";
      tr.append(el("td", "Overall (mean of the seven)", "dim"), el("td", "", "range"), el("td", overallScore(values).toFixed(2), "num"));
    }
    card.append(table);
  }
  return card;
}

/**
 * One side of the side-by-side view (`?episode=A&vs=B`): the episode's
 * header, transcript and each agent's ratings stacked, or why it is missing.
 */
export function episodeSideView(detail: EpisodeDetail | null, id: string, notFound: string, overall: readonly Pick<Dimension, "key">[]): HTMLElement {
  const side = el("div", undefined, "episode-side");
  side.setAttribute("data-testid", "episode-side");
  side.dataset.episode = id;
  if (!detail) {
    side.append(notFoundView(notFound));
    return side;
  }
  side.append(episodeHeaderView(detail.summary), transcriptView(detail.messages, detail.participants));
  for (const p of detail.participants) side.append(agentRatingsView(p, detail.ratings, overall));
  return side;
}

/** One episode: its header, then the transcript beside each agent's ratings. */
export function episodeView(detail: EpisodeDetail | null, overall: readonly Pick<Dimension, "key">[]): HTMLElement {
  const root = el("div");
  root.append(episodeHeaderView(detail?.summary ?? null));
  if (!detail) return root;
  const grid = el("div", undefined, "episode-grid");
  const ratings = el("div");
  for (const p of detail.participants) ratings.append(agentRatingsView(p, detail.ratings, overall));
  const transcript = el("div");
  transcript.append(transcriptView(detail.messages, detail.participants));
  grid.append(transcript, ratings);
  root.append(grid);
  return root;
}

/** Two episodes next to each other (`?episode=A&vs=B`), with a link back to each one alone. */
export function sideBySideView(
  sides: readonly {id: string; detail: EpisodeDetail | null; notFound: string}[],
  overall: readonly Pick<Dimension, "key">[],
): HTMLElement {
  const root = el("div");
  root.setAttribute("data-testid", "side-by-side");
  const nav = el("p", "Side by side. Open alone: ");
  for (const [i, side] of sides.entries()) {
    const link = el("a", side.id);
    link.href = `?${new URLSearchParams({episode: side.id})}`;
    if (i > 0) nav.append(" · ");
    nav.append(link);
  }
  const grid = el("div", undefined, "episode-grid");
  for (const side of sides) grid.append(episodeSideView(side.detail, side.id, side.notFound, overall));
  root.append(nav, grid);
  return root;
}

/** How a filtered list names its dimension: "Goal completion (GOAL)", or overall as the SOTOPIA page defines it. */
export function listDimensionName(key: string): string {
  if (key === "overall") return "Overall (the mean of the seven dimensions)";
  const d = sotopiaDimension(key);
  return d ? `${d.name} (${d.abbrev})` : key;
}

/**
 * The sentence above a filtered list: what it counts (filteredCountText), or
 * why it is empty; `data-n` holds the number of rows, which a link's n must
 * equal. A link back to the whole list follows. Text only: names come from logs.
 */
export function filteredNote(list: FilteredList, text: string): HTMLElement {
  const p = el("p", undefined, list.refusal ? "warning" : undefined);
  p.setAttribute("data-testid", "filtered-count");
  p.dataset.n = String(list.rows.length);
  const all = el("a", "every episode");
  all.href = "./episodes";
  p.append(el("span", text), document.createTextNode(" Show "), all, document.createTextNode(" instead."));
  return p;
}

/** A score as the list shows it: integers as they are, other means to two decimals (the exact value on hover). */
const scoreText = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(2));

/** The scenario of a listed row: its codename, else the scenario's first words, else its id; the id on hover. */
function scenarioCell(row: Pick<ScoredInstance, "codename" | "scenario" | "scenario_id">): HTMLElement {
  const words = row.scenario.split(/\s+/).filter(Boolean);
  const text = row.codename || (words.length ? words.slice(0, 8).join(" ") + (words.length > 8 ? " …" : "") : row.scenario_id);
  const span = el("span", text);
  if (row.scenario_id) span.title = row.scenario_id;
  return span;
}

/** Inputs.table's options for a filtered list: one row per scored agent, its score beside the episode. */
export function filteredTableOptions(list: FilteredList) {
  return {
    columns: ["episode_id", "agent", "model", "partner", "value", "scenario_id"],
    header: {episode_id: "Episode", agent: "Seat", model: "Model", partner: "Partner", value: `Score (${list.filters.rater ?? ""})`, scenario_id: "Scenario"},
    format: {
      value: (v: number) => {
        const span = el("span", scoreText(v));
        span.title = String(v);
        return span;
      },
      partner: (p: string) => p || "–",
      scenario_id: (_: string, i: number, rows: readonly ScoredInstance[]) => scenarioCell(rows[i]!),
    },
  };
}
