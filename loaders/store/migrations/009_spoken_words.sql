-- Words of every spoken message, counted once when its episode is imported
-- (loaders/store/spoken-words.ts) instead of by every build: splitting each
-- message's text took the words-per-turn loader minutes at a million episodes.
-- One row per message with action_type 'speak', a seat and text that is not
-- blank once trimmed; `agent` is repeated from messages so the loader that
-- sums words per seat never reads messages. Rows go with their episode: an
-- import that replaces a file deletes them as it deletes its messages.

CREATE TABLE spoken_words (
  episode_id  VARCHAR NOT NULL,
  seq         INTEGER NOT NULL,         -- the message's seq
  agent       INTEGER NOT NULL,         -- the message's seat
  words       INTEGER NOT NULL          -- whitespace-separated words of the trimmed text
);

-- A store made before this migration gets the counts of the messages it holds.
INSERT INTO spoken_words
SELECT episode_id, seq, agent, len(regexp_split_to_array(trim(content), '\s+'))
FROM messages
WHERE action_type = 'speak' AND agent IS NOT NULL AND trim(content) <> '';
