import {describe, expect, it} from "vitest";
import {deserialize, serialize} from "node:v8";
import {BatchBuilder, type EpisodeBatch} from "../../loaders/import/batch.js";
import type {EpisodeRecord, MessageRecord} from "../../loaders/import/records.js";
import {StoreWriter} from "../../loaders/import/writer.js";
import {rows} from "../../loaders/store/db.js";
import {WORD_COUNT_SQL} from "../../loaders/store/spoken-words.js";
import {tempStore} from "../helpers/store.js";

describe("StoreWriter's benchmark tables", () => {
  it("stores an empty list as an empty list, next to a full one and a missing one", async () => {
    const store = await tempStore();
    const writer = await StoreWriter.open(store.conn);
    writer.episode({
      episode_id: "t1", benchmark: "stss-task", scenario_id: null, scenario: null, codename: null, task_type: null,
      chain_id: null, chain_index: null, split: null, tag: null, synthetic: true, settings: null,
      participants: [], messages: [], ratings: [],
      tables: {stss_tasks: [
        {task_id: "empty", source_type: "Party", category: "public_activity", performer: "p", targets: [], target_num: 0, characters: ["p"]},
      ]},
    } as never, "src");
    writer.episode({
      episode_id: "t2", benchmark: "stss-task", scenario_id: null, scenario: null, codename: null, task_type: null,
      chain_id: null, chain_index: null, split: null, tag: null, synthetic: true, settings: null,
      participants: [], messages: [], ratings: [],
      tables: {stss_tasks: [
        {task_id: "full", source_type: "Party", category: "public_activity", performer: "p", targets: ["a", "b"], target_num: 2, characters: null},
      ]},
    } as never, "src");
    writer.flush();
    await writer.flushTables();
    writer.close();
    const got = await rows<{task_id: string; targets: string[] | null; characters: string[] | null}>(
      store.conn, "SELECT task_id, targets, characters FROM stss_tasks ORDER BY task_id");
    expect(got).toEqual([
      {task_id: "empty", targets: [], characters: ["p"]},
      {task_id: "full", targets: ["a", "b"], characters: null},
    ]);
  });
});

describe("StoreWriter's spoken_words rows", () => {
  const said = (agent: number | null, content: string, action_type = "speak"): MessageRecord => ({turn: 0, agent, action_type, content});
  const episode = (id: string, messages: MessageRecord[]): EpisodeRecord => ({
    episode_id: id, benchmark: "sotopia", scenario_id: null, scenario: null, codename: null, task_type: null,
    chain_id: null, chain_index: null, split: null, tag: null, synthetic: true, settings: null,
    participants: [{agent: 1, agent_ref: null, model: "m-1", character: "Ann", goal: null, background: null}],
    messages, ratings: [],
  });
  const episodes = [
    episode("e1", [said(1, "\tHi there"), said(null, "The room is quiet."), said(1, "one\u00a0word"), said(1, "nods", "non-verbal")]),
    episode("e2", [said(1, "\u3000two  words\u2003"), said(1, " \u00a0 "), said(1, "a\u000bb c"), said(1, "x\r\ny\fz")]),
  ];
  // Hand-counted: a tab that trim leaves adds an empty word; no-break and ideographic spaces are trimmed at the ends and
  // join words inside; \v joins, \r\n and \f split; blank, unseated and non-spoken messages get no row.
  const expected = [
    {episode_id: "e1", seq: 0, agent: 1, words: 3},
    {episode_id: "e1", seq: 2, agent: 1, words: 1},
    {episode_id: "e2", seq: 0, agent: 1, words: 2},
    {episode_id: "e2", seq: 2, agent: 1, words: 2},
    {episode_id: "e2", seq: 3, agent: 1, words: 3},
  ];

  async function written(write: (w: StoreWriter) => void) {
    const store = await tempStore();
    const writer = await StoreWriter.open(store.conn);
    write(writer);
    writer.flush();
    writer.close();
    return {
      stored: await rows(store.conn, "SELECT episode_id, seq, agent, words FROM spoken_words ORDER BY ALL"),
      bySql: await rows(store.conn, `SELECT episode_id, seq, agent, ${WORD_COUNT_SQL} AS words FROM messages
        WHERE action_type = 'speak' AND agent IS NOT NULL AND trim(content) <> '' ORDER BY ALL`),
    };
  }

  it("counts an episode's spoken words as it appends its messages (importers read on the main thread)", async () => {
    const {stored, bySql} = await written((w) => episodes.forEach((e) => w.episode(e, "src")));
    expect(stored).toEqual(expected);
    expect(stored).toEqual(bySql);
  });

  it("appends the counts a batch carries from the parse worker, through the worker's message copy", async () => {
    const builder = new BatchBuilder();
    episodes.forEach((e, i) => builder.add(e, i + 1));
    // What postMessage does to a batch: the structured clone of its columns.
    const batch = deserialize(serialize(builder.take(0))) as EpisodeBatch;
    expect(Array.from(batch.messages.words)).toEqual([3, -2147483648, 1, -2147483648, 2, -2147483648, 2, 3]);
    const {stored, bySql} = await written((w) => w.batch(batch, "src", null));
    expect(stored).toEqual(expected);
    expect(stored).toEqual(bySql);
  });
});
