// `sociometer compare` with the pairing done in DuckDB: the two sides' rows
// are averaged into items and joined key by key in SQL, and only the paired
// values (plus the unpaired items, listed) reach JS, as src/lib/compare.ts
// PairedMetric. pairItems in the library does the same from rows; the CLI
// tests hold the two to the same numbers.

import type {DuckDBConnection, DuckDBDataChunk} from "@duckdb/node-api";
import {distinguishingKeys, SIDE_KEYS, sideWhere, type Pairing, type PairedMetric, type Side, type SideKey} from "../../src/lib/compare.js";

/**
 * Per two models (model_a < model_b) and rater (null: rows with none), the
 * (metric, item) both have, over the rows of `rowsSql` (of the first `models`
 * models only, bound after its own parameters, when given; of one rater and the
 * rows with none, bound last, when `rater`): src/lib/compare.ts ModelPairCount,
 * from which the default sides are chosen. Items as a comparison of two models
 * keys them: the task, and the setting, memory and COT neither side names.
 */
export const modelPairsSql = (rowsSql: string, models = 0, rater = false): string => `
WITH items AS (
  -- An item as one 64-bit hash (a collision would only shift a count by one): joining on it took 60% of the time of its five texts.
  SELECT DISTINCT hash(metric, task, rater, setting, memory, cot) AS item, model, rater FROM (${rowsSql})
  WHERE model IS NOT NULL${models ? ` AND model IN (${Array(models).fill("?").join(", ")})` : ""}${rater ? " AND (rater = ? OR rater IS NULL)" : ""})
SELECT a.model AS model_a, b.model AS model_b, a.rater AS rater, count(*)::INTEGER AS pairs
FROM items a JOIN items b ON a.item = b.item AND a.model < b.model
GROUP BY ALL`;

/** A vector with no nulls in it (codes are coalesced, values are not null). */
type Column<T> = {getItem(index: number): T};

let staged = 0;

/** Runs `sql` and hands each chunk to `each`. */
export async function readChunks(conn: DuckDBConnection, sql: string, each: (chunk: DuckDBDataChunk) => void, params: string[] = []): Promise<void> {
  const result = await conn.run(sql, params);
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) each(chunk);
}

/**
 * Reads `numbers` (DOUBLE) and `texts` (VARCHAR, null allowed) columns of a
 * query into arrays, each text decoded once per distinct value: decoding
 * every cell (a view and a TextDecoder call each) cost more than the query
 * at 100k episodes, and an episode id or a key recurs across metrics.
 */
export async function readCoded(conn: DuckDBConnection, sql: string, numbers: readonly string[], texts: readonly string[], orderBy: string, params: string[] = []):
  Promise<{numbers: Float64Array[]; texts: (string | null)[][]}> {
  const stage = `compare_coded_${++staged}`;
  const dict = (c: string) => `${stage}_${c}`;
  await conn.run(`CREATE TEMP TABLE ${stage} AS ${sql}`, params);
  try {
    const dictionaries: string[][] = [];
    for (const c of texts) {
      await conn.run(`CREATE TEMP TABLE ${dict(c)} AS SELECT ${c} AS text, (row_number() OVER () - 1)::INTEGER AS code FROM (SELECT DISTINCT ${c} FROM ${stage} WHERE ${c} IS NOT NULL)`);
      const values: string[] = [];
      await readChunks(conn, `SELECT text, code FROM ${dict(c)}`, (chunk) => {
        const text = chunk.getColumnVector(0) as unknown as Column<string>;
        const code = chunk.getColumnVector(1) as unknown as Column<number>;
        for (let r = 0; r < chunk.rowCount; r++) values[code.getItem(r)] = text.getItem(r);
      });
      dictionaries.push(values);
    }
    const select = [...numbers.map((c) => `s.${c}::DOUBLE`), ...texts.map((c) => `coalesce(${dict(c)}.code, -1)`)].join(", ");
    const joins = texts.map((c) => `LEFT JOIN ${dict(c)} ON ${dict(c)}.text = s.${c}`).join(" ");
    const numberParts: number[][] = numbers.map(() => []);
    const textOut: (string | null)[][] = texts.map(() => []);
    await readChunks(conn, `SELECT ${select} FROM ${stage} s ${joins} ORDER BY ${orderBy.replace(/\b(\w+)\b/g, "s.$1")}`, (chunk) => {
      for (let c = 0; c < numbers.length; c++) {
        const v = chunk.getColumnVector(c) as unknown as Column<number>;
        const into = numberParts[c];
        for (let r = 0; r < chunk.rowCount; r++) into.push(v.getItem(r));
      }
      for (let c = 0; c < texts.length; c++) {
        const v = chunk.getColumnVector(numbers.length + c) as unknown as Column<number>;
        const values = dictionaries[c];
        const into = textOut[c];
        for (let r = 0; r < chunk.rowCount; r++) {
          const code = v.getItem(r);
          into.push(code < 0 ? null : values[code]);
        }
      }
    });
    return {numbers: numberParts.map((p) => Float64Array.from(p)), texts: textOut};
  } finally {
    for (const c of texts) await conn.run(`DROP TABLE IF EXISTS ${dict(c)}`);
    await conn.run(`DROP TABLE IF EXISTS ${stage}`);
  }
}

/**
 * The paired metrics of two sides over `rowsSql` (a benchmark's compare rows,
 * in their order, with `?` bound to rowsParams), as pairItems gives them from the same rows: items averaged
 * in row order, keyed by task or instance and the matched keys, paired keys
 * sorted as JS sorts them. Also the matched keys some row has a value of.
 */
export async function pairInStore(conn: DuckDBConnection, rowsSql: string, rowsParams: string[], a: Side, b: Side, pairing: Pairing, matched: readonly SideKey[]):
  Promise<{paired: PairedMetric[]; matchedPresent: SideKey[]; shared: string[]}> {
  const id = ++staged;
  const rowsTable = `compare_rows_${id}`;
  const itemsTable = `compare_items_${id}`;
  const sidedTable = `compare_sided_${id}`;
  const x = sideWhere(a);
  const y = sideWhere(b);
  // Keys come from SIDE_KEYS, never from input; values are bound.
  const key = [pairing, ...matched.map((k) => `coalesce(' | ${k} ' || ${k}, '')`)].join(" || ");
  // A row with none of the keys the sides differ on is on both sides alike (src/lib/compare.ts distinguishingKeys).
  const apart = distinguishingKeys(a, b).map((k) => `${k} IS NOT NULL`).join(" OR ") || "false";
  // Only the columns pairing reads (the key's one of task and instance), in the rows' order: a table made from an ordered
  // query keeps that order, so its rowid is the row's place (a row_number() window over 1.6M rows, and the unused key's
  // text, were a third of this step at 100k episodes).
  await conn.run(`CREATE TEMP TABLE ${rowsTable} AS SELECT episode_id, ${pairing}, cluster, metric, kind, value::DOUBLE AS value, ${SIDE_KEYS.join(", ")} FROM (${rowsSql})`,
    rowsParams);
  const rows = `(SELECT rowid AS seq, * FROM ${rowsTable})`;
  try {
    await conn.run(`CREATE TEMP TABLE ${sidedTable} AS
      SELECT 'A' AS side, seq, metric, ${key} AS key, value, episode_id, cluster FROM ${rows} WHERE (${x.sql}) AND (${apart})
      UNION ALL
      SELECT 'B' AS side, seq, metric, ${key} AS key, value, episode_id, cluster FROM ${rows} WHERE (${y.sql}) AND (${apart})`, [...x.params, ...y.params]);
    // An item's value is its rows summed in row order, then divided, as pairItems does. Two values
    // sum the same in any order; the few items of three rows or more are summed again in order,
    // since an ordered aggregate over every item doubles the cost of this step.
    await conn.run(`CREATE TEMP TABLE ${itemsTable} AS
      SELECT side, metric, key, sum(value) / count(*) AS value, count(*) AS rows, min(episode_id) AS episode, arg_min(cluster, seq) AS cluster, min(seq) AS first
      FROM ${sidedTable} GROUP BY side, metric, key`);
    await conn.run(`UPDATE ${itemsTable} i SET value = o.value FROM (
        SELECT s.side, s.metric, s.key, sum(s.value ORDER BY s.seq) / count(*) AS value
        FROM ${sidedTable} s SEMI JOIN (SELECT side, metric, key FROM ${itemsTable} WHERE rows >= 3) m ON m.side = s.side AND m.metric = s.metric AND m.key = s.key
        GROUP BY s.side, s.metric, s.key) o
      WHERE i.side = o.side AND i.metric = o.metric AND i.key = o.key`);
    const present = new Set<SideKey>();
    if (matched.length) {
      const counts = await conn.runAndReadAll(`SELECT ${matched.map((k) => `count(${k})::DOUBLE`).join(", ")} FROM ${rowsTable}`);
      const row = counts.getRows()[0];
      matched.forEach((k, i) => { if (Number(row[i]) > 0) present.add(k); });
    }
    const sharedRows = await readCoded(conn, `SELECT metric, min(seq) AS first FROM ${rows} WHERE (${x.sql}) OR (${y.sql}) GROUP BY metric HAVING NOT bool_or(${apart})`,
      ["first"], ["metric"], "first", [...x.params, ...y.params]);
    const order = await readCoded(conn, `SELECT metric, arg_min(kind, seq) AS kind, min(seq) AS first FROM ${rows} GROUP BY metric`, ["first"], ["metric", "kind"], "first");
    const metrics: PairedMetric[] = order.texts[0].map((metric, i) => ({
      metric: metric!, kind: order.texts[1][i]!, keys: [], valuesA: new Float64Array(0), valuesB: new Float64Array(0), clusters: [], episodesA: [], episodesB: [],
      unpaired: [], averagedA: 0, averagedB: 0,
    }));
    const byName = new Map(metrics.map((m) => [m.metric, m]));
    const averaged = await readCoded(conn, `SELECT metric, side, count(*) FILTER (WHERE rows > 1) AS n FROM ${itemsTable} GROUP BY metric, side`, ["n"], ["metric", "side"], "metric, side");
    averaged.texts[0].forEach((metric, i) => {
      const m = byName.get(metric!)!;
      if (averaged.texts[1][i] === "A") m.averagedA = averaged.numbers[0][i];
      else m.averagedB = averaged.numbers[0][i];
    });
    const lonely = await readCoded(conn, `SELECT x.side, x.metric, x.key, x.episode, x.first FROM ${itemsTable} x
      WHERE NOT EXISTS (SELECT 1 FROM ${itemsTable} y WHERE y.side <> x.side AND y.metric = x.metric AND y.key = x.key)`, ["first"], ["side", "metric", "key", "episode"], "side, first");
    lonely.texts[1].forEach((metric, i) => {
      byName.get(metric!)!.unpaired.push({side: lonely.texts[0][i] as "A" | "B", item: lonely.texts[2][i]!, episode: lonely.texts[3][i]!});
    });
    const pairs = await readCoded(conn, `SELECT x.metric, x.key, x.value AS va, y.value AS vb, x.cluster, x.episode AS ea, y.episode AS eb
      FROM ${itemsTable} x JOIN ${itemsTable} y ON x.side = 'A' AND y.side = 'B' AND x.metric = y.metric AND x.key = y.key`,
      ["va", "vb"], ["metric", "key", "cluster", "ea", "eb"], "metric, key");
    const [va, vb] = pairs.numbers;
    const [metricOf, keyOf, clusterOf, ea, eb] = pairs.texts;
    const indices = new Map<string, number[]>();
    for (let i = 0; i < metricOf.length; i++) {
      let list = indices.get(metricOf[i]!);
      if (!list) indices.set(metricOf[i]!, (list = []));
      list.push(i);
    }
    for (const m of metrics) {
      const list = indices.get(m.metric) ?? [];
      // JS's order of the keys (UTF-16 code units), which SQL's byte order can differ from.
      list.sort((i, j) => (keyOf[i]! < keyOf[j]! ? -1 : keyOf[i]! > keyOf[j]! ? 1 : 0));
      m.keys = list.map((i) => keyOf[i]!);
      m.valuesA = Float64Array.from(list, (i) => va[i]);
      m.valuesB = Float64Array.from(list, (i) => vb[i]);
      m.clusters = list.map((i) => clusterOf[i]!);
      m.episodesA = list.map((i) => ea[i]!);
      m.episodesB = list.map((i) => eb[i]!);
    }
    // A metric neither side has items of is left out, as pairItems does.
    return {paired: metrics.filter((m) => m.keys.length + m.unpaired.length > 0), matchedPresent: matched.filter((k) => present.has(k)), shared: sharedRows.texts[0].map((m) => m!)};
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${itemsTable}`);
    await conn.run(`DROP TABLE IF EXISTS ${sidedTable}`);
    await conn.run(`DROP TABLE IF EXISTS ${rowsTable}`);
  }
}
