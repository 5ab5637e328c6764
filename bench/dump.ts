// Synthetic SOTOPIA dumps for the benchmarks that need a large input file or
// store: written as JSONL in 4 MB pieces (never the whole file in memory), to
// a `.partial` file renamed at the end, so a run that is stopped never leaves
// a short file that a later run would take for a finished one.

import {createWriteStream, renameSync} from "node:fs";
import {once} from "node:events";
import {finished} from "node:stream/promises";
import {sotopiaEpisodes, type EpisodeOptions} from "../scripts/samples/sotopia.js";

const PIECE = 4 * 2 ** 20;

/** Writes `options.count` episodes to `file`; `onProgress` hears the count written every 500 episodes and at the end. */
export async function writeSotopiaDump(file: string, options: EpisodeOptions, onProgress?: (written: number) => void): Promise<void> {
  const partial = `${file}.partial`;
  const out = createWriteStream(partial);
  let piece = "";
  let written = 0;
  for (const episode of sotopiaEpisodes(options)) {
    piece += `${JSON.stringify(episode)}\n`;
    if (piece.length >= PIECE) {
      if (!out.write(piece)) await once(out, "drain");
      piece = "";
    }
    if (++written % 500 === 0) onProgress?.(written);
  }
  out.end(piece);
  await finished(out);
  onProgress?.(written);
  renameSync(partial, file);
}
