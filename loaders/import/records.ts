// Canonical records: what every importer produces after validation, and what the writer stores.

import type {EpisodeBatch} from "./batch.js";
import type {SeatModel} from "./model-names.js";

export type RaterKind = "llm" | "human" | "rule";

export interface ParticipantRecord {
  agent: number; // 1-based seat
  agent_ref: string | null;
  model: string;
  character: string | null;
  goal: string | null;
  background: string | null;
}

export interface MessageRecord {
  turn: number;
  agent: number | null; // null: the environment
  action_type: string;
  content: string;
}

export interface RatingRecord {
  episode_id: string;
  agent: number;
  dimension: string;
  rater: string;
  rater_kind: RaterKind;
  value: number;
  rationale: string | null;
  run_id: string;
}

export interface EpisodeRecord {
  episode_id: string;
  benchmark: string;
  scenario_id: string | null;
  scenario: string | null;
  codename: string | null;
  task_type: string | null;
  chain_id: string | null;
  chain_index: number | null;
  split: string | null;
  tag: string | null;
  synthetic: boolean;
  settings: Record<string, unknown> | null;
  participants: ParticipantRecord[];
  messages: MessageRecord[];
  ratings: RatingRecord[];
  /** Rows for a benchmark's own tables (created by its migration), keyed by table; each row names its columns. */
  tables?: Record<string, Record<string, unknown>[]>;
}

/** What a reader yields for each record of a file. */
export type ReadItem =
  | {kind: "episode"; line: number; episode: EpisodeRecord}
  /** seatModel: the row names the model of a seat its episode log calls by a placeholder (loaders/import/model-names.ts). */
  | {kind: "ratings"; line: number; ratings: RatingRecord[]; seatModel?: SeatModel}
  /** Something the import summary must say about the file (how a column was read). */
  | {kind: "note"; note: string}
  /** Many episodes at once, packed by column (read by a worker thread); lines in the batch are absolute. */
  | {kind: "batch"; batch: EpisodeBatch}
  | {kind: "reject"; line: number; field: string | null; problem: string; raw: string};

export function emptyEpisode(episode_id: string, benchmark: string): EpisodeRecord {
  return {
    episode_id, benchmark, scenario_id: null, scenario: null, codename: null, task_type: null,
    chain_id: null, chain_index: null, split: null, tag: null, synthetic: false, settings: null,
    participants: [], messages: [], ratings: [],
  };
}
