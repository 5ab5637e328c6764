// What the in-process CLI (cli.ts) and loader runs (run-loader.ts) share: a
// stream that keeps what is written to it, and one queue for both, since each
// run owns process.stdout (and more) while it runs.

import {Writable} from "node:stream";

/** Keeps the bytes written to it, as a pipe's reader would see them. */
export class CapturedOutput extends Writable {
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    done();
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString("utf8");
  }
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs `fn` after every in-process run asked for before it has ended. */
export function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const next = queue.then(fn);
  queue = next.catch(() => undefined);
  return next;
}
