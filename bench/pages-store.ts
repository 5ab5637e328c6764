// The store the page benchmarks run against (pages, build, compare-default):
// the bundled samples plus N synthetic SOTOPIA episodes, with two human
// annotators on one episode in ten. Apart from pages.ts so that the other
// benchmarks make the same store without importing the pages benchmark.

import {rmSync, statSync} from "node:fs";
import {resolve} from "node:path";
import {importFiles} from "../loaders/import/session.js";
import {importSamples} from "../loaders/samples.js";
import {openStore, type Store} from "../loaders/store/db.js";
import {writeSotopiaDump} from "./dump.js";
import {mb} from "./helpers.js";

const SEED = "bench-pages";

/** Writes `n` synthetic SOTOPIA episodes (the samples' short style) as a dump, streaming. */
async function writeDump(file: string, n: number): Promise<void> {
  await writeSotopiaDump(file, {seed: SEED, count: n, style: "sample"});
}

/**
 * Two annotators' scores of every instance of one synthetic episode in ten
 * (by a hash of its id), near the judge's score and inside the dimension's
 * range, written by DuckDB as the CSV `import sotopia-ratings` reads.
 */
async function writeHumanRatings(store: Store, sourcePath: string, file: string): Promise<void> {
  const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
  await store.conn.run(`COPY (
    SELECT r.episode_id, r.agent, r.dimension, a.rater,
           greatest(d.lo, least(d.hi, r.value + a.shift))::INTEGER AS value, 'bench' AS rationale
    FROM ratings r
    JOIN episodes e USING (episode_id)
    JOIN sources s ON s.source_id = e.source_id
    JOIN dimensions d ON d.dimension = r.dimension AND d.benchmark = 'sotopia'
    CROSS JOIN (VALUES ('annotator-a', 0), ('annotator-b', 1)) a(rater, shift)
    WHERE s.path = ${quote(sourcePath)} AND r.rater_kind = 'llm' AND hash(r.episode_id) % 10 = 0
    ORDER BY r.episode_id, r.agent, r.dimension, a.rater
  ) TO ${quote(file)} (HEADER, DELIMITER ',')`);
}

/** The samples, plus `n` synthetic SOTOPIA episodes with human ratings on 10% of them when n > 0. */
export async function makeStore(path: string, dir: string, n: number, log: (m: string) => void): Promise<void> {
  const store = await openStore(path);
  try {
    await importSamples(store);
    if (n === 0) return;
    const dump = resolve(dir, `sotopia-${n}.jsonl`);
    await writeDump(dump, n);
    log(`pages: importing ${n.toLocaleString("en-US")} episodes (${mb(statSync(dump).size)})`);
    await importFiles(store, "sotopia", [dump], {});
    const csv = resolve(dir, `human-${n}.csv`);
    await writeHumanRatings(store, dump, csv);
    await importFiles(store, "sotopia-ratings", [csv], {});
    rmSync(dump, {force: true});
  } finally {
    store.close();
  }
}
