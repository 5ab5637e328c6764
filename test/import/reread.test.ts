// Files whose reader changed since they were stored: importing them again
// re-reads them through the replace path, though their bytes are the same.

import {readdirSync, readFileSync} from "node:fs";
import {basename, join} from "node:path";
import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {SOTOPIA_READER_VERSION} from "../../loaders/import/sotopia.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {describeWithFixtures, fixture, REPO} from "../helpers/fixtures.js";
import {count, expectImportFailure, snapshot, tempStore, writeFile} from "../helpers/store.js";

const HUMAN_EVAL = fixture("sotopia-lab__sotopia-pi/human_eval");
const OTREE = join(HUMAN_EVAL, "otree_project/sotopia_official_study");

/** What sotopia reader version 1 stored for the 28 annotation-study episodes version 2 reads differently (see its `about`). */
interface V1Tails {
  messages: {episode_id: string; seq: number; turn: number; agent: number | null; action_type: string; content: string}[];
  spoken_words: {episode_id: string; seq: number; agent: number; words: number}[];
}
const v1Tails = (): V1Tails => JSON.parse(readFileSync(join(REPO, "test/import/fixtures/sotopia-reader-v1-tails.json"), "utf8")) as V1Tails;

/** Every row an import writes, the sources' import times and notes aside. */
async function contents(store: Store): Promise<Record<string, unknown[]>> {
  const all = await snapshot(store);
  all.sources = await rows(store.conn, "SELECT * EXCLUDE (imported_at, notes) FROM sources ORDER BY ALL");
  all.model_names = await rows(store.conn, "SELECT * FROM model_names ORDER BY ALL");
  return all;
}

/**
 * Puts the store back to what sotopia reader version 1 left: the 28 episodes'
 * messages and word counts from their first differing message on, and no
 * reader version recorded for the logs (as in a store made before migration 010).
 */
async function asReaderVersion1(store: Store): Promise<void> {
  const tails = v1Tails();
  const firstSeq = new Map<string, number>();
  for (const m of tails.messages) firstSeq.set(m.episode_id, Math.min(m.seq, firstSeq.get(m.episode_id) ?? m.seq));
  await store.conn.run("DELETE FROM source_readers WHERE source_id IN (SELECT source_id FROM sources WHERE format = 'sotopia')");
  for (const [episode, seq] of firstSeq) {
    await store.conn.run("DELETE FROM messages WHERE episode_id = $1 AND seq >= $2", [episode, seq]);
    await store.conn.run("DELETE FROM spoken_words WHERE episode_id = $1 AND seq >= $2", [episode, seq]);
  }
  for (const m of tails.messages) {
    await store.conn.run("INSERT INTO messages VALUES ($1, $2, $3, $4, $5, $6)", [m.episode_id, m.seq, m.turn, m.agent, m.action_type, m.content]);
  }
  for (const w of tails.spoken_words) await store.conn.run("INSERT INTO spoken_words VALUES ($1, $2, $3, $4)", [w.episode_id, w.seq, w.agent, w.words]);
}

/** The episodes whose messages differ between two sets of message rows. */
function differingEpisodes(a: V1Tails["messages"], b: V1Tails["messages"]): string[] {
  const byEpisode = (ms: V1Tails["messages"]) => {
    const out = new Map<string, string[]>();
    for (const m of ms) {
      const rowsOf = out.get(m.episode_id) ?? [];
      rowsOf.push(JSON.stringify(m));
      out.set(m.episode_id, rowsOf);
    }
    return out;
  };
  const [x, y] = [byEpisode(a), byEpisode(b)];
  const ids = new Set(x.keys());
  for (const id of y.keys()) ids.add(id);
  return Array.from(ids).filter((id) => JSON.stringify(x.get(id)?.sort()) !== JSON.stringify(y.get(id)?.sort())).sort();
}

describeWithFixtures("re-reading the annotation-study logs after the sotopia reader's `Turn #N,` fix", () => {
  it("replaces the rows of every log read by version 1, keeps the six ratings files' 4,298 scores on the same episodes, and is unchanged after", async () => {
    expect(SOTOPIA_READER_VERSION).toBe(2);
    const store = await tempStore();
    const logs = readdirSync(OTREE).flatMap((d) => readdirSync(join(OTREE, d)).map((f) => join(OTREE, d, f)));
    const csvs = readdirSync(HUMAN_EVAL).filter((f) => f.endsWith(".csv")).map((f) => join(HUMAN_EVAL, f));
    await importFiles(store, "sotopia", logs);
    await importFiles(store, "sotopia-ratings", csvs);
    const asVersion2Reads = await contents(store);
    const ratings = asVersion2Reads.ratings;
    expect(ratings).toHaveLength(4298);

    await asReaderVersion1(store);
    // Version 1's rows: 1,413 messages (five more than version 2's: one episode split into false turns), 28 episodes differing.
    expect(await count(store, "SELECT count(*) FROM messages")).toBe(1413);
    expect(await count(store, "SELECT count(*) FROM spoken_words")).toBe(1153);
    expect(await count(store, "SELECT count(*) FROM source_readers")).toBe(6);
    const lastOf = "SELECT content FROM messages WHERE episode_id = '01H7VM65KGGY7842XGE5A7PEK1' ORDER BY seq DESC LIMIT 1";
    expect((await rows<{content: string}>(store.conn, lastOf))[0].content.endsWith('together."\nTurn #8')).toBe(true);
    const messagesNow = () => rows<V1Tails["messages"][number]>(store.conn, "SELECT * FROM messages ORDER BY ALL");
    expect(differingEpisodes(await messagesNow(), asVersion2Reads.messages as V1Tails["messages"])).toHaveLength(28);

    const reread = await importFiles(store, "sotopia", logs);
    expect(reread).toMatchObject({episodes: 154, ratings: 0, rejected: 0});
    expect(reread.files).toHaveLength(154);
    for (const f of reread.files) {
      expect({file: basename(f.path), status: f.status, episodes: f.episodes, notes: f.notes}).toEqual({
        file: basename(f.path), status: "replaced", episodes: 1,
        notes: ["re-read: the sotopia reader changed since this file was imported (version 1 → 2)"],
      });
    }
    // Every row is version 2's: the 28 episodes' messages and word counts, and the same 4,298 scores of the same files on the same episodes.
    expect(differingEpisodes(await messagesNow(), asVersion2Reads.messages as V1Tails["messages"])).toEqual([]);
    expect(await contents(store)).toEqual(asVersion2Reads);
    expect(await count(store, "SELECT count(*) FROM messages")).toBe(1408);
    expect(await count(store, "SELECT count(*) FROM spoken_words")).toBe(1148);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE episode_id NOT IN (SELECT episode_id FROM episodes)")).toBe(0);
    expect((await rows<{content: string}>(store.conn, lastOf))[0].content.endsWith("enjoy this vacation together.")).toBe(true);
    // A source keeps its reader's notes (shown again when the file comes back unchanged): one ratings file's model
    // column is a spreadsheet fill series.
    expect(await rows(store.conn, `SELECT s.format, r.reader_version, count(*)::INT AS n, list(DISTINCT s.notes ORDER BY s.notes NULLS FIRST) AS notes
      FROM sources s JOIN source_readers r USING (source_id) GROUP BY ALL ORDER BY ALL`)).toEqual([
      {format: "sotopia", reader_version: 2, n: 154, notes: ["re-read: the sotopia reader changed since this file was imported (version 1 → 2)"]},
      {format: "sotopia-ratings", reader_version: 1, n: 6, notes: [null,
        "the model column counts up row by row (\"mistral-selftrain-round2\" on line 2 … \"mistral-selftrain-round56\" on line 57), as a spreadsheet fill series does, and so names one episode differently on different rows: read as one model, \"mistral-selftrain-round\""]},
    ]);
    // Imported by version 2 now, the logs are unchanged; so are the ratings files, read by the version that reads them today.
    const before = await snapshot(store);
    const again = await importFiles(store, "sotopia", logs);
    expect(again.files.filter((f) => f.status === "unchanged")).toHaveLength(154);
    expect(again.episodes).toBe(0);
    const csvsAgain = await importFiles(store, "sotopia-ratings", csvs);
    expect(csvsAgain.files.map((f) => f.status)).toEqual(Array(6).fill("unchanged"));
    expect(await snapshot(store)).toEqual(before);
  });
});

describe("re-reading a file whose reader changed", () => {
  const scoresOf = (ids: string[]) => "episode_id,agent,dimension,rater,value\n" + ids.map((id) => `${id},1,goal,ann-1,7`).join("\n") + "\n";

  it("fails whole, naming the ratings file, when scores refer to an episode the new reading no longer gives", async () => {
    const store = await tempStore();
    const log = writeFile(store.dir, "log.jsonl", jsonl([dumpRecord("ep-1")]));
    await importFiles(store, "sotopia", [log]);
    // As if reader version 1 had read a second episode, ep-old, from the same bytes, and a ratings file scored it.
    await store.conn.run("INSERT INTO episodes (episode_id, benchmark, source_id) SELECT 'ep-old', benchmark, source_id FROM episodes WHERE episode_id = 'ep-1'");
    await store.conn.run("INSERT INTO participants SELECT 'ep-old', * EXCLUDE (episode_id) FROM participants WHERE episode_id = 'ep-1'");
    const scores = writeFile(store.dir, "scores.csv", scoresOf(["ep-1", "ep-old"]));
    await importFiles(store, "sotopia-ratings", [scores]);
    await store.conn.run("DELETE FROM source_readers WHERE source_id IN (SELECT source_id FROM sources WHERE format = 'sotopia')");

    const error = await expectImportFailure(store, "sotopia", [log]);
    expect(error.message).toBe(`${scores}: episode_id: scores for episode ep-old would be left without their episode: the changed or re-read file no longer gives it`);
  });

  it("keeps a judge run's judgments and scores of the episodes it re-reads, so the run does not judge them again", async () => {
    const store = await tempStore();
    const log = writeFile(store.dir, "log.jsonl", jsonl([dumpRecord("ep-1"), dumpRecord("ep-2")]));
    await importFiles(store, "sotopia", [log]);
    // What a sotopia-eval run that judged ep-1 (and failed on ep-2) leaves: its judgments, and ep-1's scores under the run's source.
    await store.conn.run(`INSERT INTO sources VALUES ('run-src', 'judge-run:run-1', 'judge:sotopia-eval', 'v', 0, now(), 1, 0, NULL);
      INSERT INTO judgments VALUES ('run-1', 'ep-1', 'ep-1', 'ok', 1, NULL, NULL, now()), ('run-1', 'ep-2', 'ep-2', 'failed', 3, 'no JSON', 'x', now());
      INSERT INTO ratings SELECT * REPLACE ('run-src' AS source_id, 'judge-x-run' AS rater) FROM ratings WHERE episode_id = 'ep-1'`);
    await store.conn.run("DELETE FROM source_readers");
    const judged = "SELECT item, status FROM judgments ORDER BY item";
    const runScores = "SELECT count(*) FROM ratings WHERE source_id = 'run-src'";
    expect(await count(store, runScores)).toBe(14);

    const summary = await importFiles(store, "sotopia", [log]);
    expect(summary.files.map((f) => [f.status, f.episodes])).toEqual([["replaced", 2]]);
    expect(await rows(store.conn, judged)).toEqual([{item: "ep-1", status: "ok"}, {item: "ep-2", status: "failed"}]);
    expect(await count(store, runScores)).toBe(14);
  });

  it("fails whole, naming the judge run, when a judgment's episode would be gone", async () => {
    const store = await tempStore();
    const log = writeFile(store.dir, "log.jsonl", jsonl([dumpRecord("ep-1")]));
    await importFiles(store, "sotopia", [log]);
    // As if reader version 1 had read ep-old from the same bytes, and a run failed to judge it (a failed judgment has no scores).
    await store.conn.run(`INSERT INTO episodes (episode_id, benchmark, source_id) SELECT 'ep-old', benchmark, source_id FROM episodes;
      INSERT INTO judgments VALUES ('run-1', 'ep-old', 'ep-old', 'failed', 3, 'no JSON', 'x', now())`);
    await store.conn.run("DELETE FROM source_readers");
    const error = await expectImportFailure(store, "sotopia", [log]);
    expect(error.message).toBe("judge-run:run-1: episode_id: judge run run-1 judged episode ep-old, which would be left out: the changed or re-read file no longer gives it");
    expect(await count(store, "SELECT count(*) FROM judgments")).toBe(1);
  });

  it("keeps the rows of a file a newer reader read (a store written by a newer sociometer): unchanged, not read back to the older reading", async () => {
    const store = await tempStore();
    const log = writeFile(store.dir, "log.jsonl", jsonl([dumpRecord("ep-1")]));
    await importFiles(store, "sotopia", [log]);
    await store.conn.run("UPDATE source_readers SET reader_version = $1", [SOTOPIA_READER_VERSION + 1]);
    const before = await snapshot(store);
    const summary = await importFiles(store, "sotopia", [log]);
    expect(summary.files.map((f) => [f.status, f.notes])).toEqual([["unchanged", []]]);
    expect(await snapshot(store)).toEqual(before);
  });

  it("records the reader version of each file it reads, and drops it with the file's rows when the file changes", async () => {
    const store = await tempStore();
    const log = writeFile(store.dir, "log.jsonl", jsonl([dumpRecord("ep-1")]));
    await importFiles(store, "sotopia", [log]);
    const versions = "SELECT s.path, r.reader_version FROM sources s JOIN source_readers r USING (source_id)";
    expect(await rows(store.conn, versions)).toEqual([{path: log, reader_version: SOTOPIA_READER_VERSION}]);
    writeFile(store.dir, "log.jsonl", jsonl([dumpRecord("ep-2")]));
    const summary = await importFiles(store, "sotopia", [log]);
    // A changed file is replaced as before: no re-read note, one reader row.
    expect(summary.files.map((f) => [f.status, f.notes])).toEqual([["replaced", []]]);
    expect(await rows(store.conn, versions)).toEqual([{path: log, reader_version: SOTOPIA_READER_VERSION}]);
    expect(await count(store, "SELECT count(*) FROM source_readers")).toBe(1);
  });
});
