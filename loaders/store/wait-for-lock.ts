// DuckDB lets one process write a store file, and nobody read it meanwhile:
// the writer holds an exclusive lock for as long as it has the file open (an
// import, a judge run). Whoever only needs the store for a moment (the site's
// build and loaders, `npm run store`) waits for it, saying why, instead of
// failing with DuckDB's lock error.

import {basename} from "node:path";
import {openStore, type Store} from "./db.js";

/** How long to wait for the store by default: long enough for a sample import, short enough that a stuck process is noticed. */
export const DEFAULT_LOCK_WAIT_MS = 120_000;

/** Between two attempts to open the store. */
const POLL_MS = 250;

/** DuckDB's error when another process holds a conflicting lock on the file. */
export const isLockError = (e: unknown): boolean => /Could not set lock on file/.test((e as Error)?.message ?? "");

/** The longest wait in force: SOCIOMETER_LOCK_WAIT_SECONDS when it is a whole number of seconds (0 = do not wait), else DEFAULT_LOCK_WAIT_MS. */
export function lockWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SOCIOMETER_LOCK_WAIT_SECONDS;
  if (raw === undefined || raw === "") return DEFAULT_LOCK_WAIT_MS;
  if (!/^[0-9]+$/.test(raw)) throw new Error(`SOCIOMETER_LOCK_WAIT_SECONDS must be a whole number of seconds, not ${JSON.stringify(raw)}`);
  return Number(raw) * 1000;
}

export interface WaitOptions {
  readOnly?: boolean;
  /** The longest wait; default lockWaitMs(). */
  waitMs?: number;
  /** Told once, when the first attempt finds the store in use. */
  onWait?: (message: string) => void;
}

/**
 * Runs `attempt` (something that opens the store at `path`), again and again
 * while another process holds the store. Past the wait, throws an error that
 * names the store file (its name only) and says what to do; any other error
 * is thrown as it is.
 */
export async function whenFree<T>(path: string, attempt: () => Promise<T>, o: Omit<WaitOptions, "readOnly"> = {}): Promise<T> {
  const waitMs = o.waitMs ?? lockWaitMs();
  const onWait = o.onWait ?? ((message: string) => process.stderr.write(`${message}\n`));
  const started = Date.now();
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (e) {
      if (!isLockError(e)) throw e;
      const waited = Date.now() - started;
      if (waited >= waitMs) {
        throw new Error(`the store ${basename(path)} is in use by another process (an import or a judge run writing to it), ` +
          `still after ${Math.round(waited / 1000)} s: let it finish and run again, or wait longer with SOCIOMETER_LOCK_WAIT_SECONDS`);
      }
      if (tries === 0) onWait(`store: ${basename(path)} is in use by another process (an import or a judge run?); waiting up to ${Math.round(waitMs / 1000)} s for it to finish…`);
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, waitMs - waited)));
    }
  }
}

/** Opens the store, waiting while another process holds it (whenFree). */
export function openStoreWhenFree(path: string, o: WaitOptions = {}): Promise<Store> {
  return whenFree(path, () => openStore(path, {readOnly: o.readOnly}), o);
}
