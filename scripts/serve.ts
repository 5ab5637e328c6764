// `npm run serve`: serves the built site (dist/) on loopback the way a static
// host does (/sotopia → sotopia.html), with HTTP range requests, which the
// episode viewer needs for large stores (`python3 -m http.server` ignores them).
//
//   tsx scripts/serve.ts [DIR] [--port 3001] [--host 127.0.0.1]

import {createReadStream, existsSync, statSync} from "node:fs";
import {createServer, type IncomingMessage, type Server, type ServerResponse} from "node:http";
import type {AddressInfo} from "node:net";
import {extname, join, normalize, resolve, sep} from "node:path";
import {fileURLToPath} from "node:url";
import {parseArgs} from "node:util";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".parquet": "application/vnd.apache.parquet",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * The byte range [start, end] (inclusive) that a `Range` header asks of a file
 * of `size` bytes: null for none or one this server does not serve (several
 * ranges), "unsatisfiable" for one outside the file.
 */
export function requestedRange(header: string | undefined, size: number): {start: number; end: number} | null | "unsatisfiable" {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    // A suffix: the last N bytes.
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start > end || start >= size ? "unsatisfiable" : {start, end};
}

/** A request handler serving the files under `dir`. */
export function staticHandler(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const root = resolve(dir);
  return (req, res) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname);
    } catch {
      res.writeHead(400, {"content-type": "text/plain"}).end("bad address");
      return;
    }
    let file = normalize(join(root, pathname));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    else if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
    if (!existsSync(file)) {
      res.writeHead(404, {"content-type": "text/plain"}).end("not found");
      return;
    }
    const {size} = statSync(file);
    const headers = {"content-type": TYPES[extname(file)] ?? "application/octet-stream", "accept-ranges": "bytes"};
    const range = requestedRange(req.headers.range, size);
    if (range === "unsatisfiable") {
      res.writeHead(416, {...headers, "content-range": `bytes */${size}`}).end();
      return;
    }
    const {start, end} = range ?? {start: 0, end: size - 1};
    const status = range ? 206 : 200;
    res.writeHead(status, {...headers, "content-length": String(Math.max(0, end - start + 1)), ...(range ? {"content-range": `bytes ${start}-${end}/${size}`} : {})});
    if (req.method === "HEAD" || size === 0) {
      res.end();
      return;
    }
    createReadStream(file, {start, end}).pipe(res);
  };
}

/** Serves `dir` on `host`:`port` (0: any free port); resolves once listening. */
export async function serveStatic(dir: string, {port = 0, host = "127.0.0.1"} = {}): Promise<{origin: string; server: Server; close(): Promise<void>}> {
  const server = createServer(staticHandler(dir));
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, ok);
  });
  const address = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${address.port}`,
    server,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const {values, positionals} = parseArgs({allowPositionals: true, options: {port: {type: "string"}, host: {type: "string"}}});
  const dir = positionals[0] ?? "dist";
  if (!existsSync(dir)) {
    process.stderr.write(`no ${dir}/ to serve: run \`npm run build\` first\n`);
    process.exit(1);
  }
  const {origin} = await serveStatic(dir, {port: Number(values.port ?? 3001), host: values.host ?? "127.0.0.1"});
  process.stdout.write(`serving ${dir}/ on ${origin} (with range requests); Ctrl-C stops\n`);
}
