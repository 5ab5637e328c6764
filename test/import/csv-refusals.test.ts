// CSV inputs the ratings importer must refuse as a whole, saying exactly where:
// a header with one name twice (the reader finds columns by name, so one of
// them would be dropped without a word), and bytes that are not UTF-8. Each
// refusal leaves every table as it was (expectImportFailure compares them).

import {describe, expect, it} from "vitest";
import {exitCodeOf} from "../../loaders/cli/main.js";
import {importFiles} from "../../loaders/import/session.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {expectImportFailure, tempStore, writeFile} from "../helpers/store.js";

const COMPARED = "(header names are compared after trimming spaces around them; case counts): rename or remove one of them";

async function storeWithEpisode(): Promise<Store & {dir: string}> {
  const store = await tempStore();
  await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("ep-1")]))]);
  return store;
}

/** Imports `content` as r.csv, expecting a refusal; returns the file's path and the error. */
async function refused(store: Store & {dir: string}, content: string | Uint8Array) {
  const path = writeFile(store.dir, "r.csv", content);
  const error = await expectImportFailure(store, "sotopia-ratings", [path]);
  expect(exitCodeOf(error)).toBe(65);
  return {path, error};
}

describe("a ratings CSV whose header names a column twice is refused at the header", () => {
  it("two value columns: names both columns, not the last one's scores imported", async () => {
    const store = await storeWithEpisode();
    const {path, error} = await refused(store, "episode_id,agent,dimension,rater,value,rationale,value\nep-1,1,goal,ann-1,6,,3\n");
    expect({file: error.file, line: error.line, field: error.field}).toEqual({file: path, line: 1, field: "value"});
    expect(error.message).toBe(`${path}:1: value: column 5 and column 7 are both named "value" ${COMPARED}`);
  });

  it("two rater columns", async () => {
    const store = await storeWithEpisode();
    const {path, error} = await refused(store, "rater,episode_id,agent,dimension,value,rater\nann-1,ep-1,1,goal,6,ann-2\n");
    expect(error.message).toBe(`${path}:1: rater: column 1 and column 6 are both named "rater" ${COMPARED}`);
  });

  it("two episode_id columns: the header is named, not line 2's episode", async () => {
    const store = await storeWithEpisode();
    const {path, error} = await refused(store, "episode_id,agent,dimension,rater,value,episode_id\nep-1,1,goal,ann-1,6,ep-404\n");
    expect(error.message).toBe(`${path}:1: episode_id: column 1 and column 6 are both named "episode_id" ${COMPARED}`);
  });

  it("names that differ only by spaces around them are one name", async () => {
    const store = await storeWithEpisode();
    const {path, error} = await refused(store, "episode_id,agent,dimension, rater,value,rater \nep-1,1,goal,ann-1,6,ann-2\n");
    expect(error.message).toBe(`${path}:1: rater: column 4 and column 6 are both named "rater" ${COMPARED}`);
  });

  it("two columns without a name (trailing commas)", async () => {
    const store = await storeWithEpisode();
    const {path, error} = await refused(store, "episode_id,agent,dimension,rater,value,,\nep-1,1,goal,ann-1,6,,\n");
    expect(error.message).toBe(`${path}:1: header: column 6 and column 7 both have no name ${COMPARED}`);
  });

  it("a wide file with two prolific_id columns", async () => {
    const store = await storeWithEpisode();
    const {path, error} = await refused(store, "pk,prolific_id,goal_1,goal_2,prolific_id\nep-1,rater-a,5,6,rater-b\n");
    expect(error.message).toBe(`${path}:1: prolific_id: column 2 and column 5 are both named "prolific_id" ${COMPARED}`);
  });

  it("keeps names apart by case: Value is another column, which the long layout does not read", async () => {
    const store = await storeWithEpisode();
    await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "r.csv", "episode_id,agent,dimension,rater,value,Value\nep-1,1,goal,ann-1,6,2\n")]);
    expect(await rows(store.conn, "SELECT episode_id, agent, value FROM ratings WHERE rater = 'ann-1'")).toEqual([{episode_id: "ep-1", agent: 1, value: 6}]);
  });
});

describe("a ratings CSV that is not UTF-8 is refused at the line and byte of its first bad byte", () => {
  it("latin-1 on line 3", async () => {
    const store = await storeWithEpisode();
    // 49 header bytes, 25 for line 2, then "ep-1,2,goal,ann-1,5,caf" (23 bytes) before the latin-1 é.
    const csv = Buffer.concat([
      Buffer.from("episode_id,agent,dimension,rater,value,rationale\nep-1,1,goal,ann-1,6,fine\nep-1,2,goal,ann-1,5,caf"), Buffer.from([0xe9, 0x0a]),
    ]);
    const {path, error} = await refused(store, csv);
    expect({file: error.file, line: error.line, field: error.field}).toEqual({file: path, line: 3, field: null});
    expect(error.message).toBe(`${path}:3: not valid UTF-8: byte 0xE9 at byte offset 97 of the file (counting from 0) begins no valid character (is the file in another encoding?)`);
  });

  it("counts the byte-order mark in the offset and the line feeds inside a quoted field in the line; a character cut at the end", async () => {
    const store = await storeWithEpisode();
    // 3 + 50 + 34 bytes before line 4, then 27 bytes before the first two bytes of "€" (E2 82 AC).
    const csv = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('episode_id,agent,dimension,rater,value,rationale\r\nep-1,1,goal,ann-1,6,"two\r\nlines"\r\nep-1,2,goal,ann-1,5,price 3'),
      Buffer.from([0xe2, 0x82]),
    ]);
    const {path, error} = await refused(store, csv);
    expect(error.line).toBe(4);
    expect(error.message).toBe(`${path}:4: not valid UTF-8: byte 0xE2 at byte offset 114 of the file (counting from 0) begins no valid character (is the file in another encoding?)`);
  });
});
