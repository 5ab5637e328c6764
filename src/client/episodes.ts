// Data for the episode viewer: the episode list to search, and one episode's
// participants, transcript and ratings, read from DuckDB-wasm with bound
// parameters (episode ids come from logs).

import type {Database} from "./duckdb.js";

export interface EpisodeSummary {
  episode_id: string;
  scenario: string;
  codename: string;
  tag: string;
  synthetic: boolean;
  models: string;
  characters: string;
  turns: number;
  messages: number;
}

export interface Participant {
  agent: number;
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
}

export interface EpisodeDetail {
  participants: Participant[];
  messages: Message[];
  ratings: Rating[];
}

/** The shipped episodes, and how many SOTOPIA episodes the store holds in all. */
export async function loadEpisodeList(db: Database): Promise<{episodes: EpisodeSummary[]; total: number}> {
  const episodes = await db.query<EpisodeSummary>("SELECT * FROM episodes ORDER BY episode_id");
  const [row] = await db.query<{episodes: number}>("SELECT episodes FROM overview WHERE section = 'benchmark' AND name = 'sotopia'");
  return {episodes, total: row?.episodes ?? episodes.length};
}

/** "Showing N of M SOTOPIA episodes …" when the site ships fewer episodes than the store holds. */
export function episodeCountText(shown: number, total: number): string {
  const fmt = (n: number) => n.toLocaleString("en-US");
  return shown < total
    ? `Showing ${fmt(shown)} of ${fmt(total)} SOTOPIA episodes: the first by id, as the site ships at most this many transcripts.`
    : `${fmt(total)} SOTOPIA episodes.`;
}

/** Everything the viewer shows about one episode. */
export async function loadEpisode(db: Database, episodeId: string): Promise<EpisodeDetail> {
  // One after another: the queries share one connection.
  const participants = await db.query<Participant>(
    "SELECT agent, model, character, goal, background FROM participants WHERE episode_id = ? ORDER BY agent",
    [episodeId],
  );
  const messages = await db.query<Message>(
    "SELECT seq, turn, agent, action_type, content FROM messages WHERE episode_id = ? ORDER BY seq",
    [episodeId],
  );
  const ratings = await db.query<Rating>(
    "SELECT agent, dimension, rater, rater_kind, value, rationale, run_id FROM ratings WHERE episode_id = ?",
    [episodeId],
  );
  return {participants, messages, ratings};
}

/** The episode named by `?episode=` in the page address, when it is in the list. */
export function episodeFromAddress(episodes: readonly EpisodeSummary[], search: string): EpisodeSummary | undefined {
  const id = new URLSearchParams(search).get("episode");
  return id === null ? undefined : episodes.find((e) => e.episode_id === id);
}
