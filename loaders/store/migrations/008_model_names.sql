-- Model names that a ratings file gives to seats an episode log names only by
-- a placeholder (the Sotopia-π logs call every fine-tuned model custom_model;
-- the annotation CSVs' `model` column names it). Kept apart from participants
-- so that re-importing the episode log can apply them again, and replacing
-- the ratings file can take them back. Rows belong to the ratings file
-- (source_id), not to the episode's file.

CREATE TABLE model_names (
  episode_id  VARCHAR NOT NULL,
  agent       INTEGER NOT NULL,         -- the seat the placeholder names
  placeholder VARCHAR NOT NULL,         -- the episode log's name for the seat
  model       VARCHAR NOT NULL,         -- the ratings file's name for it
  source_id   VARCHAR NOT NULL,         -- the ratings file
  line        INTEGER NOT NULL          -- first row of that file naming it
);
