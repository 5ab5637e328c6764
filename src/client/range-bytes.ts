// Byte ranges of one file on the site, for the packs pages read a block at a
// time (the episode viewer's, the run comparison's): by HTTP range requests,
// or the whole file at once from a server that ignores them, if it is small.

/** Bytes [start, end) of a file, however the server delivers them. */
export type ReadBytes = (start: number, end: number) => Promise<Uint8Array>;

/** What a reader fetched: requests and bytes, for progress notes and benchmarks. */
export interface FetchCount {
  requests: number;
  bytes: number;
}

/** Thrown when the server answers a range request with the whole file and the file is too large to take whole. */
export class RangeUnsupportedError extends Error {}

export interface RangedBytesOptions {
  /** Bytes asked for first (the start of the file, where a pack keeps its header). */
  firstRead: number;
  /** Up to this size a file is taken whole from a server that ignores range requests. */
  wholeFileLimit: number;
  /** What the page would have had to download, as the refusal says it: "opening one episode would download the whole 1.2 MB episode file". */
  refusal: (size: string) => string;
  /** Counted as the reader fetches, when given. */
  count?: FetchCount;
}

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/**
 * Reads from `url` with range requests; when the first answer is the whole
 * file (status 200, the server ignored `Range`), keeps it in memory if it is
 * at most `wholeFileLimit` bytes, else stops with RangeUnsupportedError naming
 * servers that honour ranges.
 */
export async function openRangedBytes(url: string, fetchFn: typeof fetch, options: RangedBytesOptions): Promise<{read: ReadBytes; first: Uint8Array; ranged: boolean}> {
  const count = options.count ?? {requests: 0, bytes: 0};
  const response = await fetchFn(url, {headers: {Range: `bytes=0-${options.firstRead - 1}`}});
  count.requests++;
  if (response.status === 206) {
    const first = new Uint8Array(await response.arrayBuffer());
    count.bytes += first.length;
    const read: ReadBytes = async (start, end) => {
      if (end <= start) return new Uint8Array(0);
      const r = await fetchFn(url, {headers: {Range: `bytes=${start}-${end - 1}`}});
      count.requests++;
      if (r.status !== 206) throw new Error(`expected bytes ${start}–${end - 1} of ${url} (status 206), got status ${r.status} ${r.statusText}`);
      const bytes = new Uint8Array(await r.arrayBuffer());
      count.bytes += bytes.length;
      if (bytes.length !== end - start) throw new Error(`expected ${end - start} bytes at ${start} of ${url}, got ${bytes.length}`);
      return bytes;
    };
    return {read, first, ranged: true};
  }
  if (response.status !== 200) throw new Error(`cannot load ${url}: ${response.status} ${response.statusText}`);
  const length = Number(response.headers.get("content-length"));
  if (Number.isFinite(length) && length > options.wholeFileLimit) {
    await response.body?.cancel();
    throw new RangeUnsupportedError(
      `This server ignores HTTP range requests, so ${options.refusal(mb(length))}. ` +
        "Serve the site with a server that honours them: `npm run serve` (or `observable preview`, nginx, Caddy, GitHub Pages, Netlify, S3); `python3 -m http.server` does not.",
    );
  }
  const whole = new Uint8Array(await response.arrayBuffer());
  count.bytes += whole.length;
  return {read: async (start, end) => whole.subarray(start, end), first: whole, ranged: false};
}
