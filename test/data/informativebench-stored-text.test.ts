// The InformativeBench page scores answers from their text as stored, as
// `report informativebench` does, and ships that text redacted: a prediction
// and a gold answer that both hold a "password: …" would otherwise both read
// "[redacted]" and match (found by the page audit: the page said 3 of 3 where
// the report said 1 of 3).

import {readFileSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {openStore} from "../../loaders/store/db.js";
import {readIbFirstView} from "../../src/client/informativebench.js";
import {decodePack} from "../../src/client/tables.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempDir} from "../helpers/store.js";

const record = (questionId: string, prediction: string, gold: string) => JSON.stringify({
  model: "gpt-4", dataset: "NP", settings: {infonav: true, memory: [], recursive: false}, turns: 2, synthetic: true,
  question_id: questionId, question: `Question ${questionId}?`, prediction, gold,
});

async function storeOf(lines: readonly string[]): Promise<string> {
  const dir = tempDir();
  const log = join(dir, "ib.jsonl");
  writeFileSync(log, `${lines.join("\n")}\n`);
  const path = join(dir, "store.duckdb");
  const store = await openStore(path);
  try {
    await importFiles(store, "informativebench", [log], {});
  } finally {
    store.close();
  }
  return path;
}

const SECRETS = ["hunter22", "swordfish", "qwerty123"];

describe("InformativeBench answers holding key-shaped text", () => {
  it("are scored as stored on the first view and in the per-record scores, and shipped redacted", async () => {
    // By hand (exact match, precision): np-1 "password: hunter22" ≠ "password: swordfish" → 0; np-2 "jazz" = "Jazz" → 1;
    // np-3 "The wifi password: qwerty123" ≠ "qwerty123" → 0, but under contains the gold is inside it → 1.
    const path = await storeOf([
      record("np-1", "password: hunter22", "password: swordfish"),
      record("np-2", "jazz", "Jazz"),
      record("np-3", "The wifi password: qwerty123", "qwerty123"),
    ]);
    const first = readIbFirstView(decodePack(new Uint8Array(await runLoaderInProcess("src/data/informativebench-first-view.bin.ts", {store: path})), "first") as never);
    const cell = first.table.cells.find((c) => c.model === "gpt-4" && c.dataset === "NP")!;
    expect({n: cell.n, correct: cell.correct, value: cell.value}).toEqual({n: 3, correct: 1, value: 1 / 3});

    const packed = new Uint8Array(await runLoaderInProcess("src/data/informativebench-rows.bin.ts", {store: path}));
    const pack = decodePack(packed, "rows");
    const results = pack.ib_results!;
    expect(results.map((r) => r.question_id)).toEqual(["np-1", "np-2", "np-3"]);
    expect(results.map((r) => [r.prediction, r.gold])).toEqual([["[redacted]", ["[redacted]"]], ["jazz", ["Jazz"]], ["The wifi [redacted]", ["qwerty123"]]]);
    expect(pack.ib_scores!.map((s) => [s.score_exact, s.score_contains])).toEqual([[0, 0], [1, 1], [0, 1]]);
    // Nothing either pack ships holds the secrets, in any table.
    const text = new TextDecoder().decode(packed) + JSON.stringify(first);
    for (const secret of SECRETS.slice(0, 2)) expect(text).not.toContain(secret);
  }, 120_000);
});
