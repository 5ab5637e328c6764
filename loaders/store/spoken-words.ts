// Counts the words of the spoken messages an import wrote, into spoken_words
// (migration 009), so that no build has to split every message of the store.

import {listValue, type DuckDBConnection} from "@duckdb/node-api";

/**
 * What a word is, for the words-per-turn chart (SOTOPIA §7): a run of
 * non-whitespace in the message's text trimmed of spaces. Migration 009 holds
 * the same expression for the messages of stores made before it.
 */
export const WORD_COUNT_SQL = "len(regexp_split_to_array(trim(content), '\\s+'))";

/**
 * Adds the spoken_words rows of every episode the sources `sourceIds` hold.
 * Runs inside the import's transaction after its rows are appended, and reads
 * only those sources' messages, so its cost follows the import, not the store.
 */
export async function countSpokenWords(conn: DuckDBConnection, sourceIds: readonly string[]): Promise<void> {
  if (!sourceIds.length) return;
  await conn.run(
    `INSERT INTO spoken_words
     SELECT m.episode_id, m.seq, m.agent, ${WORD_COUNT_SQL}
     FROM messages m
     SEMI JOIN (SELECT episode_id FROM episodes WHERE list_contains($1, source_id)) mine USING (episode_id)
     WHERE m.action_type = 'speak' AND m.agent IS NOT NULL AND trim(m.content) <> ''`,
    [listValue([...sourceIds])],
  );
}
