// A copy, at a new path, of a stored file whose reader changed since: the
// store holds content once, so the copy is read by today's reader and that
// reading replaces the stale one, instead of the copy passing as "unchanged".

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {SOTOPIA_READER_VERSION} from "../../loaders/import/sotopia.js";
import {rows} from "../../loaders/store/db.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, snapshot, tempStore, writeFile} from "../helpers/store.js";

describe("a copy of a file its reader has changed since", () => {
  it("is read by today's reader, replaces the stale reading, keeps other files' scores, and is unchanged after", async () => {
    const store = await tempStore();
    const text = jsonl([dumpRecord("ep-1"), dumpRecord("ep-2")]);
    const original = writeFile(store.dir, "log.jsonl", text);
    await importFiles(store, "sotopia", [original]);
    const scores = writeFile(store.dir, "scores.csv", "episode_id,agent,dimension,rater,value\nep-1,1,goal,ann-1,7\n");
    await importFiles(store, "sotopia-ratings", [scores]);
    // What today's reader makes of these bytes, to compare with after the copy is read.
    const fresh = await rows(store.conn, "SELECT * FROM messages ORDER BY ALL");
    // As if an older reader had read the original: no reader version recorded (version 1), and a message it read differently.
    await store.conn.run("DELETE FROM source_readers WHERE source_id IN (SELECT source_id FROM sources WHERE format = 'sotopia')");
    await store.conn.run("UPDATE messages SET content = 'stale reading' WHERE episode_id = 'ep-1' AND seq = 0");
    expect(SOTOPIA_READER_VERSION).toBeGreaterThan(1);

    const copy = writeFile(store.dir, "copy.jsonl", text);
    const summary = await importFiles(store, "sotopia", [copy]);
    expect(summary.files.map((f) => [f.path, f.status, f.sameAs, f.episodes, f.notes])).toEqual([[copy, "imported", undefined, 2, [
      `re-read: the sotopia reader changed since ${original}, which holds the same bytes, was imported (version 1 → ${SOTOPIA_READER_VERSION}); this file's reading replaces its rows`,
    ]]]);
    expect(await rows(store.conn, "SELECT * FROM messages ORDER BY ALL")).toEqual(fresh);
    expect(await rows(store.conn, `SELECT s.path, r.reader_version, count(e.episode_id)::INT AS episodes
      FROM sources s LEFT JOIN source_readers r USING (source_id) LEFT JOIN episodes e USING (source_id) WHERE s.format = 'sotopia' GROUP BY ALL`))
      .toEqual([{path: copy, reader_version: SOTOPIA_READER_VERSION, episodes: 2}]);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'ann-1' AND episode_id = 'ep-1'")).toBe(1);

    // Both paths now name content read by today's reader: nothing to do for either.
    const before = await snapshot(store);
    const again = await importFiles(store, "sotopia", [original, copy]);
    expect(again.files.map((f) => [f.path, f.status, f.sameAs ?? null])).toEqual([[copy, "unchanged", null], [original, "unchanged", copy]]);
    expect(await snapshot(store)).toEqual(before);
  });

  it("stays unchanged when its stored copy was read by today's reader", async () => {
    const store = await tempStore();
    const text = jsonl([dumpRecord("ep-1")]);
    const original = writeFile(store.dir, "log.jsonl", text);
    await importFiles(store, "sotopia", [original]);
    const before = await snapshot(store);
    const summary = await importFiles(store, "sotopia", [writeFile(store.dir, "copy.jsonl", text)]);
    expect(summary.files.map((f) => [f.status, f.sameAs, f.notes])).toEqual([["unchanged", original, []]]);
    expect(await snapshot(store)).toEqual(before);
  });
});
