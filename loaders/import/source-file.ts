// One source file as an import reads it. Every byte a parser sees passes
// through here, in file order, and is hashed; the file's identity (inode, size,
// modification and change times) is checked from the import's first look at
// it to its last. So the sha256 recorded for a source is the hash of exactly
// the bytes its rows came from, and a file that changes while it is imported
// is refused instead of landing half old, half new.

import {closeSync, fstatSync, openSync, readSync, statSync, type Stats} from "node:fs";
import {Worker} from "node:worker_threads";
import {ImportError} from "./errors.js";

// Hashing runs on a thread of its own, fed the very buffers the parsers read
// (transferred, not copied), so the import's own thread only posts them on.
// Each buffer goes back once hashed, to be read into again: a fresh 4 MiB
// buffer a read cost the kernel a page fault and a cleared page every 4 KiB
// (about a tenth of an import's CPU, by perf).
const HASH_THREAD = `
const {parentPort} = require("node:worker_threads");
const {createHash} = require("node:crypto");
const hash = createHash("sha256");
parentPort.on("message", (bytes) => {
  if (bytes === "digest") {
    parentPort.postMessage(hash.digest("hex"));
    parentPort.close();
  } else {
    hash.update(bytes);
    parentPort.postMessage(bytes.buffer, [bytes.buffer]);
  }
});
`;

/** Bytes of one read of a file being imported. */
export const READ_CHUNK_BYTES = 1 << 22;

/** Hashed read buffers kept for reuse, at most (more are left to the collector). */
const MAX_SPARE = 8;

/** What identifies a version of a file; ctime too, since writing a file and then restoring its mtime (cp -p, touch -r) still moves ctime. */
export interface FileState {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export const fileState = (s: Stats): FileState => ({dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs});

const sameState = (a: FileState, b: FileState): boolean =>
  a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

const changed = (path: string, how: string): ImportError =>
  new ImportError(path, null, null, `the file changed while it was being imported (${how}); nothing was imported, import it again once it is complete`);

export class SourceFile {
  readonly fd: number;
  readonly size: number;
  private readonly state: FileState;
  private hashThread: Worker | null;
  private hashFailure: Error | null = null;
  /** Bytes passed to the hash so far: the next one must start here. */
  private hashed = 0;
  /** Read buffers the hash thread is done with. */
  private readonly spare: ArrayBuffer[] = [];
  /** Takes the digest once finish asks for it. */
  private onDigest: ((sha: string) => void) | null = null;

  private constructor(readonly path: string, expected: FileState | null, fingerprint: boolean) {
    this.fd = openSync(path, "r");
    this.state = fileState(fstatSync(this.fd));
    this.size = this.state.size;
    if (expected && !sameState(expected, this.state)) {
      closeSync(this.fd);
      throw changed(path, describeChange(expected, this.state));
    }
    this.hashThread = fingerprint ? new Worker(HASH_THREAD, {eval: true}) : null;
    this.hashThread?.on("error", (e) => (this.hashFailure = e));
    this.hashThread?.on("message", (m: ArrayBuffer | string) => {
      if (typeof m === "string") this.onDigest?.(m);
      else if (m.byteLength === READ_CHUNK_BYTES && this.spare.length < MAX_SPARE) this.spare.push(m);
    });
  }

  /** A buffer of READ_CHUNK_BYTES to read into: one the hash thread has finished with, or a new one. */
  readBuffer(): Buffer {
    const spare = this.spare.pop();
    return spare ? Buffer.from(spare) : Buffer.allocUnsafeSlow(READ_CHUNK_BYTES);
  }

  /** A buffer the hash thread has finished with, to hand to another thread that reads (or undefined). */
  spareBuffer(): ArrayBuffer | undefined {
    return this.spare.pop();
  }

  /** Opens `path` for an import; `expected` is the state the import planned with, and the file must still be in it. */
  static open(path: string, expected: FileState): SourceFile {
    return new SourceFile(path, expected, true);
  }

  /** Opens `path` to read it without a fingerprint (outside imports). */
  static untracked(path: string): SourceFile {
    return new SourceFile(path, null, false);
  }

  /**
   * Hands over bytes at offset `at` that a parser has read, the next ones in
   * file order. The caller gives up `bytes.buffer` (it is moved to the hash
   * thread), so it must be a buffer of its own, not a slice of Buffer's pool.
   */
  give(bytes: Uint8Array, at: number): void {
    if (!this.hashThread) return;
    if (at !== this.hashed) {
      // Only a file that changed between two reads makes consecutive segments overlap or leave a gap.
      throw changed(this.path, `its lines no longer meet at byte ${this.hashed}: the next read starts at byte ${at}`);
    }
    this.hashed += bytes.length;
    if (bytes.length) this.hashThread.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
  }

  /** The whole file, read from the start, in one buffer. */
  readAll(): Buffer {
    const bytes = Buffer.allocUnsafeSlow(this.size);
    let got = 0;
    for (let n; got < this.size && (n = readSync(this.fd, bytes, got, this.size - got, got)) > 0; ) got += n;
    const read = bytes.subarray(0, got);
    this.give(Buffer.from(read), 0);
    return read;
  }

  /**
   * The sha256 of the bytes handed over, once they are the whole file and the
   * file, under its path, is still the one opened; otherwise an ImportError.
   * `plannedSha`, when the import hashed the file before reading it, must match.
   */
  async finish(plannedSha: string | null): Promise<string> {
    const thread = this.hashThread;
    if (!thread) throw new Error(`${this.path} was opened without a fingerprint`);
    if (this.hashFailure) throw this.hashFailure;
    if (this.hashed !== this.size) throw changed(this.path, `${this.size} bytes when it was opened, ${this.hashed} read`);
    this.checkUnchanged();
    const sha = await new Promise<string>((resolve, reject) => {
      this.onDigest = resolve;
      thread.once("error", reject);
      thread.postMessage("digest");
    });
    this.hashThread = null;
    if (plannedSha !== null && sha !== plannedSha) throw changed(this.path, "its content is not what it was when the import began");
    return sha;
  }

  /** Throws the ImportError for a file that, under its path, is no longer the one opened. */
  checkUnchanged(): void {
    // The path first: a file moved into its place also changes the open one (its link count, so its ctime).
    let atPath: FileState;
    try {
      atPath = fileState(statSync(this.path));
    } catch {
      throw changed(this.path, "it is no longer there");
    }
    if (atPath.dev !== this.state.dev || atPath.ino !== this.state.ino) throw changed(this.path, "another file took its place");
    const now = fileState(fstatSync(this.fd));
    if (!sameState(this.state, now)) throw changed(this.path, describeChange(this.state, now));
  }

  /** Closes the file, and stops the hash thread if finish was not reached. */
  close(): void {
    void this.hashThread?.terminate();
    this.hashThread = null;
    closeSync(this.fd);
  }
}

function describeChange(before: FileState, after: FileState): string {
  if (before.dev !== after.dev || before.ino !== after.ino) return "it is another file now (a different inode)";
  if (before.size !== after.size) return `its size went from ${before.size} to ${after.size} bytes`;
  if (before.mtimeMs !== after.mtimeMs) return `it was modified at ${new Date(after.mtimeMs).toISOString()}`;
  return `its status changed at ${new Date(after.ctimeMs).toISOString()}`;
}
