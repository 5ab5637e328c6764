// Episode viewer benchmark (section `viewer` of BENCHMARKS.md). For each size
// N, imports N synthetic SOTOPIA episodes (the import benchmark's realistic
// style) into a fresh store, writes the viewer's packs in child processes
// (time, peak RSS), then opens episodes the way the page does, through the
// site's server (scripts/serve.ts) with range requests, counting requests and
// bytes. Baseline, measured on the same store: what the viewer fetched before
// the packs, its four Parquet files whole (capped at 5,000 episodes).
//
// Child mode (used by the harness): tsx bench/viewer.ts --measure <episodes|list|old> <db> <out>

import {spawn} from "node:child_process";
import {once} from "node:events";
import {createWriteStream, existsSync, mkdirSync, rmSync, statSync} from "node:fs";
import {join, resolve} from "node:path";
import {finished} from "node:stream/promises";
import {fileURLToPath, pathToFileURL} from "node:url";
import {importFiles} from "../loaders/import/session.js";
import {openStore, rows} from "../loaders/store/db.js";
import {sotopiaEpisodes} from "../scripts/samples/sotopia.js";
import {serveStatic} from "../scripts/serve.js";
import {loadEpisode, openViewer} from "../src/client/episodes.js";
import {writeEpisodePack, writeListPack} from "../src/data/viewer-pack.js";
import {machine, mb, measureInChild, reportFromChild, REPO, type BenchContext, type Measurement} from "./helpers.js";

const DEFAULT_SIZES = [10_000, 100_000];
const OPENS = 20;
const OLD_LOADERS = ["episodes", "participants", "messages", "ratings"];

interface SizeResult {
  n: number;
  episodesPack: Measurement & {bytes: number};
  listPack: Measurement & {bytes: number};
  oldBytes: number;
  perOpen: {requests: number; meanBytes: number; maxBytes: number};
  firstOpen: {requests: number; bytes: number};
}

async function writeStore(db: string, n: number, dir: string): Promise<void> {
  const dump = join(dir, `viewer-dump-${n}.jsonl`);
  const out = createWriteStream(dump);
  for (const episode of sotopiaEpisodes({seed: "bench-viewer", count: n, style: "realistic"})) {
    if (!out.write(`${JSON.stringify(episode)}\n`)) await once(out, "drain");
  }
  out.end();
  await finished(out);
  const store = await openStore(db);
  try {
    await importFiles(store, "sotopia", [dump], {});
  } finally {
    store.close();
    rmSync(dump, {force: true});
  }
}

/** Runs a data loader of src/data with the store `db`, its stdout into `out`; resolves with the file's size. */
function runLoader(name: string, db: string, out: string): Promise<number> {
  return new Promise((ok, fail) => {
    const file = createWriteStream(out);
    file.on("open", () => {
      const child = spawn(process.execPath, ["--import", "tsx", join(REPO, "src", "data", name)], {cwd: REPO, env: {...process.env, SOCIOMETER_DB: db}, stdio: ["ignore", file, "inherit"]});
      child.on("error", fail);
      child.on("close", (code) => (code === 0 ? ok(statSync(out).size) : fail(new Error(`${name} exited with ${code}`))));
    });
  });
}

export async function run(ctx: BenchContext): Promise<string> {
  const sizes = ctx.sizes.length ? ctx.sizes : DEFAULT_SIZES;
  mkdirSync(ctx.dir, {recursive: true});
  const results: SizeResult[] = [];
  for (const n of sizes) {
    const dir = join(ctx.dir, `viewer-${n}`);
    rmSync(dir, {recursive: true, force: true});
    mkdirSync(dir, {recursive: true});
    const db = join(dir, "store.duckdb");
    ctx.log(`viewer: importing ${n.toLocaleString("en-US")} episodes`);
    await writeStore(db, n, dir);
    const site = join(dir, "site");
    mkdirSync(site);
    ctx.log("viewer: writing the episode pack");
    const episodesPack = await measureInChild(fileURLToPath(import.meta.url), ["--measure", "episodes", db, join(site, "episodes.bin")]) as SizeResult["episodesPack"];
    ctx.log(`viewer: episode pack ${mb(episodesPack.bytes)} in ${episodesPack.seconds.toFixed(1)} s, peak RSS ${mb(episodesPack.peakRss)}`);
    const listPack = await measureInChild(fileURLToPath(import.meta.url), ["--measure", "list", db, join(site, "list.bin")]) as SizeResult["listPack"];
    let oldBytes = 0;
    for (const name of OLD_LOADERS) oldBytes += await runLoader(`${name}.parquet.ts`, db, join(dir, `${name}.parquet`));

    const server = await serveStatic(site);
    try {
      const log: {url: string; bytes: number}[] = [];
      const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await fetch(input, init);
        const body = new Uint8Array(await response.arrayBuffer());
        log.push({url: String(input), bytes: body.length});
        return new Response(body, {status: response.status, statusText: response.statusText, headers: response.headers});
      }) as typeof fetch;
      const viewer = await openViewer(`${server.origin}/list.bin`, `${server.origin}/episodes.bin`, {fetchFn});
      const store = await openStore(db, {readOnly: true});
      const ids = await rows<{episode_id: string}>(store.conn, `SELECT episode_id FROM episodes USING SAMPLE ${OPENS} ROWS (reservoir, 7)`);
      store.close();
      // Opening the page reads both packs' headers; each open then reads an index entry and a block.
      const headerBytes = log.find((r) => r.url.endsWith("/episodes.bin"))?.bytes ?? 0;
      let requests = 0, total = 0, max = 0, first = {requests: 0, bytes: 0};
      for (const [i, {episode_id}] of ids.entries()) {
        const before = log.length;
        if (!(await loadEpisode(viewer, episode_id))) throw new Error(`episode ${episode_id} not in the pack`);
        const bytes = log.slice(before).reduce((s, r) => s + r.bytes, 0);
        requests += log.length - before;
        total += bytes;
        if (bytes > max) max = bytes;
        if (i === 0) first = {requests: log.length - before + 1, bytes: bytes + headerBytes};
      }
      results.push({n, episodesPack, listPack, oldBytes, perOpen: {requests: requests / ids.length, meanBytes: total / ids.length, maxBytes: max}, firstOpen: first});
    } finally {
      await server.close();
    }
    if (!ctx.keep) rmSync(dir, {recursive: true, force: true});
  }
  return section(results);
}

function section(results: readonly SizeResult[]): string {
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const fmt = (n: number) => n.toLocaleString("en-US");
  const lines = [
    "## Episode viewer: bytes per episode open",
    "",
    `Machine: ${machine()}. Synthetic SOTOPIA episodes (realistic style, every one with a transcript and an LLM judge's 14 scores).`,
    `Each size: ${OPENS} episodes picked at random and opened as the page does (src/client/episodes.ts over scripts/serve.ts, range requests).`,
    "Baseline: the four Parquet files the viewer fetched whole before (episodes, participants, messages, ratings; capped at 5,000 episodes).",
    "",
    "| episodes | episode pack | list pack | pack written in | loader peak RSS | first open (headers + entry + block) | each further open | mean bytes per open | max | baseline fetched | baseline ÷ first open |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map((r) =>
      `| ${fmt(r.n)} | ${mb(r.episodesPack.bytes)} | ${mb(r.listPack.bytes)} | ${r.episodesPack.seconds.toFixed(1)} s + ${r.listPack.seconds.toFixed(1)} s | ${mb(Math.max(r.episodesPack.peakRss, r.listPack.peakRss))} | ` +
      `${r.firstOpen.requests} requests, ${kb(r.firstOpen.bytes)} | ${r.perOpen.requests.toFixed(1)} requests | ${kb(r.perOpen.meanBytes)} | ${kb(r.perOpen.maxBytes)} | ${mb(r.oldBytes)} | ${Math.round(r.oldBytes / r.firstOpen.bytes)}× |`),
    "",
    "The first page of the list (500 episodes of a benchmark) is one more read of its header and one page; the default list of 5,000 is ten pages.",
  ];
  return lines.join("\n");
}

async function child(what: string, db: string, out: string): Promise<void> {
  const started = performance.now();
  const store = await openStore(db, {readOnly: true});
  const file = createWriteStream(out);
  try {
    await (what === "episodes" ? writeEpisodePack : writeListPack)(store.conn, file);
  } finally {
    store.close();
  }
  file.end();
  await finished(file);
  reportFromChild((performance.now() - started) / 1000, {bytes: statSync(out).size});
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [flag, what, db, out] = process.argv.slice(2);
  if (flag !== "--measure" || !what || !db || !out || !existsSync(db)) {
    process.stderr.write("usage: tsx bench/viewer.ts --measure <episodes|list> <db> <out>  (run the benchmark with npm run bench viewer)\n");
    process.exit(2);
  }
  child(what, db, out).catch((e: unknown) => {
    process.stdout.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
