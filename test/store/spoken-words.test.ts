// Words of spoken messages are counted once, at import (migration 009,
// loaders/store/spoken-words.ts), and the words-per-turn loader sums them:
// the same numbers as splitting every message's text at build time.

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {importSamples} from "../../loaders/samples.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {WORDS_PER_TURN_SQL} from "../../loaders/queries/sotopia.js";
import {jsonl} from "../helpers/episodes.js";
import {oldStore} from "../helpers/old-store.js";
import {tempStore, writeFile} from "../helpers/store.js";

/** The words-per-turn query before migration 009: a regexp split of every spoken message at build time. */
const SPLIT_AT_BUILD_SQL = `
SELECT p.model, count(*)::INTEGER AS turns,
       sum(len(regexp_split_to_array(trim(m.content), '\\s+')))::BIGINT AS words
FROM messages m
JOIN participants p ON p.episode_id = m.episode_id AND p.agent = m.agent
JOIN episodes e ON e.episode_id = m.episode_id
WHERE e.benchmark = 'sotopia' AND m.action_type = 'speak' AND trim(m.content) <> ''
GROUP BY p.model
ORDER BY p.model`;

const episode = (id: string, messages: unknown[]) => ({
  episode_id: id,
  benchmark: "sotopia",
  scenario: "A negotiation",
  participants: [{model: "m-1", character: "Ann"}, {model: "m-2", character: "Ben"}],
  messages,
  ratings: [{agent: 1, dimension: "goal", rater: "judge", rater_kind: "llm", value: 5}],
});

const SPOKEN = "SELECT episode_id, seq, agent, words FROM spoken_words ORDER BY ALL";

describe("spoken_words at import", () => {
  it("counts each spoken message's words once, skipping blank text, other actions and the environment", async () => {
    const store = await tempStore();
    const file = writeFile(store.dir, "w.jsonl", jsonl([
      episode("w-1", [
        {agent: 1, content: "  Shall we   split the beds? "}, // 5 words: runs of spaces are one gap
        {agent: 2, content: "   "}, // blank once trimmed: not a turn
        {agent: 2, action_type: "non-verbal", content: "nods twice"}, // not spoken
        {agent: null, action_type: "environment", content: "The garden is quiet."}, // no seat
        {agent: 2, content: "Half\neach,\tfine."}, // newlines and tabs separate words too: 3
      ]),
      episode("w-2", [{agent: 1, content: "Deal."}]),
    ]));
    await importFiles(store, "canonical", [file]);
    expect(await rows(store.conn, SPOKEN)).toEqual([
      {episode_id: "w-1", seq: 0, agent: 1, words: 5},
      {episode_id: "w-1", seq: 4, agent: 2, words: 3},
      {episode_id: "w-2", seq: 0, agent: 1, words: 1},
    ]);
    expect(await rows(store.conn, WORDS_PER_TURN_SQL)).toEqual([
      {model: "m-1", turns: 2, words: 6},
      {model: "m-2", turns: 1, words: 3},
    ]);
  });

  it("replaces a changed file's counts and leaves other files' counts alone", async () => {
    const store = await tempStore();
    const other = writeFile(store.dir, "other.jsonl", jsonl([episode("o-1", [{agent: 2, content: "one two"}])]));
    const file = writeFile(store.dir, "w.jsonl", jsonl([episode("w-1", [{agent: 1, content: "a b c"}])]));
    await importFiles(store, "canonical", [other, file]);
    writeFile(store.dir, "w.jsonl", jsonl([episode("w-1", [{agent: 1, content: "a b c d"}, {agent: 2, content: "e"}])]));
    await importFiles(store, "canonical", [file]);
    expect(await rows(store.conn, SPOKEN)).toEqual([
      {episode_id: "o-1", seq: 0, agent: 2, words: 2},
      {episode_id: "w-1", seq: 0, agent: 1, words: 4},
      {episode_id: "w-1", seq: 1, agent: 2, words: 1},
    ]);
  });

  it("gives the words-per-turn loader the same rows as splitting every message at build time, on the samples", async () => {
    const store = await tempStore();
    await importSamples(store);
    const summed = await rows<{model: string; turns: number; words: number}>(store.conn, WORDS_PER_TURN_SQL);
    expect(summed).toEqual(await rows(store.conn, SPLIT_AT_BUILD_SQL));
    // Every SOTOPIA sample's spoken message is counted: the samples hold spoken SOTOPIA turns of several models.
    expect(summed.length).toBeGreaterThan(1);
    const [{n}] = await rows<{n: number}>(store.conn,
      "SELECT count(*)::INTEGER AS n FROM spoken_words w JOIN episodes e USING (episode_id) WHERE e.benchmark = 'sotopia'");
    expect(n).toBe(summed.reduce((s, r) => s + r.turns, 0));
  });
});

describe("migration 009 on a store made before it", () => {
  it("counts the words of the messages the store already holds", async () => {
    const store = await openStore(await oldStore());
    try {
      expect(store.migrated).toContain("009_spoken_words.sql");
      // The fixture's three spoken messages: "Shall we split the beds?", "Half each sounds fair.", "Would you take 80?".
      expect(await rows(store.conn, SPOKEN)).toEqual([
        {episode_id: "ep-old-1", seq: 0, agent: 1, words: 5},
        {episode_id: "ep-old-1", seq: 1, agent: 2, words: 4},
        {episode_id: "ep-old-2", seq: 0, agent: 1, words: 4},
      ]);
      expect(await rows(store.conn, WORDS_PER_TURN_SQL)).toEqual(await rows(store.conn, SPLIT_AT_BUILD_SQL));
    } finally {
      store.close();
    }
  });
});
