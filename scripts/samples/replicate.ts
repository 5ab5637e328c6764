// Copies of the bundled sample logs of LIFELONG-SOTOPIA, HSII, STSS and
// InformativeBench under new episode identities, so a store can hold k times a
// benchmark's sample episodes in the same groups (models, memory modes, chain
// indices, tasks, datasets, questions): what a store looks like after many
// imports of the same kind of run, and such a store itself (makeReplicatedStore).
// Used to show (bench/pack-growth.ts) and to test (test/data/first-view-growth.test.ts,
// through test/helpers/shared-stores.ts) whether a page's first view grows
// with the episodes of its benchmark.

import {readFileSync, rmSync, writeFileSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {importFiles} from "../../loaders/import/session.js";
import {importSamples} from "../../loaders/samples.js";
import {openStore} from "../../loaders/store/db.js";

const SAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), "../../data/samples");

/** The formats replicated, each with its sample file and how copy `copy` of one record is told apart. */
export const REPLICATED: readonly {format: string; file: string; rename: (record: Record<string, unknown>, copy: number) => void}[] = [
  // A chain copy keeps its model, memory mode and chain indices: only the chain and episode names change.
  {format: "lifelong", file: "lifelong/chains.jsonl", rename: (r, c) => {
    r.episode_id = `${String(r.episode_id)}-copy${c}`;
    r.chain_id = `${String(r.chain_id)}-copy${c}`;
  }},
  {format: "hsii", file: "hsii/runs.jsonl", rename: (r, c) => {
    r.episode_id = `hsii|${String(r.model)}|${String(r.case_id)}|${r.cot ? "cot" : "plain"}|copy${c}`;
  }},
  {format: "stss", file: "stss/conversations.jsonl", rename: (r, c) => {
    r.conversation_id = `${String(r.conversation_id)}-copy${c}`;
  }},
  {format: "stss-action", file: "stss/actions.jsonl", rename: (r, c) => {
    r.run = `${typeof r.run === "string" ? `${r.run}-` : ""}copy${c}`;
  }},
  {format: "informativebench", file: "informativebench/results.jsonl", rename: (r, c) => {
    r.run = `${typeof r.run === "string" ? `${r.run}-` : ""}copy${c}`;
  }},
];

/** Copies 1..copies of a sample file's records as JSONL text (the samples themselves are copy 0). */
export function replicatedJsonl(entry: (typeof REPLICATED)[number], copies: number): string {
  const lines = readFileSync(join(SAMPLES, entry.file), "utf8").split("\n").filter((l) => l.trim() !== "");
  const out: string[] = [];
  for (let c = 1; c <= copies; c++) {
    for (const line of lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      entry.rename(record, c);
      out.push(JSON.stringify(record));
    }
  }
  return out.length ? `${out.join("\n")}\n` : "";
}

/** The samples plus `copies` more of the four benchmarks' sample logs. */
export async function makeReplicatedStore(path: string, dir: string, copies: number): Promise<void> {
  rmSync(path, {force: true});
  const store = await openStore(path);
  try {
    await importSamples(store);
    for (const entry of REPLICATED) {
      if (copies === 0) continue;
      const file = join(dir, `${entry.format}-${copies}.jsonl`);
      writeFileSync(file, replicatedJsonl(entry, copies));
      await importFiles(store, entry.format, [file], {});
      rmSync(file, {force: true});
    }
  } finally {
    store.close();
  }
}
