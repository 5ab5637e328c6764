-- HSII facts that are not scores: one row per (model, case, setting) episode,
-- the pairwise judgments of stages 3 and 4, and COT rounds.

CREATE TABLE hsii_cases (
  episode_id       VARCHAR PRIMARY KEY,
  case_id          VARCHAR NOT NULL,
  cluster          VARCHAR,
  topic            VARCHAR,
  cot              BOOLEAN NOT NULL,
  response         VARCHAR,              -- the raw model response
  gold_targets     VARCHAR[] NOT NULL,   -- every accepted name of the gold next target
  gold_utterance   VARCHAR,
  logged_parsed    BOOLEAN,              -- what the log says, when it says it
  logged_target    VARCHAR,
  parsed           BOOLEAN NOT NULL,     -- stage 1 as used: the log's value, else the parser's
  target           VARCHAR,
  utterance        VARCHAR,
  parse_route      VARCHAR,              -- json, lines, at; or 'log' when the log's values were used
  parser_parsed    BOOLEAN NOT NULL,     -- the parser's own verdict, kept to report disagreements
  parser_target    VARCHAR,
  parse_problem    VARCHAR,
  target_correct   BOOLEAN NOT NULL      -- stage 2 as used
);

CREATE TABLE hsii_judgments (
  episode_id  VARCHAR NOT NULL,
  stage       INTEGER NOT NULL,          -- 3: first utterance after the switch; 4: the longer run
  rater       VARCHAR NOT NULL,
  rater_kind  VARCHAR NOT NULL,
  position    VARCHAR NOT NULL,          -- forward (tested response first) or swapped
  verdict     VARCHAR NOT NULL           -- win, tie, loss: from the tested model's side
);

CREATE TABLE hsii_cot_rounds (
  episode_id  VARCHAR NOT NULL,
  variant     VARCHAR NOT NULL,
  round       INTEGER NOT NULL,          -- 0: the answer without COT
  correct     BOOLEAN NOT NULL
);
