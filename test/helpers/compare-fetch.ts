// A fetch of one local file that answers range requests as a static server
// does, counting nothing itself (the pack counts what it fetched): how Node
// reads a compare pack (src/client/compare-pack.ts) in tests and benchmarks.

import {closeSync, fstatSync, openSync, readSync} from "node:fs";

/** `ranges: false` answers every request with the whole file, as `python3 -m http.server` does. */
export function fileFetch(file: string, {ranges = true} = {}): typeof fetch {
  return (async (_url: string, init?: RequestInit) => {
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      const range = /bytes=(\d+)-(\d+)/.exec(new Headers(init?.headers).get("range") ?? "");
      const start = ranges && range ? Number(range[1]) : 0;
      const end = ranges && range ? Math.min(Number(range[2]) + 1, size) : size;
      const bytes = new Uint8Array(end - start);
      readSync(fd, bytes, 0, bytes.length, start);
      return ranges && range ? new Response(bytes, {status: 206}) : new Response(bytes, {status: 200, headers: {"content-length": String(size)}});
    } finally {
      closeSync(fd);
    }
  }) as typeof fetch;
}
