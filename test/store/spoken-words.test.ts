// Words of spoken messages are counted once, at import (migration 009,
// loaders/store/spoken-words.ts), and the words-per-turn loader sums them:
// the same numbers as splitting every message's text at build time.

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {openStore, rows} from "../../loaders/store/db.js";
import {spokenWords, WORD_COUNT_SQL} from "../../loaders/store/spoken-words.js";
import {WORDS_PER_TURN_SQL} from "../../loaders/queries/sotopia.js";
import {jsonl} from "../helpers/episodes.js";
import {oldStore} from "../helpers/old-store.js";
import {tempSamplesStore, tempStore, writeFile} from "../helpers/store.js";

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

/** Migration 009's rows for the messages a store holds: what the SQL definition gives them. */
const SPOKEN_BY_SQL = `SELECT episode_id, seq, agent, ${WORD_COUNT_SQL} AS words FROM messages
  WHERE action_type = 'speak' AND agent IS NOT NULL AND trim(content) <> '' ORDER BY ALL`;

/** WORD_COUNT_SQL under migration 009's filter for each (action type, seat, text), in DuckDB; null where 009 writes no row. */
async function countedBySql(texts: readonly {action: string; agent: number | null; content: string}[]): Promise<(number | null)[]> {
  const store = await tempStore();
  await store.conn.run("CREATE TEMP TABLE t (i INTEGER, action_type VARCHAR, agent INTEGER, content VARCHAR)");
  const a = await store.conn.createAppender("t", "main", "temp");
  texts.forEach((t, i) => {
    a.appendInteger(i);
    a.appendVarchar(t.action);
    if (t.agent === null) a.appendNull();
    else a.appendInteger(t.agent);
    a.appendVarchar(t.content);
    a.endRow();
  });
  a.closeSync();
  const got = await rows<{words: number | null}>(store.conn,
    `SELECT CASE WHEN action_type = 'speak' AND agent IS NOT NULL AND trim(content) <> '' THEN ${WORD_COUNT_SQL} END::INTEGER AS words FROM t ORDER BY i`);
  return got.map((r) => r.words);
}

describe("spokenWords, the count the import runs in JS", () => {
  it("equals WORD_COUNT_SQL under migration 009's filter on whitespace of every kind", async () => {
    // Hand-counted. DuckDB's trim() strips Unicode space separators (Zs) only; RE2's \s is [\t\n\f\r ];
    // a split keeps empty pieces at either end, so a tab that trim leaves at an end adds a word.
    const cases: [action: string, agent: number | null, content: string, words: number | null][] = [
      ["speak", 1, "", null],
      ["speak", 1, "   ", null],
      ["speak", 1, "\u00a0\u3000 \u2003", null], // every character a space separator: blank once trimmed
      ["speak", 1, "hello", 1],
      ["speak", 1, "  Shall we   split? ", 3],
      ["speak", 1, "a\tb\nc\rd\fe", 5],
      ["speak", 1, "a\r\nb", 2], // one gap, however many whitespace characters
      ["speak", 1, "a\vb c", 2], // vertical tab is not \s in RE2
      ["speak", 1, "a\u00a0b", 1], // no-break space: trimmed at the ends, not a gap inside
      ["speak", 1, "a\u2003b\u3000c", 1],
      ["speak", 1, "\u3000a b\u00a0", 2],
      ["speak", 1, "a \u00a0 b", 3], // runs of spaces only (counted by indexOf): the no-break space between them is a word
      ["speak", 1, "a  \u3000  b c", 4],
      ["speak", 1, "\u00a0a   b\u2003 \u00a0", 2],
      ["speak", 1, "\t", 2], // trim leaves a tab: split gives two empty pieces
      ["speak", 1, "\n\n", 2],
      ["speak", 1, "\thi", 2],
      ["speak", 1, "hi\n", 2],
      ["speak", 1, " \t hi \t ", 3],
      ["speak", 1, "\u00a0\thi", 2],
      ["speak", 1, "\u200b", 1], // zero-width space is neither trimmed nor a gap
      ["speak", 1, "a\u200bb", 1],
      ["speak", 1, "\u2028", 1],
      ["speak", 1, "\ufeffhi there", 2],
      ["speak", 1, "\u0085a b", 2],
      ["speak", 1, "\u{1F600} \u{1F44D}\u{1F3FD} x", 3],
      ["speak", 1, "e\u0301 n\u0303o", 2],
      ["speak", 1, " \u0301a", 1], // trim takes the space even though a combining mark follows it
      ["non-verbal", 1, "nods twice", null],
      ["speak", null, "The garden is quiet.", null],
    ];
    const texts = cases.map(([action, agent, content]) => ({action, agent, content}));
    const expected = cases.map((c) => c[3]);
    expect(texts.map((t) => spokenWords(t.action, t.agent, t.content))).toEqual(expected);
    expect(await countedBySql(texts)).toEqual(expected);
  });

  it("equals WORD_COUNT_SQL with every code point alone, between words and around a word", async () => {
    // Where one character changes the count from a letter's 1 (a space, a separator): the same code points, the same counts.
    const store = await tempStore();
    const sql = await rows<{cp: number; alone: number | null; between: number | null; around: number | null}>(store.conn,
      `WITH c AS (SELECT cp::INTEGER AS cp, chr(cp::INTEGER) AS ch FROM range(1, 1114112) t(cp) WHERE cp NOT BETWEEN 55296 AND 57343),
       t AS (SELECT cp, k, content FROM c, LATERAL (VALUES (0, ch), (1, 'a' || ch || 'b'), (2, ch || 'a' || ch)) v(k, content)),
       w AS (SELECT cp, k, CASE WHEN trim(content) <> '' THEN ${WORD_COUNT_SQL} END::INTEGER AS words FROM t)
       SELECT cp, max(words) FILTER (k = 0) AS alone, max(words) FILTER (k = 1) AS between, max(words) FILTER (k = 2) AS around
       FROM w GROUP BY cp HAVING bool_or(words IS DISTINCT FROM 1) ORDER BY cp`);
    const js: typeof sql = [];
    for (let cp = 1; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const [alone, between, around] = [ch, `a${ch}b`, `${ch}a${ch}`].map((t) => spokenWords("speak", 1, t));
      if (alone !== 1 || between !== 1 || around !== 1) js.push({cp, alone, between, around});
    }
    // The 17 space separators (blank alone, trimmed around a word) and the four other \s characters.
    expect(js.length).toBe(21);
    expect(js.find((r) => r.cp === 9)).toEqual({cp: 9, alone: 2, between: 2, around: 3});
    expect(js.find((r) => r.cp === 0x3000)).toEqual({cp: 0x3000, alone: null, between: 1, around: 1});
    expect(sql).toEqual(js);
  });
});

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
    const store = await tempSamplesStore();
    const summed = await rows<{model: string; turns: number; words: number}>(store.conn, WORDS_PER_TURN_SQL);
    expect(summed).toEqual(await rows(store.conn, SPLIT_AT_BUILD_SQL));
    // Every SOTOPIA sample's spoken message is counted: the samples hold spoken SOTOPIA turns of several models.
    expect(summed.length).toBeGreaterThan(1);
    const [{n}] = await rows<{n: number}>(store.conn,
      "SELECT count(*)::INTEGER AS n FROM spoken_words w JOIN episodes e USING (episode_id) WHERE e.benchmark = 'sotopia'");
    expect(n).toBe(summed.reduce((s, r) => s + r.turns, 0));
    // Row for row what WORD_COUNT_SQL gives the samples' messages: the rows migration 009 and the SQL pass before the JS count wrote.
    const stored = await rows(store.conn, SPOKEN);
    expect(stored.length).toBeGreaterThan(1000);
    expect(stored).toEqual(await rows(store.conn, SPOKEN_BY_SQL));
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
