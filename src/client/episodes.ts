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
