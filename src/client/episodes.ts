// Data for the episode viewer: the episode list to search, per benchmark, in
// pages, and one episode's participants, transcript and ratings, each read
// from a pack (episode-pack.ts) with range requests: opening an episode
// fetches its block, never the store's tables, so it costs the same at any size.

import {blockOfId, openPack, type Pack} from "./episode-pack.js";

export interface EpisodeSummary {
  episode_id: string;
  /** The benchmark the overview counts it under (sotopia, lifelong-sotopia, stss, hsii, …). */
  benchmark: string;
  scenario: string;
  /** The benchmark's scenario, task or case id. */
  scenario_id: string;
  codename: string;
  tag: string;
  /** HSII cluster; empty for most benchmarks. */
  task_type: string;
  synthetic: boolean;
  /** The seats that played, in order, "model 1 vs model 2"; never the dataset's speakers. */
  models: string;
  characters: string;
  turns: number;
  messages: number;
}

export interface Participant {
  agent: number;
  /** A model name, `human`, or `dataset` for a speaker whose lines come from the benchmark's data. */
  model: string;
  character: string;
  goal: string;
  background: string;
}

export interface Message {
  seq: number;
  turn: number;
  agent: number | null;
  action_type: string;
  content: string;
}

export interface Rating {
  agent: number;
  dimension: string;
  rater: string;
  rater_kind: string;
  value: number;
  rationale: string;
  run_id: string;
  /** Name, abbreviation and range where the store defines the dimension for the episode's benchmark; else null. */
  dimension_name: string | null;
  abbrev: string | null;
  lo: number | null;
  hi: number | null;
  /** The dimension's place in its benchmark's order; null for dimensions the store does not define. */
  dimension_order: number | null;
}

export interface EpisodeDetail {
  summary: EpisodeSummary;
  participants: Participant[];
  messages: Message[];
  ratings: Rating[];
}

/** A benchmark of the viewer: how many episodes with a transcript it has, and where the list pack holds them. */
export interface ViewerBenchmark {
  name: string;
  label: string;
  episodes: number;
  firstPage: number;
  pages: number;
  /** Compressed size of its pages: what listing all of them fetches. */
  bytes: number;
}

/** Benchmark names in the order the selector lists them; others follow by name. */
export const VIEWER_ORDER: readonly string[] = ["sotopia", "lifelong-sotopia", "stss", "hsii", "informativebench"];

const LABELS: ReadonlyMap<string, string> = new Map([
  ["sotopia", "SOTOPIA"],
  ["lifelong-sotopia", "LIFELONG-SOTOPIA"],
  ["stss", "STSS"],
  ["hsii", "HSII"],
  ["informativebench", "InformativeBench"],
]);

export function benchmarkLabel(name: string): string {
  return LABELS.get(name) ?? name;
}

/** The episodes listed at first, per benchmark: enough to browse and search, one fetch per 500. */
export const DEFAULT_LIST_SIZE = 5000;

export interface Viewer {
  /** The list pack: summary rows in pages, by benchmark then id. */
  list: Pack;
  /** The episode pack: every episode's rows in blocks by a hash of its id. */
  episodes: Pack;
  benchmarks: ViewerBenchmark[];
}

/** Opens the viewer's two packs (headers only: a few kilobytes). */
export async function openViewer(
  listUrl: string | URL | Promise<string | URL>,
  episodesUrl: string | URL | Promise<string | URL>,
  options?: Parameters<typeof openPack>[1],
): Promise<Viewer> {
  // FileAttachment(…).url() is a promise.
  const [list, episodes] = await Promise.all([openPack(String(await listUrl), options), openPack(String(await episodesUrl), options)]);
  const raw = (list.header.benchmarks ?? []) as Omit<ViewerBenchmark, "label">[];
  return {list, episodes, benchmarks: raw.map((b) => ({...b, label: benchmarkLabel(b.name)}))};
}

/** The first `limit` episodes of benchmark `b` by id, fetched page by page from the list pack. */
export async function loadListed(viewer: Viewer, b: ViewerBenchmark, limit: number): Promise<EpisodeSummary[]> {
  const pageSize = viewer.list.header.pageSize as number;
  const pages = Math.min(b.pages, Math.ceil(limit / pageSize));
  const fetched = await Promise.all(Array.from({length: pages}, (_, i) => viewer.list.block(b.firstPage + i)));
  const listed: EpisodeSummary[] = [];
  for (const page of fetched) {
    for (const row of page.episodes) {
      if (listed.length === limit) break;
      listed.push(row as unknown as EpisodeSummary);
    }
  }
  return listed;
}

/** The list sizes a reader can pick for benchmark `b`: the default and tenfold steps below its count, then all. */
export function listSizes(b: ViewerBenchmark): number[] {
  const sizes: number[] = [];
  for (let n = DEFAULT_LIST_SIZE; n < b.episodes; n *= 10) sizes.push(n);
  sizes.push(b.episodes);
  return sizes;
}

const fmt = (n: number) => n.toLocaleString("en-US");
const mb = (bytes: number) => (bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** How a list size reads in the selector: "5,000", or "all 100,000 (7.9 MB)". */
export function listSizeLabel(b: ViewerBenchmark, n: number): string {
  return n >= b.episodes ? `all ${fmt(b.episodes)} (${mb(b.bytes)})` : fmt(n);
}

/**
 * "N SOTOPIA episodes with a transcript." or, when the list holds only the
 * first of them, how many, why, and how to see the others.
 */
export function listCountText(b: ViewerBenchmark, listed: number): string {
  if (listed >= b.episodes) return `${fmt(b.episodes)} ${b.label} episodes with a transcript.`;
  return `The list holds the first ${fmt(listed)} of ${fmt(b.episodes)} ${b.label} episodes with a transcript, by id, so the page stays light at any size: ` +
    `raise "Episodes listed" to search more (all of them fetch ${mb(b.bytes)}), or open any episode by its id (?episode=<id>).`;
}

/** What the address asks for: `?episode=A` (null when absent), and `&vs=B` for a side-by-side view (null when absent). */
export function episodeAddress(search: string): {id: string | null; vs: string | null} {
  const params = new URLSearchParams(search);
  return {id: params.get("episode"), vs: params.get("vs")};
}

/** The address of the side-by-side view of `a` and `b`, relative to the viewer page. */
export function sideBySideHref(a: string, b: string): string {
  return `?${new URLSearchParams({episode: a, vs: b})}`;
}

/** Why the episode `id` of the address is not shown: the site ships every transcript, so the store has none by that id. */
export function notFoundText(id: string): string {
  return `No episode ${JSON.stringify(id)} in this store with a transcript.`;
}

/**
 * The episode the table selects at first: the address's when it is listed;
 * none when the address names no episode, or one of this benchmark past the
 * listed ones (the page shows it from the address); else the first.
 */
export function initialEpisode(found: readonly EpisodeSummary[], addressId: string | null, fromAddress: EpisodeSummary | null): EpisodeSummary | null {
  if (addressId !== null) {
    const hit = found.find((e) => e.episode_id === addressId);
    if (hit) return hit;
    if (!fromAddress) return null;
    if (found.length > 0 && found[0].benchmark === fromAddress.benchmark) return null;
  }
  return found[0] ?? null;
}

/** The list's columns: the id, whichever of codename / scenario id / cluster some episode has, then who played. */
export function listColumns(episodes: readonly EpisodeSummary[]): (keyof EpisodeSummary)[] {
  const optional = (["codename", "scenario_id", "task_type"] as const).filter((c) => episodes.some((e) => e[c] !== ""));
  return ["episode_id", ...optional, "models", "characters", "turns", "synthetic"];
}

/** Everything the viewer shows about one episode, from the one block that holds it; null when no episode has that id. */
export async function loadEpisode(viewer: Pick<Viewer, "episodes">, episodeId: string): Promise<EpisodeDetail | null> {
  const block = await viewer.episodes.block(blockOfId(episodeId, viewer.episodes.header.blocks));
  const mine = <T>(part: string): T[] => block[part].filter((r) => r.episode_id === episodeId) as unknown as T[];
  const [summary] = mine<EpisodeSummary>("episodes");
  if (!summary) return null;
  return {
    summary,
    participants: mine<Participant>("participants"),
    messages: mine<Message>("messages"),
    ratings: mine<Rating>("ratings"),
  };
}

// ——— Filtered lists: from a number on a benchmark page to the episodes behind it ———

/**
 * What a link into the viewer's list may ask for. Every key is optional; the
 * list shows the episodes (one row per scored agent) that meet all of them.
 * - `benchmark`: the viewer's benchmark name (`sotopia`, …).
 * - `model`, `partner`: the rated agent's model and the other seat's model
 *   (`partner=` empty: the episode had no other player).
 * - `seat`: the rated agent's seat, from 1.
 * - `rater`: a rater as the store names it, or `humans` for the mean of the
 *   human annotators.
 * - `dimension`: a dimension key (`goal`, `believability`, …, or `overall`).
 * - `scenario`: a scenario id or codename.
 * - `min`, `max`: the score range, both ends included.
 * - `run`, `source`: a run id (`imported` for scores with none) or a file name
 *   the agent's scores, or its episode, came from.
 */
export interface EpisodeFilters {
  benchmark?: string;
  model?: string;
  partner?: string;
  seat?: number;
  rater?: string;
  dimension?: string;
  scenario?: string;
  min?: number;
  max?: number;
  run?: string;
  source?: string;
}

/** The filter keys in the order a link writes them. */
export const FILTER_KEYS = ["benchmark", "rater", "dimension", "model", "partner", "seat", "scenario", "min", "max", "run", "source"] as const satisfies readonly (keyof EpisodeFilters)[];

/**
 * The viewer's address for the list of episodes behind `filters`, relative to
 * a page at the site's root: `./episodes?benchmark=sotopia&rater=humans&dimension=goal&model=BC`.
 * Keys left undefined are left out; an empty `partner` is kept (no partner).
 */
export function episodeListHref(filters: EpisodeFilters, page = "./episodes"): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) continue;
    if (value === "" && key !== "partner") continue;
    params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `${page}?${query}` : page;
}

/** The filters of an address (its search string), and what in it could not be read, as sentences. */
export function episodeFilters(search: string): {filters: EpisodeFilters; problems: string[]} {
  const params = new URLSearchParams(search);
  const filters: EpisodeFilters = {};
  const problems: string[] = [];
  for (const key of ["benchmark", "model", "rater", "dimension", "scenario", "run", "source"] as const) {
    const value = params.get(key);
    if (value !== null && value !== "") filters[key] = value;
  }
  if (params.has("partner")) filters.partner = params.get("partner")!;
  const seat = params.get("seat");
  if (seat !== null) {
    if (/^[1-9]\d*$/.test(seat)) filters.seat = Number(seat);
    else problems.push(`seat=${JSON.stringify(seat)} is not a seat number (1, 2, …); it is ignored.`);
  }
  for (const key of ["min", "max"] as const) {
    const raw = params.get(key);
    if (raw === null || raw.trim() === "") continue;
    const value = Number(raw);
    if (Number.isFinite(value)) filters[key] = value;
    else problems.push(`${key}=${JSON.stringify(raw)} is not a number; it is ignored.`);
  }
  return {filters, problems};
}

/** Whether `filters` asks for more than a benchmark: then the page lists the matching episodes instead of the first ones by id. */
export function hasListFilters(filters: EpisodeFilters): boolean {
  return FILTER_KEYS.some((k) => k !== "benchmark" && filters[k] !== undefined);
}

/** One agent in one episode scored by a rater on a dimension: a row of a filtered list. */
export interface ScoredInstance {
  episode_id: string;
  /** The rated agent's seat, from 1. */
  agent: number;
  model: string;
  partner: string;
  rater: string;
  rater_kind: string;
  dimension: string;
  /** The rater's score: its runs on the instance averaged; for `humans`, the annotators' mean. */
  value: number;
  scenario_id: string;
  codename: string;
  /** The scenario's first 120 characters. */
  scenario: string;
  runs: string[];
  sources: string[];
}

/** A cell of the score index: one (rater, dimension, model, partner) group of the SOTOPIA page, its n and its blocks. */
export interface ScoreIndexCell {
  rater: string;
  rater_kind: string;
  dimension: string;
  model: string;
  partner: string;
  n: number;
  first: number;
  blocks: number;
}

export interface ScoreIndex {
  pack: Pack;
  /** The benchmark whose scores it holds. */
  benchmark: string;
  cells: ScoreIndexCell[];
}

/** Opens the score index (data/viewer-scores.bin, src/data/viewer-scores.ts): its header, which lists the cells; blocks when asked. */
export async function openScoreIndex(url: string | URL | Promise<string | URL>, options?: Parameters<typeof openPack>[1]): Promise<ScoreIndex> {
  const pack = await openPack(String(await url), options);
  const names = pack.header.names as string[];
  const cells = (pack.header.cells as number[][]).map(([rater, kind, dimension, model, partner, n, first, blocks]) => ({
    rater: names[rater], rater_kind: names[kind], dimension: names[dimension], model: names[model], partner: names[partner], n, first, blocks,
  }));
  return {pack, benchmark: String(pack.header.benchmark), cells};
}

/** The episodes of a filtered list, and what it cost. */
export interface FilteredList {
  rows: ScoredInstance[];
  /** The filters applied, with the dimension filled in when the address left it out. */
  filters: EpisodeFilters;
  /** Why the list is empty when the address names something the store does not have, as a sentence; else null. */
  refusal: string | null;
  /** The index blocks fetched: those of the cells the filters select, no others. */
  blocks: number;
}

/** The dimension a list is scored on when the address names a rater and no dimension: overall, as the SOTOPIA page's first rows. */
export const DEFAULT_LIST_DIMENSION = "overall";

const namesOf = (values: Iterable<string>) => [...new Set(values)].sort().map((v) => JSON.stringify(v)).join(", ");

/**
 * The scored agents that meet `filters`, read from the index: the cells of
 * (rater, dimension, model, partner) the filters select are fetched whole
 * (every one of their instances; no cell beyond them), then seat, scenario,
 * score range, run and source are applied row by row. With no model and
 * partner filter, every cell of the rater and dimension is fetched.
 */
export async function loadFiltered(index: ScoreIndex, asked: EpisodeFilters): Promise<FilteredList> {
  const benchmark = asked.benchmark ?? index.benchmark;
  const filters: EpisodeFilters = {...asked, benchmark};
  const none = (refusal: string): FilteredList => ({rows: [], filters, refusal, blocks: 0});
  if (benchmark !== index.benchmark) {
    return none(`Lists by score exist for ${benchmarkLabel(index.benchmark)} only so far; open ${benchmarkLabel(benchmark)} episodes by id or from the list.`);
  }
  if (filters.rater === undefined) return none(`A list by score needs a rater: add rater=<name> (or rater=humans); raters: ${namesOf(index.cells.map((c) => c.rater))}.`);
  filters.dimension ??= DEFAULT_LIST_DIMENSION;
  const byRater = index.cells.filter((c) => c.rater === filters.rater);
  if (byRater.length === 0) return none(`No rater ${JSON.stringify(filters.rater)} scored ${benchmarkLabel(index.benchmark)} episodes; raters: ${namesOf(index.cells.map((c) => c.rater))}.`);
  const byDimension = byRater.filter((c) => c.dimension === filters.dimension);
  if (byDimension.length === 0) return none(`${filters.rater} scored no dimension ${JSON.stringify(filters.dimension)}; its dimensions: ${namesOf(byRater.map((c) => c.dimension))}.`);
  const cells = byDimension.filter((c) => (filters.model === undefined || c.model === filters.model) && (filters.partner === undefined || c.partner === filters.partner));
  if (filters.model !== undefined && !byDimension.some((c) => c.model === filters.model)) {
    return none(`${filters.rater} scored no agent of model ${JSON.stringify(filters.model)} on ${filters.dimension}; models: ${namesOf(byDimension.map((c) => c.model))}.`);
  }
  const blocks = cells.flatMap((c) => Array.from({length: c.blocks}, (_, i) => c.first + i));
  const fetched = await Promise.all(blocks.map((k) => index.pack.block(k)));
  const rows: ScoredInstance[] = [];
  let at = 0;
  for (const c of cells) {
    for (let i = 0; i < c.blocks; i++) {
      for (const r of fetched[at++].rows as unknown as Omit<ScoredInstance, "model" | "partner" | "rater" | "rater_kind" | "dimension">[]) {
        if (filters.seat !== undefined && r.agent !== filters.seat) continue;
        if (filters.scenario !== undefined && r.scenario_id !== filters.scenario && r.codename !== filters.scenario) continue;
        if (filters.min !== undefined && !(r.value >= filters.min)) continue;
        if (filters.max !== undefined && !(r.value <= filters.max)) continue;
        if (filters.run !== undefined && !r.runs.includes(filters.run)) continue;
        if (filters.source !== undefined && !r.sources.includes(filters.source)) continue;
        rows.push({...r, model: c.model, partner: c.partner, rater: c.rater, rater_kind: c.rater_kind, dimension: c.dimension});
      }
    }
  }
  rows.sort((a, b) => compareIds(a.episode_id, b.episode_id) || a.agent - b.agent);
  return {rows, filters, refusal: null, blocks: blocks.length};
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a filtered list shows, in a sentence: "28 episodes of BC with partner
 * mistral, rated by the mean of human annotators on Goal (GOAL)". It counts
 * scored agents, as the SOTOPIA page's n does; when an episode gives two of
 * them (a model playing itself), it says so: "30 agents of BC, in 28 episodes".
 */
export function filteredCountText(list: FilteredList, dimensionName: (key: string) => string): string {
  const {rows, filters} = list;
  const episodes = new Set(rows.map((r) => r.episode_id)).size;
  const who = [
    filters.model !== undefined ? `of ${filters.model}` : `of ${benchmarkLabel(filters.benchmark ?? "")}`,
    filters.seat !== undefined ? `in seat ${filters.seat}` : "",
    filters.partner !== undefined ? (filters.partner === "" ? "with no partner" : `with partner ${filters.partner}`) : "",
  ].filter(Boolean).join(" ");
  const what = rows.length === episodes
    ? `${fmt(episodes)} episode${episodes === 1 ? "" : "s"} ${who}`
    : `${fmt(rows.length)} agents ${who}, in ${fmt(episodes)} episode${episodes === 1 ? "" : "s"}`;
  const rater = filters.rater === "humans" || rows[0]?.rater_kind === "human_mean" ? "the mean of human annotators" : filters.rater;
  const range = filters.min !== undefined && filters.max !== undefined ? `, scores from ${filters.min} to ${filters.max}`
    : filters.min !== undefined ? `, scores ≥ ${filters.min}` : filters.max !== undefined ? `, scores ≤ ${filters.max}` : "";
  const rest = [
    filters.scenario !== undefined ? `scenario ${filters.scenario}` : "",
    filters.run !== undefined ? `run ${filters.run}` : "",
    filters.source !== undefined ? `from ${filters.source}` : "",
  ].filter(Boolean);
  return `${what}, rated by ${rater} on ${dimensionName(filters.dimension ?? DEFAULT_LIST_DIMENSION)}${range}${rest.length ? `; ${rest.join(", ")}` : ""}.`;
}
