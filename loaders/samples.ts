// The bundled synthetic sample logs, and importing them into a store.

import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {importFiles, type ImportSummary} from "./import/session.js";
import type {Progress} from "./progress.js";
import type {Store} from "./store/db.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The sample files in import order (episodes before the ratings that refer to them). */
export const SAMPLE_IMPORTS: readonly {format: string; path: string}[] = [
  {format: "sotopia", path: join(ROOT, "data/samples/sotopia/episodes.jsonl")},
  {format: "sotopia-ratings", path: join(ROOT, "data/samples/sotopia/human_ratings.csv")},
  {format: "sotopia-ratings", path: join(ROOT, "data/samples/sotopia/judge_reruns.csv")},
  {format: "lifelong", path: join(ROOT, "data/samples/lifelong/chains.jsonl")},
  {format: "hsii", path: join(ROOT, "data/samples/hsii/runs.jsonl")},
  {format: "stss-tasks", path: join(ROOT, "data/samples/stss/tasks.json")},
  {format: "stss", path: join(ROOT, "data/samples/stss/conversations.jsonl")},
  {format: "stss-action", path: join(ROOT, "data/samples/stss/actions.jsonl")},
  {format: "informativebench-schedules", path: join(ROOT, "data/samples/informativebench/schedules.jsonl")},
  {format: "informativebench", path: join(ROOT, "data/samples/informativebench/results.jsonl")},
];

export async function importSamples(store: Store, progress?: Progress): Promise<ImportSummary[]> {
  const out: ImportSummary[] = [];
  for (const {format, path} of SAMPLE_IMPORTS) out.push(await importFiles(store, format, [path], {progress}));
  return out;
}
