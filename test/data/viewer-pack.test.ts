// The episode viewer's packs built from a store: every episode with a
// transcript opens by its id with exactly its rows, the list pages hold every
// benchmark's episodes in id order, and opening one episode costs the same
// few requests and bytes whatever the store's size.

import {createWriteStream, readFileSync, statSync, type WriteStream} from "node:fs";
import {join} from "node:path";
import {finished} from "node:stream/promises";
import {afterEach, describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {loadEpisode, loadListed, openViewer, type Viewer} from "../../src/client/episodes.js";
import {writeEpisodePack, writeListPack} from "../../src/data/viewer-pack.js";
import {sotopiaEpisodes, toJsonl} from "../../scripts/samples/sotopia.js";
import {serveStatic} from "../../scripts/serve.js";
import {tempDir, tempSamplesStore, tempStore, writeFile} from "../helpers/store.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {fakeKey} from "../helpers/fake-key.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

interface Request {
  range: string | null;
  bytes: number;
}

/** Writes both packs of `store` into a folder, serves it, and opens the viewer through a fetch that records every request. */
async function servedViewer(store: Store): Promise<{viewer: Viewer; log: Request[]; episodeFile: string}> {
  const dir = tempDir();
  for (const [name, write] of [["list.bin", writeListPack], ["episodes.bin", writeEpisodePack]] as const) {
    const out = createWriteStream(join(dir, name));
    await write(store.conn, out);
    out.end();
    await finished(out);
  }
  const site = await serveStatic(dir);
  closers.push(site.close);
  const log: Request[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    log.push({range: new Headers(init?.headers).get("range"), bytes: body.length});
    return new Response(body, {status: response.status, statusText: response.statusText, headers: response.headers});
  }) as typeof fetch;
  const viewer = await openViewer(`${site.origin}/list.bin`, `${site.origin}/episodes.bin`, {fetchFn});
  return {viewer, log, episodeFile: join(dir, "episodes.bin")};
}

const TRANSCRIPT_EPISODES = `
  SELECT e.episode_id, e.benchmark,
         (SELECT count(*) FROM participants p WHERE p.episode_id = e.episode_id)::INTEGER AS participants,
         (SELECT count(*) FROM messages m WHERE m.episode_id = e.episode_id)::INTEGER AS messages,
         (SELECT count(*) FROM ratings r WHERE r.episode_id = e.episode_id)::INTEGER AS ratings
  FROM episodes e
  WHERE e.episode_id IN (SELECT episode_id FROM messages)
    AND EXISTS (SELECT 1 FROM participants p WHERE p.episode_id = e.episode_id AND p.model <> 'dataset')
  ORDER BY e.episode_id`;


/** The bytes a pack writer puts in `file`, once the file is closed. */
async function packBytes(file: string, writePack: (out: WriteStream) => Promise<void>): Promise<Buffer> {
  const out = createWriteStream(file);
  await writePack(out);
  out.end();
  await finished(out);
  return readFileSync(file);
}

describe("the viewer's packs", () => {
  it("open every episode with a transcript of the samples by its id, with exactly its participants, messages in order, and ratings", async () => {
    const store = await tempSamplesStore();
    const expected = await rows<{episode_id: string; benchmark: string; participants: number; messages: number; ratings: number}>(store.conn, TRANSCRIPT_EPISODES);
    const {viewer} = await servedViewer(store);
    expect(viewer.episodes.header.episodes).toBe(expected.length);
    const mismatches: string[] = [];
    for (const e of expected) {
      const detail = await loadEpisode(viewer, e.episode_id);
      const got = detail && {participants: detail.participants.length, messages: detail.messages.length, ratings: detail.ratings.length};
      if (JSON.stringify(got) !== JSON.stringify({participants: e.participants, messages: e.messages, ratings: e.ratings})) mismatches.push(`${e.episode_id}: ${JSON.stringify(got)}`);
      else if (detail!.messages.some((m, i) => i > 0 && m.seq <= detail!.messages[i - 1].seq)) mismatches.push(`${e.episode_id}: messages out of order`);
    }
    expect(mismatches).toEqual([]);
    expect(await loadEpisode(viewer, "no-such-episode")).toBeNull();

    // One episode's first message and a judge's score, value for value.
    const [first] = await rows<{episode_id: string; content: string}>(store.conn, "SELECT episode_id, content FROM messages WHERE seq = 0 ORDER BY episode_id LIMIT 1");
    expect((await loadEpisode(viewer, first.episode_id))!.messages[0].content).toBe(first.content);
  });

  it("list each benchmark's episodes in pages, in id order, with the store's counts", async () => {
    const store = await tempSamplesStore();
    const expected = await rows<{episode_id: string; benchmark: string}>(store.conn, TRANSCRIPT_EPISODES);
    const {viewer} = await servedViewer(store);
    const count = (benchmark: string) => expected.filter((e) => e.benchmark === benchmark).length;
    expect(viewer.benchmarks.map((b) => [b.name, b.episodes])).toEqual([
      ["sotopia", count("sotopia")],
      ["lifelong-sotopia", count("lifelong-sotopia")],
      ["stss", count("stss")],
      ["hsii", count("hsii")],
    ]);
    const stss = viewer.benchmarks.find((b) => b.name === "stss")!;
    // STSS has more than two pages of 500: the first 700 come from two of them.
    expect(stss.pages).toBe(Math.ceil(count("stss") / 500));
    const listed = await loadListed(viewer, stss, 700);
    expect(listed.map((e) => e.episode_id)).toEqual(expected.filter((e) => e.benchmark === "stss").slice(0, 700).map((e) => e.episode_id));
    expect((await loadListed(viewer, stss, 1e9)).length).toBe(count("stss"));
  });

  it("ship key-shaped text as [redacted] and markup as it is; an empty store gives packs with no episode", async () => {
    const key = fakeKey("abcdefghijklmnopqrstuvwx");
    const store = await tempStore();
    const file = writeFile(store.dir, "dump.jsonl", jsonl([dumpRecord("ep-key", {
      scenario: `Key ${key} <b>bold</b>`,
      reasoning: `Environment comments: none\nAgent 1 comments:\nbelievability: echoed ${key}\ngoal: got it\nAgent 2 comments:\nbelievability: stiff\n`,
    })]));
    await importFiles(store, "sotopia", [file], {});
    const {viewer} = await servedViewer(store);
    const detail = (await loadEpisode(viewer, "ep-key"))!;
    expect(detail.summary.scenario).toBe("Key [redacted] <b>bold</b>");
    const believability = detail.ratings.find((r) => r.agent === 1 && r.dimension === "believability")!;
    expect(believability.rationale).toBe("echoed [redacted]");
    expect(JSON.stringify(detail)).not.toContain(key);

    const empty = await tempStore();
    const none = await servedViewer(empty);
    expect(none.viewer.benchmarks).toEqual([]);
    expect(none.viewer.episodes.header).toMatchObject({episodes: 0, blocks: 1});
    expect(await loadEpisode(none.viewer, "ep-key")).toBeNull();
  });

  it("write the same bytes when the rows are sorted a few blocks at a time, under the memory limit the caller set", async () => {
    const store = await tempSamplesStore();
    const write = (file: string, options?: {blocksPerChunk: number}) => packBytes(file, (out) => writeEpisodePack(store.conn, out, options));
    const dir = tempDir();
    const whole = await write(join(dir, "one-chunk.bin"));
    // The loaders' limit (src/data/store.ts) is the one DuckDB keeps: the pack sets none of its own.
    await store.conn.run("SET memory_limit = '200MB'");
    const limit = async () => (await rows<{limit: string}>(store.conn, "SELECT current_setting('memory_limit') AS limit"))[0].limit;
    const before = await limit();
    const chunked = await write(join(dir, "chunks.bin"), {blocksPerChunk: 3});
    expect(await limit()).toBe(before);
    const header = JSON.parse(whole.subarray(8, 8 + whole.readUInt32LE(4)).toString("utf8")) as {blocks: number};
    // The samples fill far more than the three blocks of one chunk.
    expect(header.blocks).toBeGreaterThan(100);
    expect(chunked.equals(whole)).toBe(true);
  });

  it("write the same bytes under a DuckDB memory limit far below one chunk's rows: the chunk's sort spills", async () => {
    const store = await tempSamplesStore();
    const dir = tempDir();
    const free = await packBytes(join(dir, "free.bin"), (out) => writeEpisodePack(store.conn, out));
    // The samples' blocks are one chunk; joined by an ordered string_agg, which cannot spill, it ran out of memory under this limit.
    await store.conn.run("SET memory_limit = '64MB'");
    const bounded = await packBytes(join(dir, "bounded.bin"), (out) => writeEpisodePack(store.conn, out));
    expect(bounded.length).toBe(free.length);
    expect(bounded.equals(free)).toBe(true);
  });

  it("write the same list pack when its rows are sorted a few at a time", async () => {
    const store = await tempSamplesStore();
    const write = (file: string, options?: {rowsPerChunk: number}) => packBytes(file, (out) => writeListPack(store.conn, out, options));
    const dir = tempDir();
    const whole = await write(join(dir, "one-chunk.bin"));
    const chunked = await write(join(dir, "chunks.bin"), {rowsPerChunk: 7});
    const header = JSON.parse(whole.subarray(8, 8 + whole.readUInt32LE(4)).toString("utf8")) as {benchmarks: {episodes: number}[]};
    // Far more rows than one chunk of 7 holds, and benchmarks that start inside a chunk.
    expect(header.benchmarks.reduce((n, b) => n + b.episodes, 0)).toBeGreaterThan(700);
    expect(chunked.equals(whole)).toBe(true);
  });

  it("fetch the same two small reads (index entry, block) to open one episode in a store of 500 or of 4,000 episodes", async () => {
    const opened: {episodes: number; fileBytes: number; requests: Request[]}[] = [];
    for (const count of [500, 4000]) {
      const store = await tempStore();
      const file = writeFile(store.dir, "dump.jsonl", toJsonl(sotopiaEpisodes({seed: "viewer-scale", count})));
      await importFiles(store, "sotopia", [file], {});
      const {viewer, log, episodeFile} = await servedViewer(store);
      const [{episode_id: id}] = await rows<{episode_id: string}>(store.conn, "SELECT episode_id FROM episodes ORDER BY episode_id LIMIT 1 OFFSET 123");
      const before = log.length;
      expect((await loadEpisode(viewer, id))?.summary.episode_id).toBe(id);
      opened.push({episodes: count, fileBytes: statSync(episodeFile).size, requests: log.slice(before)});
    }
    for (const {requests} of opened) {
      // The index entry (8 bytes of offset, 4 of length for each of the 4 parts) and the episode's block; the header came with opening.
      expect(requests.length).toBe(2);
      expect(requests[0].bytes).toBe(24);
    }
    const [small, large] = opened;
    // About 8 episodes a block at both sizes: the block read stays within a factor of three while the file grows eightfold.
    expect(large.fileBytes / small.fileBytes).toBeGreaterThan(7);
    expect(large.requests[1].bytes / small.requests[1].bytes).toBeLessThan(3);
    expect(large.requests[1].bytes).toBeLessThan(large.fileBytes / 200);
  });
});
