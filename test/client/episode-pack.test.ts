// The pack format end to end over HTTP: written by PackWriter, served by the
// site's server (scripts/serve.ts) with range requests, read by openPack one
// block at a time; and read whole from a server that ignores ranges, up to a
// size limit.

import {createReadStream, createWriteStream, statSync} from "node:fs";
import {createServer} from "node:http";
import type {AddressInfo} from "node:net";
import {join} from "node:path";
import {finished} from "node:stream/promises";
import {afterEach, describe, expect, it} from "vitest";
import {blockOfId, idHash, openPack, RangeUnsupportedError} from "../../src/client/episode-pack.js";
import {PackWriter} from "../../src/data/viewer-pack.js";
import {requestedRange, serveStatic} from "../../scripts/serve.js";
import {tempDir} from "../helpers/store.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A pack of three blocks of two parts; block 1 has no rows in part "b". */
async function writeSamplePack(dir: string): Promise<string> {
  const writer = new PackWriter(["a", "b"]);
  await writer.add([[`{"id":"x","n":1}`, `{"id":"y","n":2}`], [`{"id":"x","text":"<b>hi</b>"}`]]);
  await writer.add([[`{"id":"z","n":3}`], []]);
  await writer.add([[], [`{"id":"w","text":"é"}`]]);
  const file = join(dir, "sample.bin");
  const out = createWriteStream(file);
  await writer.finish(out, {kind: "test"});
  out.end();
  await finished(out);
  return file;
}

/** fetch that records each request's Range header, answer status and body size. */
function countingFetch(log: {range: string | null; status: number; bytes: number}[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    log.push({range: new Headers(init?.headers).get("range"), status: response.status, bytes: body.length});
    return new Response(body, {status: response.status, statusText: response.statusText, headers: response.headers});
  }) as typeof fetch;
}

describe("the block hash", () => {
  it("is 32-bit FNV-1a over UTF-8 bytes, the same wherever it runs", () => {
    expect(idHash("")).toBe(0x811c9dc5);
    expect(idHash("a")).toBe(0xe40c292c);
    expect(idHash("foobar")).toBe(0xbf9cf968);
    expect(blockOfId("a", 7)).toBe(0xe40c292c % 7);
  });
});

describe("the site's server", () => {
  it("answers a range with 206 and exactly those bytes, a suffix range, an unsatisfiable one with 416, and no range with the whole file", async () => {
    expect(requestedRange("bytes=0-3", 10)).toEqual({start: 0, end: 3});
    expect(requestedRange("bytes=-4", 10)).toEqual({start: 6, end: 9});
    expect(requestedRange("bytes=8-20", 10)).toEqual({start: 8, end: 9});
    expect(requestedRange("bytes=12-", 10)).toBe("unsatisfiable");
    expect(requestedRange("bytes=0-1,4-5", 10)).toBeNull();
    const dir = tempDir();
    const file = await writeSamplePack(dir);
    const site = await serveStatic(dir);
    closers.push(site.close);
    const url = `${site.origin}/sample.bin`;
    const part = await fetch(url, {headers: {Range: "bytes=0-3"}});
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-3/${statSync(file).size}`);
    expect(await part.text()).toBe("SVP1");
    const beyond = await fetch(url, {headers: {Range: `bytes=${statSync(file).size}-`}});
    expect(beyond.status).toBe(416);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect((await whole.arrayBuffer()).byteLength).toBe(statSync(file).size);
  });
});

describe("openPack", () => {
  it("reads the header, then one block with one index read and one block read, and keeps it", async () => {
    const dir = tempDir();
    await writeSamplePack(dir);
    const site = await serveStatic(dir);
    closers.push(site.close);
    const log: {range: string | null; status: number; bytes: number}[] = [];
    const pack = await openPack(`${site.origin}/sample.bin`, {fetchFn: countingFetch(log)});
    expect(pack.ranged).toBe(true);
    expect(pack.header).toMatchObject({kind: "test", parts: ["a", "b"], blocks: 3});
    expect(await pack.block(0)).toEqual({a: [{id: "x", n: 1}, {id: "y", n: 2}], b: [{id: "x", text: "<b>hi</b>"}]});
    expect(await pack.block(1)).toEqual({a: [{id: "z", n: 3}], b: []});
    expect(await pack.block(2)).toEqual({a: [], b: [{id: "w", text: "é"}]});
    await pack.block(1);
    // The header (one read of the first 4 KB), then an index entry (8 + 4·2 = 16 bytes) and the block, for each of the three blocks; block 1 again costs nothing.
    expect(log.map((r) => r.status)).toEqual([206, 206, 206, 206, 206, 206, 206]);
    expect(log[0].range).toBe("bytes=0-4095");
    expect(log.filter((_, i) => i % 2 === 1).map((r) => r.bytes)).toEqual([16, 16, 16]);
    await expect(pack.block(3)).rejects.toThrow("no block 3 in a pack of 3");
  });

  it("reads a small pack whole from a server that ignores ranges, and refuses a large one with what to do", async () => {
    const dir = tempDir();
    const file = await writeSamplePack(dir);
    const size = statSync(file).size;
    let requests = 0;
    // Like `python3 -m http.server`: every answer is the whole file, status 200.
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(200, {"content-length": String(size), "content-type": "application/octet-stream"});
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    closers.push(() => new Promise((ok) => server.close(() => ok())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sample.bin`;

    const pack = await openPack(url);
    expect(pack.ranged).toBe(false);
    expect(await pack.block(2)).toEqual({a: [], b: [{id: "w", text: "é"}]});
    expect(requests).toBe(1);

    const refused = openPack(url, {wholeFileLimit: size - 1});
    await expect(refused).rejects.toBeInstanceOf(RangeUnsupportedError);
    await expect(openPack(url, {wholeFileLimit: size - 1})).rejects.toThrow(
      "This server ignores HTTP range requests, so opening one episode would download the whole 0.0 MB episode file. " +
        "Serve the site with a server that honours them: `npm run serve` (or `observable preview`, nginx, Caddy, GitHub Pages, Netlify, S3); `python3 -m http.server` does not.",
    );
  });

  it("names a file that is not a pack", async () => {
    const dir = tempDir();
    const out = createWriteStream(join(dir, "other.bin"));
    out.end("PAR1 not a pack");
    await finished(out);
    const site = await serveStatic(dir);
    closers.push(site.close);
    await expect(openPack(`${site.origin}/other.bin`)).rejects.toThrow(`${site.origin}/other.bin is not an episode pack (starts with "PAR1", expected "SVP1")`);
  });
});
