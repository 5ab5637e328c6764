-- Core store: one row per imported file, evaluation unit, participant, turn and score.
-- Seats (`agent`) are 1-based positions in the episode; names live in participants.

CREATE TABLE sources (
  source_id   VARCHAR PRIMARY KEY,      -- first 16 hex digits of the sha256 of the path
  path        VARCHAR NOT NULL,         -- absolute path at import time (identity of a source)
  format      VARCHAR NOT NULL,
  sha256      VARCHAR NOT NULL,
  bytes       BIGINT NOT NULL,
  imported_at TIMESTAMP NOT NULL,
  rows        INTEGER NOT NULL,         -- records imported from the file
  rejected    INTEGER NOT NULL DEFAULT 0,
  notes       VARCHAR
);

CREATE TABLE episodes (
  episode_id  VARCHAR PRIMARY KEY,
  benchmark   VARCHAR NOT NULL,
  source_id   VARCHAR NOT NULL,
  scenario_id VARCHAR,
  scenario    VARCHAR,
  codename    VARCHAR,
  task_type   VARCHAR,
  chain_id    VARCHAR,
  chain_index INTEGER,
  split       VARCHAR,
  tag         VARCHAR,
  synthetic   BOOLEAN NOT NULL DEFAULT false,
  settings    JSON                      -- benchmark-specific facts that are not scores
);

CREATE TABLE participants (
  episode_id  VARCHAR NOT NULL,
  agent       INTEGER NOT NULL,
  agent_ref   VARCHAR,                  -- profile id in the benchmark's own data
  model       VARCHAR NOT NULL,         -- model name, or 'human'
  character   VARCHAR,
  goal        VARCHAR,
  background  VARCHAR
);

CREATE TABLE messages (
  episode_id  VARCHAR NOT NULL,
  seq         INTEGER NOT NULL,         -- order within the episode, 0-based
  turn        INTEGER NOT NULL,
  agent       INTEGER,                  -- NULL for the environment
  action_type VARCHAR NOT NULL,         -- speak, non-verbal, action, none, leave, environment
  content     VARCHAR NOT NULL
);

-- Filled from the metric library's definitions (src/lib/*.ts) when the store opens.
CREATE TABLE dimensions (
  dimension   VARCHAR NOT NULL,
  benchmark   VARCHAR NOT NULL,
  abbrev      VARCHAR NOT NULL,
  name        VARCHAR NOT NULL,
  lo          DOUBLE NOT NULL,
  hi          DOUBLE NOT NULL,
  kind        VARCHAR NOT NULL,         -- likert, binary, outcome
  ord         INTEGER NOT NULL,
  PRIMARY KEY (benchmark, dimension)
);

CREATE TABLE ratings (
  episode_id  VARCHAR NOT NULL,
  agent       INTEGER NOT NULL,
  dimension   VARCHAR NOT NULL,
  rater       VARCHAR NOT NULL,
  rater_kind  VARCHAR NOT NULL,         -- llm, human, rule
  value       DOUBLE NOT NULL,
  rationale   VARCHAR,
  run_id      VARCHAR NOT NULL DEFAULT '',
  source_id   VARCHAR NOT NULL          -- the file the score came from (may differ from the episode's)
);

CREATE TABLE llm_calls (
  hash        VARCHAR PRIMARY KEY,
  model       VARCHAR NOT NULL,
  request     JSON NOT NULL,
  response    JSON,
  prompt_tokens     INTEGER,
  completion_tokens INTEGER,
  cost        DOUBLE,
  created_at  TIMESTAMP NOT NULL
);
