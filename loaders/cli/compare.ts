// `sociometer compare <benchmark> --a KEY=VALUE … --b KEY=VALUE …`: two runs
// compared item by item (src/lib/compare.ts), from the rows of
// loaders/queries/compare.ts; the Compare page reads the same rows.

import {resolve} from "node:path";
import {parseCommandLine} from "./args.js";
import {outputFormat, render, type ResultTable} from "./output.js";
import {IB_SOURCES_SQL} from "../queries/compare.js";
import {IB_RESULTS_SQL, IB_SCHEDULES_SQL} from "../queries/informativebench.js";
import {modelPairsSql, pairInStore, readCoded} from "./compare-pairs.js";
import {boundCompareMemory, compareQuery, withStagedQuery} from "./compare-stage.js";
import {defaultStorePath, rows, type Store} from "../store/db.js";
import {openStoreWhenFree} from "../store/wait-for-lock.js";
import {
  BENCHMARK_KEYS, checkedPairing, sideText, type SideKey, COMPARE_BENCHMARKS, comparePaired, compareRuns, matchedKeys, SIDE_KEYS, countedDefaultSides, defaultSides, informativebenchCompareRows, onSide, parseSide, sideBySideHref, sidesWhere, sideWhere,
  type CompareBenchmark, type CompareOptions, type CompareRow, type Comparison, type DefaultSides, type ModelPairCount, type Side,
} from "../../src/lib/compare.js";
import {schedulesFromRows, scoreRows, type IbResultRow, type ScheduleRow} from "../../src/lib/informativebench.js";
import type {WinPolicy} from "../../src/lib/hsii.js";
import {appointmentPartnersNote, WIN_POLICIES, winPolicyNote} from "../../src/client/compare-summary.js";
import {multiplicityMethod} from "../../src/lib/multiplicity.js";
import {INTERVAL_METHODS, type IntervalMethod} from "../../src/lib/resample.js";
import {APPOINTMENT_PARTNERS, type AppointmentPartners} from "../../src/lib/stss.js";
import {unknownName} from "./unknown-name.js";
import {sampleCaution, sampleNotes} from "../../src/lib/compare-small.js";

export const COMPARE_USAGE = "sociometer compare [<benchmark>] [--a KEY=VALUE …] [--b KEY=VALUE …] [--format table|csv|json] [--adjust holm|bh|none] " +
  "[--resamples N] [--seed S] [--interval percentile|bca] [--cluster scenario] [--unpaired] [--changed N] [--win-policy mean|strict|first] [--appointment-partners target|all] [--db FILE]";

/** What --help adds about --win-policy: the choice `report hsii --win-policy` offers, in the same words. */
const WIN_POLICY_HELP = "  --win-policy mean|strict|first: hsii only, how a stage-3/4 win counts over the two orders, as report hsii --win-policy: " +
  "mean (default: win 1, tie 0.5, loss 0, averaged over both orders), strict (a win only when both orders say win), first (the forward order only)";

/** What --help says of --appointment-partners: the choice `report stss --appointment-partners` offers. */
const APPOINTMENT_HELP = "  --appointment-partners target|all: stss only, as report stss: target (default; STSS §3.2: an appointment conversation " +
  "not between the performer and a target person is no item) or all";

/**
 * Runs `fn` with the query of a benchmark's rows (HSII's wins under
 * `winPolicy`), its steps staged (compare-stage.ts); InformativeBench, scored
 * in JS, has none: null.
 */
async function withRowsQuery<T>(store: Store, benchmark: CompareBenchmark, fn: (sql: string | null) => Promise<T>, winPolicy: WinPolicy = "mean",
  appointmentPartners: AppointmentPartners = "target"): Promise<T> {
  return benchmark === "informativebench" ? fn(null) : withStagedQuery(store.conn, compareQuery(benchmark, winPolicy, appointmentPartners), fn);
}

/**
 * The metric values of one benchmark on side A or B (every value without
 * sides), as the comparison reads them: filtered in SQL, so a large store
 * sends only the two sides' rows.
 */
export async function readCompareRows(store: Store, benchmark: CompareBenchmark, sides?: {a: Side; b: Side}, winPolicy: WinPolicy = "mean"): Promise<CompareRow[]> {
  return withRowsQuery(store, benchmark, (sql) => readRowsOver(store, benchmark, sql, sides), winPolicy);
}

/** readCompareRows over the rows' query `sql` (null for InformativeBench). */
async function readRowsOver(store: Store, benchmark: CompareBenchmark, sql: string | null, sides?: {a: Side; b: Side}): Promise<CompareRow[]> {
  if (sql !== null) {
    if (!sides) return readRowsCoded(store, sql);
    const where = sidesWhere(sides.a, sides.b);
    return readRowsCoded(store, `SELECT * FROM (${sql}) WHERE ${where.sql}`, where.params);
  }
  const results = await rows<IbResultRow>(store.conn, IB_RESULTS_SQL);
  const schedules = schedulesFromRows(await rows<ScheduleRow>(store.conn, IB_SCHEDULES_SQL));
  const sources = new Map((await rows<{episode_id: string; source: string}>(store.conn, IB_SOURCES_SQL)).map((r) => [r.episode_id, r.source]));
  const all = informativebenchCompareRows(scoreRows(results, {schedules}), sources);
  return sides ? all.filter((r) => onSide(r, sides.a) || onSide(r, sides.b)) : all;
}

const STRING_COLUMNS = ["episode_id", "task", "instance", "cluster", "metric", "kind", ...SIDE_KEYS] as const;

/** Compare rows, their texts decoded once per distinct value (readCoded), every row the same shape so the library's loops over them stay monomorphic. */
async function readRowsCoded(store: Store, sql: string, params: string[] = []): Promise<CompareRow[]> {
  // row_number() over the ordered query keeps the order the SQL gives (metrics as listed).
  const coded = await readCoded(store.conn, `SELECT row_number() OVER () AS seq, * FROM (${sql})`, ["value"], STRING_COLUMNS, "seq", params);
  const [value] = coded.numbers;
  const [episode, task, instance, cluster, metric, kind, model, rater, run, source, setting, memory, cot] = coded.texts;
  const out: CompareRow[] = [];
  for (let r = 0; r < value.length; r++) {
    out.push({
      episode_id: episode[r]!, task: task[r]!, instance: instance[r]!, cluster: cluster[r]!, metric: metric[r]!, kind: kind[r]!, value: value[r],
      model: model[r], rater: rater[r], run: run[r], source: source[r], setting: setting[r], memory: memory[r], cot: cot[r],
    });
  }
  return out;
}

/** Episodes per model and episodes scored per rater of a benchmark over its rows' query, for the default sides (counted in SQL, not shipped). */
async function defaultsOf(store: Store, benchmark: CompareBenchmark, sql: string | null): Promise<DefaultSides | null> {
  if (sql === null) {
    const all = await readRowsOver(store, benchmark, null);
    return all.length ? defaultSides(benchmark, all) : null;
  }
  // One pass over the rows' query for both counts: at 100k episodes the query itself is most of the cost.
  const counts = await rows<{model: string | null; rater: string | null; by_model: number; episodes: number; n: number}>(store.conn,
    `SELECT model, rater, (1 - grouping(model))::INTEGER AS by_model, count(DISTINCT episode_id)::INTEGER AS episodes, count(*)::INTEGER AS n
     FROM (${sql}) GROUP BY GROUPING SETS ((model), (rater))`);
  const models: {model: string; n: number}[] = [];
  const raters: {rater: string; n: number}[] = [];
  for (const c of counts) {
    if (c.by_model && c.model !== null) models.push({model: c.model, n: c.episodes});
    else if (!c.by_model && c.rater !== null) raters.push({rater: c.rater, n: c.episodes});
  }
  if (!models.length && !raters.length) return null;
  const counted = await countedDefaultSides(benchmark, models, raters,
    (only, rater) => {
      const params = [...(only ?? []), ...(rater === undefined ? [] : [rater])];
      return rows<ModelPairCount>(store.conn, modelPairsSql(sql, only?.length ?? 0, rater !== undefined), params.length ? params : undefined);
    });
  return counted.defaults;
}

const num = (flag: string, value: string | undefined, ok: (n: number) => boolean, what: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!ok(n)) throw new Error(`--${flag} must be ${what}, not ${value}`);
  return n;
};

/** The comparison's tables: one row per metric, the changed items, the unpaired items; an HSII comparison's header names its win policy. */
export function comparisonTables(c: Comparison, winPolicy: WinPolicy = "mean"): ResultTable[] {
  const notes = [c.statement, ...(c.benchmark === "hsii" ? [winPolicyNote(winPolicy)] : []), ...c.notes, ...sampleNotes(c)];
  return [
    {
      title: `Compare ${c.benchmark}: B − A per metric${c.benchmark === "hsii" ? ` (win policy ${winPolicy})` : ""}`,
      notes,
      columns: ["metric", "kind", "n_paired", "caution", "n_unpaired_a", "n_unpaired_b", "mean_a", "mean_b", "difference", "lo", "hi", "boot_lo", "boot_hi", "p", "p_adjusted", "p_wilcoxon", "test"],
      rows: c.metrics.map((m) => ({
        metric: m.metric, kind: m.kind, n_paired: m.nPaired, caution: sampleCaution(m), n_unpaired_a: m.unpairedA, n_unpaired_b: m.unpairedB, mean_a: m.meanA, mean_b: m.meanB,
        difference: m.difference, lo: m.lo, hi: m.hi, boot_lo: m.bootLo, boot_hi: m.bootHi, p: m.p, p_adjusted: m.pAdjusted, p_wilcoxon: m.pWilcoxon, test: m.test,
      })),
    },
    {
      title: "Items that changed most, both ways (open A and B side by side in the episode viewer)",
      notes: [],
      columns: ["metric", "direction", "item", "a", "b", "difference", "episode_a", "episode_b", "viewer"],
      rows: c.changed.map((x) => ({metric: x.metric, direction: x.direction, item: x.item, a: x.a, b: x.b, difference: x.difference,
        episode_a: x.episodeA, episode_b: x.episodeB, viewer: sideBySideHref(x.episodeA, x.episodeB)})),
    },
    {
      title: `Unpaired items: on one side only (${c.unpaired.length})`,
      notes: [],
      columns: ["metric", "side", "item", "episode"],
      rows: c.unpaired.map((u) => ({metric: u.metric, side: u.side, item: u.item, episode: u.episode})),
    },
  ];
}

/**
 * Compares two sides of a benchmark over its rows' query `sql`: paired in SQL
 * (only the paired values reach JS), except InformativeBench (sql null),
 * scored in JS, and the unpaired comparison, which needs every item's value:
 * those pair rows.
 */
async function compareOver(store: Store, benchmark: CompareBenchmark, sql: string | null, a: Side, b: Side, options: CompareOptions): Promise<Comparison> {
  if (sql === null || options.unpaired) return compareRuns(benchmark, await readRowsOver(store, benchmark, sql, {a, b}), a, b, options);
  const pairing = checkedPairing(a, b);
  const matched = matchedKeys(a, b);
  const where = sidesWhere(a, b);
  const rowsSql = `SELECT * FROM (${sql}) WHERE ${where.sql}`;
  const {paired, matchedPresent, shared} = await pairInStore(store.conn, rowsSql, where.params, a, b, pairing, matched);
  return comparePaired(benchmark, paired, a, b, options, matchedPresent, shared);
}

/** Whether side A or B of a comparison has no item of any metric: what a name no row has gives. */
const emptySides = (c: Comparison): ("A" | "B")[] => {
  const out: ("A" | "B")[] = [];
  if (c.metrics.every((m) => m.nPaired + m.unpairedA === 0)) out.push("A");
  if (c.metrics.every((m) => m.nPaired + m.unpairedB === 0)) out.push("B");
  return out;
};

/**
 * For sides of which one came back with no items: refuses a value no row of
 * the benchmark has (unknownName: what the store has, with a did-you-mean),
 * else returns the note that says the side's names exist but never together.
 * Only an empty side is looked into, so a comparison that found its items
 * pays no extra pass over the rows. Null when the benchmark has no rows at all.
 */
async function explainEmptySides(store: Store, benchmark: CompareBenchmark, sql: string | null, sides: {A: Side; B: Side}, empty: readonly ("A" | "B")[],
  named: boolean): Promise<string[] | null> {
  const keys = SIDE_KEYS.filter((k) => empty.some((label) => sides[label][k] !== undefined));
  const have = new Map<SideKey, string[]>();
  let rowCount: number;
  if (sql === null) {
    const all = await readRowsOver(store, benchmark, null);
    rowCount = all.length;
    for (const k of keys) have.set(k, [...new Set(all.map((r) => r[k]).filter((v): v is string => v !== null))].sort());
  } else {
    // Keys come from SIDE_KEYS, never from input.
    const [counted] = await rows<Record<string, unknown>>(store.conn,
      `SELECT count(*)::INTEGER AS n${keys.map((k) => `, list_sort(list(DISTINCT ${k}) FILTER (WHERE ${k} IS NOT NULL)) AS ${k}`).join("")} FROM (${sql})`);
    rowCount = Number(counted.n);
    for (const k of keys) have.set(k, (counted[k] as string[] | null) ?? []);
  }
  if (rowCount === 0) return null;
  for (const label of empty) {
    for (const k of keys) {
      const value = sides[label][k];
      if (value !== undefined && !have.get(k)!.includes(value)) throw unknownName(k, value, have.get(k)!, `the store's ${benchmark} rows (side ${label}, ${k}=${value}${named ? "" : `; ${benchmark} is the first benchmark with scores: name another, as in sociometer compare hsii …`})`);
    }
  }
  return empty.map((label) => `side ${label} (${sideText(sides[label])}) has no items: each name is in the store, but no ${benchmark} row has them all together`);
}

const namesRater = (words: readonly string[]): boolean => words.some((w) => w.startsWith("rater="));

/**
 * Runs the comparison a command line asks for on an open store: of the
 * benchmark named, else of the first (in COMPARE_BENCHMARKS order) with any
 * rows. Each benchmark's rows are staged once for its default sides and its
 * comparison. HSII's stage-3/4 wins are scored under `winPolicy` (default
 * mean); a policy given for another benchmark is refused.
 */
export async function compareFromArgs(store: Store, benchmarkName: string | undefined, aWords: string[], bWords: string[], options: CompareOptions,
  winPolicy?: WinPolicy, appointmentPartners?: AppointmentPartners): Promise<Comparison> {
  const named = COMPARE_BENCHMARKS.find((b) => b === benchmarkName);
  if (benchmarkName !== undefined && !named) throw new Error(`compare: no benchmark "${benchmarkName}"; choose one of ${COMPARE_BENCHMARKS.join(", ")}`);
  if (winPolicy !== undefined && named !== undefined && named !== "hsii") throw new Error(`--win-policy applies to hsii only, not ${named}`);
  if (appointmentPartners !== undefined && named !== undefined && named !== "stss") throw new Error(`--appointment-partners applies to stss only, not ${named}`);
  for (const benchmark of named ? [named] : COMPARE_BENCHMARKS) {
    const comparison = await withRowsQuery(store, benchmark, (sql) => compareBenchmark(store, benchmark, sql, named !== undefined, aWords, bWords, options), winPolicy,
      appointmentPartners);
    if (!comparison) continue;
    if (winPolicy !== undefined && benchmark !== "hsii") throw new Error(`--win-policy applies to hsii only, and the comparison is of ${benchmark}: name hsii (sociometer compare hsii …)`);
    if (appointmentPartners !== undefined && benchmark !== "stss") {
      throw new Error(`--appointment-partners applies to stss only, and the comparison is of ${benchmark}: name stss (sociometer compare stss …)`);
    }
    if (benchmark === "stss") comparison.notes.unshift(appointmentPartnersNote(appointmentPartners ?? "target"));
    return comparison;
  }
  throw new Error(named ? `compare: the store has no ${named} scores to compare` : "compare: the store has no scores of any benchmark; import some first (sociometer import-samples)");
}

/** The comparison of one benchmark over its rows' query, or null when it has no rows. */
async function compareBenchmark(store: Store, benchmark: CompareBenchmark, sql: string | null, named: boolean, aWords: string[], bWords: string[],
  options: CompareOptions): Promise<Comparison | null> {
  if (named && namesRater(aWords) && namesRater(bWords)) {
    // The defaults would only lend both sides a rater, and cost a pass over every row: a named benchmark whose sides name
    // theirs skips them, and counts only when nothing came back, to say why.
    const a = parseSide(aWords, benchmark, "A");
    const b = parseSide(bWords, benchmark, "B");
    const comparison = await compareOver(store, benchmark, sql, a, b, options);
    const empty = emptySides(comparison);
    if (!empty.length) return comparison;
    const notes = await explainEmptySides(store, benchmark, sql, {A: a, B: b}, empty, named);
    if (!notes) return null;
    comparison.notes = notes.concat(comparison.notes);
    return comparison;
  }
  const defaults = await defaultsOf(store, benchmark, sql);
  if (!defaults) return null;
  if (!aWords.length && !bWords.length && defaults.a.model === undefined) throw new Error(`compare: ${defaults.note}`);
  const lent = aWords.length && bWords.length ? await raterLentToSides(store, sql, parseSide(aWords, benchmark, "A"), parseSide(bWords, benchmark, "B"), defaults.shared) : null;
  const shared = lent?.side ?? defaults.shared;
  const a = aWords.length ? {...shared, ...parseSide(aWords, benchmark, "A")} : defaults.a;
  const b = bWords.length ? {...shared, ...parseSide(bWords, benchmark, "B")} : defaults.b;
  const comparison = await compareOver(store, benchmark, sql, a, b, options);
  const empty = emptySides(comparison);
  if (empty.length) comparison.notes = ((await explainEmptySides(store, benchmark, sql, {A: a, B: b}, empty, named)) ?? []).concat(comparison.notes);
  if (!aWords.length || !bWords.length) comparison.notes.unshift(defaults.note);
  if (lent) comparison.notes.unshift(lent.note);
  return comparison;
}

/**
 * The rater both sides take when the command line names both sides and a
 * rater on neither: the rater with the most rows on both sides (the larger of
 * its smaller side's count, then of their sum; ties by name), so that two
 * models are compared under a rater that judged them, not under the default
 * pair's. Null when the rows have no rater or a side names one (a side that
 * names none then takes the default's, which compares raters: `--a
 * model=x --b model=x rater=y`). When no rater scored rows on both sides,
 * the default pair's rater stays, and the note says so.
 */
async function raterLentToSides(store: Store, sql: string | null, a: Side, b: Side, fallback: Side): Promise<{side: Side; note: string} | null> {
  if (fallback.rater === undefined || a.rater !== undefined || b.rater !== undefined || sql === null) return null;
  const x = sideWhere(a);
  const y = sideWhere(b);
  const [best] = await rows<{rater: string; on_a: number; on_b: number}>(store.conn,
    `SELECT rater, count(*) FILTER (WHERE ${x.sql})::INTEGER AS on_a, count(*) FILTER (WHERE ${y.sql})::INTEGER AS on_b
     FROM (${sql}) WHERE rater IS NOT NULL GROUP BY rater
     ORDER BY least(on_a, on_b) DESC, on_a + on_b DESC, rater LIMIT 1`, [...x.params, ...y.params]);
  if (!best || Math.min(best.on_a, best.on_b) === 0) {
    return {side: fallback, note: `rater: ${fallback.rater} (the default's); no rater scored rows on both sides, so rated metrics may have no pairs: name one with rater=…`};
  }
  return {side: {rater: best.rater}, note: `rater: ${best.rater}, the rater with the most rows on both sides (A ${best.on_a}, B ${best.on_b}); name another with rater=…`};
}

/**
 * `--a model=x rater=y` gives a side several words: each KEY=VALUE word after
 * --a or --b (up to the next option) becomes its own `--a KEY=VALUE`, which
 * parseArgs reads.
 */
export function sideWordsAsOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  let side: string | null = null;
  for (const word of argv) {
    if (word === "--a" || word === "--b") {
      side = word;
      continue;
    }
    if (side && !word.startsWith("-") && word.includes("=")) {
      out.push(side, word);
      continue;
    }
    if (side) {
      if (!word.startsWith("-") && out[out.length - 2] !== side) throw new Error(`${side} needs KEY=VALUE words, not "${word}"\nusage: ${COMPARE_USAGE}`);
      side = null;
    }
    out.push(word);
  }
  if (side && out[out.length - 2] !== side) throw new Error(`${side} needs KEY=VALUE words\nusage: ${COMPARE_USAGE}`);
  return out;
}

export async function compareCommand(argv: string[]): Promise<number> {
  const {values, positionals} = parseCommandLine({
    args: sideWordsAsOptions(argv),
    allowPositionals: true,
    options: {
      a: {type: "string", multiple: true},
      b: {type: "string", multiple: true},
      format: {type: "string"},
      adjust: {type: "string"},
      resamples: {type: "string"},
      seed: {type: "string"},
      interval: {type: "string"},
      cluster: {type: "string"},
      unpaired: {type: "boolean"},
      changed: {type: "string"},
      "win-policy": {type: "string"},
      "appointment-partners": {type: "string"},
      db: {type: "string"},
      quiet: {type: "boolean"},
      help: {type: "boolean", short: "h"},
    },
  }, () => COMPARE_USAGE);
  if (values.help) {
    process.stdout.write(`${COMPARE_USAGE}\n  keys per benchmark: ${COMPARE_BENCHMARKS.map((b) => `${b}: ${BENCHMARK_KEYS[b].join(", ")}`).join("; ")}\n` +
      `  rater=humans (sotopia): the human annotators pooled, per item the mean of the annotators' scores, each annotator's repeats averaged first\n${WIN_POLICY_HELP}\n` +
      `${APPOINTMENT_HELP}\n`);
    return 0;
  }
  if (positionals.length > 1) throw new Error(`compare takes one benchmark, not ${positionals.join(" ")}\nusage: ${COMPARE_USAGE}`);
  const format = outputFormat(values.format);
  if (values.cluster !== undefined && values.cluster !== "scenario") throw new Error(`--cluster must be scenario, not ${values.cluster}`);
  const interval = values.interval as IntervalMethod | undefined;
  if (interval !== undefined && !INTERVAL_METHODS.includes(interval)) throw new Error(`--interval must be ${INTERVAL_METHODS.join(" or ")}, not ${interval}`);
  const winPolicy = values["win-policy"] as WinPolicy | undefined;
  if (winPolicy !== undefined && !WIN_POLICIES.includes(winPolicy)) throw new Error(`--win-policy must be ${WIN_POLICIES.join(" or ")}, not ${winPolicy}`);
  const appointmentPartners = values["appointment-partners"] as AppointmentPartners | undefined;
  if (appointmentPartners !== undefined && !APPOINTMENT_PARTNERS.includes(appointmentPartners)) {
    throw new Error(`--appointment-partners must be ${APPOINTMENT_PARTNERS.join(" or ")}, not ${appointmentPartners}`);
  }
  const options: CompareOptions = {
    adjust: multiplicityMethod(values.adjust ?? "holm"),
    resamples: num("resamples", values.resamples, (n) => Number.isInteger(n) && n >= 1, "a whole number ≥ 1"),
    seed: num("seed", values.seed, (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff, "a whole number from 0 to 4294967295"),
    interval,
    cluster: values.cluster === "scenario",
    unpaired: values.unpaired === true,
    changed: num("changed", values.changed, (n) => Number.isInteger(n) && n >= 0, "a whole number ≥ 0"),
  };
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  const store = await openStoreWhenFree(dbPath, {readOnly: true, onWait: (m) => process.stderr.write(`${m}\n`)});
  let comparison: Comparison;
  let removeSpill = () => {};
  try {
    removeSpill = await boundCompareMemory(store.conn);
    comparison = await compareFromArgs(store, positionals[0], values.a ?? [], values.b ?? [], options, winPolicy, appointmentPartners);
  } finally {
    store.close();
    removeSpill();
  }
  const tables = comparisonTables(comparison, winPolicy ?? "mean");
  if (format === "json") {
    process.stdout.write(JSON.stringify({
      statement: comparison.statement, notes: [...comparison.notes, ...sampleNotes(comparison)], benchmark: comparison.benchmark,
      ...(comparison.benchmark === "hsii" ? {win_policy: winPolicy ?? "mean"} : {}), a: comparison.a, b: comparison.b, pairing: comparison.pairing,
      metrics: JSON.parse(render(tables[0], "json")).rows, changed: JSON.parse(render(tables[1], "json")).rows, unpaired: JSON.parse(render(tables[2], "json")).rows,
    }, null, 2) + "\n");
  } else {
    for (const t of tables) process.stdout.write(render(t, format) + (format === "csv" ? "\n" : ""));
  }
  return 0;
}
