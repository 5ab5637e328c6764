// What an import format is: the contract between the import session and each
// format's reader. It lives apart from registry.ts, which lists the formats, so
// that a format imports the contract without importing the list it is in.

import type {ReadItem} from "./records.js";
import type {SourceFile} from "./source-file.js";
import type {Store} from "../store/db.js";

/** What a reader may ask of the import it runs in. */
export interface ReadContext {
  /**
   * Reads from the store what hasEpisode, seatsOf and modelsOf answer for these
   * episodes. A format that scores stored episodes (scoresStoredEpisodes) names
   * the episodes it refers to here before asking about them, so an import reads
   * those episodes alone, not every episode of the store.
   */
  lookUpEpisodes(episodeIds: Iterable<string>): Promise<void>;
  /** Is the episode in the store, or earlier in this import? */
  hasEpisode(episodeId: string): boolean;
  /** Participant names by seat (index 0 = seat 1) of a known episode. */
  seatsOf(episodeId: string): string[];
  /** Model names by seat of a known episode, as its log gives them. */
  modelsOf(episodeId: string): string[];
  /** Bytes of the current file read so far. */
  onProgress(bytesRead: number): void;
  /** The file being read, opened: read it only through this, so its fingerprint is of the bytes parsed (see source-file.ts). */
  source: SourceFile;
}

export interface ImportFormat {
  name: string;
  /**
   * The version of the reader, raised whenever a change to it changes the rows
   * a file gives. A stored file read by an older version is read again when it
   * is imported again, though its bytes are the same.
   */
  readerVersion: number;
  description: string;
  /** The format scores episodes already in the store: its reader looks them up (ReadContext.lookUpEpisodes) before asking about them. */
  scoresStoredEpisodes?: boolean;
  /** The reader asks hasEpisode about stored episodes it cannot name ahead (STSS results, about their task definitions): the import reads every stored episode id first. */
  asksAboutStoredEpisodes?: boolean;
  read(path: string, ctx: ReadContext): AsyncIterable<ReadItem> | Iterable<ReadItem>;
  /** Checks across records (and the store) once everything is read, before the import commits; throws ImportError. */
  verify?(store: Store): Promise<void>;
}
