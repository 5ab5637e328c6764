// A dump line written straight into a batch's columns (dumpIntoBatch, what the
// parse worker does) must give the batch that its EpisodeRecord gives
// (episodeFromDump, then BatchBuilder.add), and a bad line must leave the
// batch as it was.

import {describe, expect, it} from "vitest";
import {readFileSync} from "node:fs";
import {join} from "node:path";
import {BatchBuilder, batchEpisode, type EpisodeBatch} from "../../loaders/import/batch.js";
import {RecordProblem} from "../../loaders/import/errors.js";
import {dumpIntoBatch, episodeFromDump} from "../../loaders/import/sotopia.js";
import type {Json, JsonObject} from "../../loaders/import/validate.js";
import {dumpRecord as dumpObject} from "../helpers/episodes.js";

const dumpRecord = (id: string, overrides = {}) => dumpObject(id, overrides) as JsonObject;

const SAMPLES = join(import.meta.dirname, "../../data/samples/sotopia/episodes.jsonl");

/** A batch's episodes as records, its text size and its per-row columns that records do not show (line, words). */
const contents = (b: EpisodeBatch, chars: number) => ({
  episodes: Array.from({length: b.count}, (_, i) => batchEpisode(b, i)),
  settings: b.episodes.settings,
  line: Array.from(b.line),
  words: Array.from(b.messages.words),
  starts: [b.participants.start, b.messages.start, b.ratings.start].map((s) => Array.from(s)),
  chars,
});

/** The batch of `docs` built both ways. */
function bothWays(docs: Json[]): {direct: ReturnType<typeof contents>; viaRecords: ReturnType<typeof contents>} {
  const direct = new BatchBuilder();
  const viaRecords = new BatchBuilder();
  docs.forEach((doc, i) => {
    expect(dumpIntoBatch(doc, i + 1, direct)).toBe(true);
    viaRecords.add(episodeFromDump(doc as JsonObject), i + 1);
  });
  const [dc, rc] = [direct.chars, viaRecords.chars];
  return {direct: contents(direct.take(0), dc), viaRecords: contents(viaRecords.take(0), rc)};
}

describe("dumpIntoBatch", () => {
  it("builds the batch that episodeFromDump's records build, for every line of the bundled dump", () => {
    const docs = readFileSync(SAMPLES, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Json);
    expect(docs.length).toBe(232);
    const {direct, viaRecords} = bothWays(docs);
    expect(direct).toEqual(viaRecords);
    // The samples' 232 episodes: two seats each; 3,248 scores (counted from the file, failed judges' episodes left out).
    expect(direct.episodes.length).toBe(232);
    expect(direct.starts[0][232]).toBe(464);
    expect(direct.starts[2][232]).toBe(3248);
  });

  it("keeps the failed judge's and the unscored episode's settings, with no scores", () => {
    const failed = dumpRecord("e-failed", {raw_rewards: [0, 0]});
    const unscored = dumpRecord("e-unscored", {raw_rewards: []});
    const {direct, viaRecords} = bothWays([failed, unscored]);
    expect(direct).toEqual(viaRecords);
    expect(direct.settings).toEqual(['{"judge":"judge-x","judge_failed":true}', '{"judge":"judge-x","unscored":true}']);
    expect(direct.starts[2]).toEqual([0, 0, 0]);
    // Ada's two spoken words; "did nothing", the wave and the leaving get no count.
    const none = -2147483648;
    expect(direct.words).toEqual([2, none, none, none, none, none, 2, none, none, none, none, none]);
  });

  it("leaves the batch as it was when a line fails after some of its rows are in, and reports the same problem as episodeFromDump", () => {
    const good = [dumpRecord("e-1"), dumpRecord("e-3")];
    // Seat 2's scores are checked after every participant, message and seat 1's scores are in.
    const bad = dumpRecord("e-2", {raw_rewards: [[2, {believability: 8}], [2, {believability: 11}]]});
    const builder = new BatchBuilder();
    expect(dumpIntoBatch(good[0], 1, builder)).toBe(true);
    const problem = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(RecordProblem);
        return {field: (e as RecordProblem).field, problem: (e as RecordProblem).problem};
      }
      throw new Error("no problem reported");
    };
    const direct = problem(() => dumpIntoBatch(bad, 2, builder));
    expect(direct).toEqual(problem(() => episodeFromDump(bad)));
    expect(direct).toEqual({field: "raw_rewards[1][1].believability", problem: "11 is outside BEL's range [0, 10]"});
    expect(dumpIntoBatch(good[1], 3, builder)).toBe(true);
    const chars = builder.chars;
    const {viaRecords} = bothWays(good);
    expect({...contents(builder.take(0), chars), line: []}).toEqual({...viaRecords, line: []});
  });

  it("leaves an EpisodeLog-shaped record (with a pk) to episodeItem", () => {
    const builder = new BatchBuilder();
    expect(dumpIntoBatch({pk: "log-1", models: ["j", "a", "b"]}, 1, builder)).toBe(false);
    expect(builder.count).toBe(0);
    expect(() => dumpIntoBatch([1, 2], 1, builder)).toThrow(RecordProblem);
    expect(builder.count).toBe(0);
  });
});
