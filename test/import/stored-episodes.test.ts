// An import reads from the store what its input names, not the whole store
// (issue 18, incremental imports): counted as the rows the store hands to
// Node, which grow with the store when an import loads every key.

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {StoredEpisodes} from "../../loaders/import/stored-episodes.js";
import type {Store} from "../../loaders/store/db.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, expectImportFailure, tempStore, writeFile} from "../helpers/store.js";

const STORED = 300;

async function storeOf(n: number): Promise<Store & {dir: string}> {
  const store = await tempStore();
  const records = Array.from({length: n}, (_, i) => dumpRecord(`stored-${i}`));
  await importFiles(store, "sotopia", [writeFile(store.dir, "stored.jsonl", jsonl(records))]);
  return store;
}

/** The most rows any one query handed to Node while `fn` ran. */
async function largestRead(store: Store, fn: () => Promise<unknown>): Promise<number> {
  const conn = store.conn;
  const original = conn.runAndReadAll.bind(conn);
  let largest = 0;
  conn.runAndReadAll = async (...args: Parameters<typeof original>) => {
    const reader = await original(...args);
    largest = Math.max(largest, reader.currentRowCount);
    return reader;
  };
  try {
    await fn();
  } finally {
    conn.runAndReadAll = original;
  }
  return largest;
}

describe("an import reads the store's episodes it names, not all of them", () => {
  it("scores for 2 of 300 stored episodes read 2 episodes' rows, and land", async () => {
    const store = await storeOf(STORED);
    const csv = "episode_id,agent,dimension,rater,value\nstored-7,1,goal,ann,6\nstored-7,2,goal,ann,5\nstored-250,Bo Chen,goal,ann,4\n";
    const read = await largestRead(store, () => importFiles(store, "sotopia-ratings", [writeFile(store.dir, "r.csv", csv)]));
    expect(read).toBe(2);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'ann'")).toBe(3);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'ann' AND episode_id = 'stored-250' AND agent = 2")).toBe(1);
  });

  it("a score for an episode not in a store of 300 is still refused, naming file, line and field", async () => {
    const store = await storeOf(STORED);
    const e = await expectImportFailure(store, "sotopia-ratings", [writeFile(store.dir, "r.csv", "episode_id,agent,dimension,rater,value\nstored-1,1,goal,ann,6\nmissing,1,goal,ann,6\n")]);
    expect([e.line, e.field, e.problem]).toEqual([3, "episode_id", 'episode "missing" is not in the store (import its episode log first, or in the same command)']);
  });

  it("3 new episodes into a store of 300 read 3 ids at most, and land", async () => {
    const store = await storeOf(STORED);
    const file = writeFile(store.dir, "new.jsonl", jsonl([dumpRecord("new-1"), dumpRecord("new-2"), dumpRecord("new-3")]));
    const read = await largestRead(store, () => importFiles(store, "sotopia", [file]));
    expect(read).toBeLessThanOrEqual(3);
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(STORED + 3);
  });

  it("an episode already stored is refused at its line, whether the import looks ids up (3 new) or reads them all (40 new)", async () => {
    const store = await storeOf(STORED);
    const few = writeFile(store.dir, "few.jsonl", jsonl([dumpRecord("new-1"), dumpRecord("stored-299"), dumpRecord("new-3")]));
    const e1 = await expectImportFailure(store, "sotopia", [few]);
    expect([e1.line, e1.field, e1.problem]).toEqual([2, "episode_id", "episode stored-299 is already in the store, from another file"]);
    // 40 of a store of 300 passes the share past which every id is read once.
    const many = Array.from({length: 40}, (_, i) => dumpRecord(`new-${i}`));
    many[37] = dumpRecord("stored-0");
    const e2 = await expectImportFailure(store, "sotopia", [writeFile(store.dir, "many.jsonl", jsonl(many))]);
    expect([e2.line, e2.field, e2.problem]).toEqual([38, "episode_id", "episode stored-0 is already in the store, from another file"]);
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(STORED);
  });

  it("with --skip-invalid, the stored duplicates are left out and the rest land", async () => {
    const store = await storeOf(STORED);
    const file = writeFile(store.dir, "mixed.jsonl", jsonl([dumpRecord("new-1"), dumpRecord("stored-5"), dumpRecord("new-2")]));
    const summary = await importFiles(store, "sotopia", [file], {skipInvalid: true, rejectsPath: `${store.dir}/rejects.jsonl`});
    expect([summary.episodes, summary.rejected]).toEqual([2, 1]);
    expect(await count(store, "SELECT count(*) FROM episodes")).toBe(STORED + 2);
  });
});

describe("StoredEpisodes", () => {
  it("answers only for episodes looked up: a reader that asks first is a bug, not a 'no'", async () => {
    const store = await storeOf(3);
    const stored = await StoredEpisodes.of(store);
    expect(() => stored.has("stored-1")).toThrow("episode stored-1 was asked about before it was looked up in the store (ReadContext.lookUpEpisodes)");
    await stored.lookUp(["stored-1", "nope"], {withSeats: true});
    expect([stored.has("stored-1"), stored.has("nope")]).toEqual([true, false]);
    expect(stored.seatsOf("stored-1")).toEqual({names: ["Ada Lane", "Bo Chen"], models: ["model-a", "model-b"]});
  });
});
