// The `sociometer` command line: import logs, inspect the store, print reports, export tables.

import {basename, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {parseCommandLine} from "./args.js";
import {closest} from "../did-you-mean.js";
import {ImportError} from "../import/errors.js";
import {FORMATS} from "../import/registry.js";
import {importFiles, type ImportSummary} from "../import/session.js";
import {stderrProgress} from "../progress.js";
import {importSamples} from "../samples.js";
import {defaultStorePath, rows, type Store} from "../store/db.js";
import {describeLeftovers, findLeftovers} from "../store/integrity.js";
import {withCommandStore} from "./command-store.js";
import {BENCHMARK_COUNTS_SQL, MODEL_COUNTS_SQL, SOURCE_GROUPS_SQL} from "../queries/store-contents.js";
import {exportQuery, formatOfPath} from "../store/export.js";
import {exportDataset} from "../store/dataset.js";
import {outputFormat, render, type ResultTable} from "./output.js";
import {getReport, REPORTS} from "./reports.js";
import {auditFile, renderAudit} from "./audit.js";
import {AuditCsvError} from "../../src/lib/audit-csv.js";
import {cliSecrets, redact} from "../run/redact.js";
import type {SpreadBasis} from "../../src/lib/agreement.js";

const EXPORTABLE = ["sources", "episodes", "participants", "messages", "ratings", "dimensions"];

/** One line per command, printed under a usage error (the full text is HELP). */
const USAGE: Readonly<Record<string, string>> = {
  import: "sociometer import <format> <paths…> [--skip-invalid] [--rejects FILE] [--db FILE] [--quiet]   (formats: sociometer formats)",
  "import-samples": "sociometer import-samples [--db FILE] [--quiet]",
  status: "sociometer status [--sources] [--format table|csv|json] [--db FILE]",
  report: "sociometer report <name> [--format table|csv|json] [--db FILE] [options of the report: sociometer --help]",
  export: "sociometer export <table> --out FILE.parquet|FILE.csv [--db FILE]   or   sociometer export --dataset DIR [--db FILE]",
  audit: "sociometer audit <file.csv> [--format table|csv|json] [--max-n N]",
  formats: "sociometer formats",
};

/** The usage line of the first positional that names a command, else the program's. */
const usageOf = (positionals: string[]): string =>
  USAGE[positionals.find((p) => p in USAGE) ?? ""] ?? "sociometer <command> [options]   (commands and options: sociometer --help)";

const HELP = `sociometer: analysis workbench for evaluations of LLM social agents

Usage:
  sociometer import <format> <paths…> [--skip-invalid] [--rejects FILE]
      Import log files in one transaction. Formats:
${FORMATS.map((f) => `        ${f.name.padEnd(16)} ${f.description}`).join("\n")}
  sociometer import-samples           Import the bundled synthetic sample logs
  sociometer status [--sources]       What the store holds (sources by folder and format; --sources: every file)
  sociometer report <name> [--format table|csv|json] [--rater NAME] [--model NAME …]
      [--against NAME|humans] [--bins K] [--basis dimension|annotators]   (agreement: --rater may repeat)
      [--hard-target MODEL] [--hard-n N] [--hard-rule max|pooled] [--hard-dimension DIM] [--best-among models|all]
      [--positive fail|pass] [--label-runs majority|unanimous] [--band sd|ci95] [--variance sample|population] [--window N]   (checkpoint-failures: indices per row, default 5)
          (belext --positive: default fail, as METRICS.md; LIFELONG-SOTOPIA Table 1 counts pass as positive, so use pass to compare with it)
      [--alpha A --beta B --gamma G] [--formula eq1|table1] [--win-policy mean|strict|first] [--cot with|without|both] [--by-cluster]
      [--threshold S] [--cap N]
      [--metric nominal|ordinal|interval|ratio] [--icc 1,1|2,1|3,1|1,k|2,k|3,k] [--kappa-weights unweighted|linear|quadratic]
      [--resamples N] [--seed S] [--interval percentile|bca] [--cluster scenario] [--adjust holm|bh|none]   (reliability; --rater may repeat)
      [--dimension DIM] [--min-gap G] [--limit N]   (disagreements: --rater A --against B|humans; --rater humans alone: among the annotators)
      [--by task|type] [--level conversation|summary] [--run-id ID|imported] [--appointment-partners target|all]   (stss)
      [--order lower-bound|rate|count] [--min-n N]   (stss --by type: which conditions fail)
      [--by task] [--conv-ratio mean|pooled] [--help-order subsequence|first] [--initiator mandatory|ignored]   (stss-action)
      [--match exact|contains] [--settings majority|all] [--base majority|paper|SETTINGS] [--right-at S] [--average plan|pooled]
      [--per-update solving|all] [--fake unsolved|solved] [--easy-overlap pooled|between] [--fixed-activities sleep|none]   (informativebench, infonav)
      [--free-text items|commentary]   (informativebench, infonav: ScheduleMedium F1 with a stored schedule only: free text naming
          no activity is an item that matches nothing, default, or commentary left out; set/list literal elements stay items)
      Reports:
${REPORTS.map((r) => `        ${r.name.padEnd(16)} ${r.description}`).join("\n")}
  sociometer judge <kind> --model NAME [--base-url URL] [--concurrency N] [--limit N] [--dry-run]
      [--template FILE] [--run-id ID] [--include-failed] [--batch]    LLM judges: sotopia-eval, belext, hsii-pairwise, stss-conditions
  sociometer judge --collect RUN [--wait]    collect a run's Batch API answers (sociometer judge --help)
  sociometer run <sotopia|lifelong|hsii|stss|informativebench> --model NAME [--partner-model NAME] [--base-url URL] [--limit N] [--dry-run]
      [--max-turns N] [--seed S] [--memory full|summary|none]    episode runners (sociometer run --help)
  sociometer compare [<benchmark>] [--a KEY=VALUE …] [--b KEY=VALUE …] [--adjust holm|bh|none] [--resamples N] [--seed S]
      [--interval percentile|bca] [--cluster scenario] [--unpaired] [--changed N] [--win-policy mean|strict|first]   (hsii)
      Two runs item by item: paired tests per metric, Holm-adjusted; changed and unpaired items (sociometer compare --help)
  sociometer audit <file.csv> [--format table|csv|json] [--max-n N]
      Recompute a reported table's cells and say which formula and rounding reproduce it
      (docs/audit.md; built-in checks in data/audits/)
  sociometer verify-schedule <file.jsonl> [--format table|csv|json]
      The gold answer of each InformativeBench schedule question, computed from the schedules; exit 1 when a stated gold disagrees
  sociometer migrate                  Upgrade the store to this version's schema (pending migrations, one transaction)
  sociometer repair                   Remove what an import killed while it committed left (status says when)
  sociometer export <table> --out FILE.parquet|FILE.csv
      Tables: ${EXPORTABLE.join(", ")}
  sociometer export --dataset DIR
      Every table as Hive-partitioned Parquet (benchmark=…/source=…) for DuckDB, Spark, Trino, BigQuery (docs/scale.md)

Options for every command:
  --db FILE      the store (default: $SOCIOMETER_DB or data/sociometer.duckdb)
  --quiet        no progress on stderr
  -h, --help     this text
`;

const withStore = <T>(dbPath: string, readOnly: boolean, fn: (s: Store) => Promise<T>): Promise<T> => withCommandStore(dbPath, {readOnly}, fn);

/** "232 episodes", "30 definitions and inputs (nobody played them)", or both: counted as status and the overview count them. */
function units(c: {episodes: number; definitions: number}): string {
  const played = c.episodes - c.definitions;
  const definitions = `${c.definitions} definitions and inputs (nobody played them)`;
  if (!c.definitions) return `${c.episodes} episodes`;
  return played ? `${played} episodes, ${definitions}` : definitions;
}

function describeImport(s: ImportSummary): string {
  const lines = s.files.map((f) => {
    const name = basename(f.path);
    const notes = f.notes.map((n) => `
    note: ${n}`).join("");
    // What the import that stored it said still holds (same bytes, same reader): a user who missed it then sees it now.
    if (f.status === "unchanged") return `  ${name}: unchanged, already imported${f.sameAs ? ` from ${f.sameAs}` : ""}${f.importedAt ? ` on ${f.importedAt} UTC` : ""} (nothing to do)${notes}`;
    if (f.sameAs) return `  ${name}: replaced; its earlier rows are removed, and its new content is already imported from ${f.sameAs}`;
    const extra = [f.judgeFailed ? `${f.judgeFailed} with no scores (judge failed)` : "", f.rejected ? `${f.rejected} rejected` : ""].filter(Boolean).join(", ");
    const dups = f.duplicateLines.length
      ? `\n    ${f.duplicateLines.length} row(s) repeat an earlier row exactly and were counted once: ${f.duplicateLines.map((d) => `line ${d.line} = line ${d.of}`).join(", ")}`
      : "";
    const warnings = f.warnings.map((w) => `
    warning: ${w}`).join("");
    const named = f.modelNames.map((m) => `
    ${m.placeholder} named by this file's model column: ${m.model} (${m.episodes} episode${m.episodes === 1 ? "" : "s"})`).join("");
    return `  ${name}: ${f.status}, ${units(f)}, ${f.ratings} scores${extra ? `, ${extra}` : ""}${dups}${named}${notes}${warnings}`;
  });
  lines.push(`${s.format}: ${units(s)} and ${s.ratings} scores imported in ${s.seconds.toFixed(1)} s`);
  if (s.judgeFailed) lines.push(`${s.judgeFailed} episode(s) had a failed judge: their transcripts were imported without scores`);
  if (s.rejectsPath) lines.push(`${s.rejected} record(s) rejected; see ${s.rejectsPath}`);
  if (s.warnings) lines.push(`${s.warnings} warning(s), above`);
  return lines.join("\n") + "\n";
}

async function status(store: Store, everySource: boolean): Promise<ResultTable[]> {
  const q = (sql: string) => rows(store.conn, sql);
  const sources: ResultTable = everySource
    ? {title: "Sources", notes: [], columns: ["source_id", "file", "format", "rows", "rejected", "imported_at"],
      rows: (await q("SELECT source_id, path, format, rows, rejected, imported_at::VARCHAR AS imported_at FROM sources ORDER BY imported_at, path"))
        .map((r) => ({...r, file: basename(String(r.path))}))}
    // A folder of 154 episode logs is one line, not 154 (loaders/queries/store-contents.ts).
    : {title: "Sources", notes: ["one line per folder and format; --sources lists every file"],
      columns: ["folder", "format", "files", "rows", "rejected", "last_imported"],
      rows: await q(SOURCE_GROUPS_SQL)};
  // What a killed import left would be counted below as if it were data: said first, with what to do.
  const leftovers = await findLeftovers(store.conn, {thorough: false});
  const problems: ResultTable[] = leftovers.length
    ? [{title: "Problems", notes: ["rows no finished import accounts for (an import killed while it committed?): run sociometer repair, then import those files again"],
      columns: ["table", "rows", "why"], rows: leftovers.map((l) => ({...l}))}]
    : [];
  if (leftovers.length) process.stderr.write(`sociometer: the store holds ${describeLeftovers(leftovers)}: run sociometer repair\n`);
  return [
    ...problems,
    sources,
    // Evaluated episodes apart from definitions and inputs; dataset seats are not models (loaders/queries/store-contents.ts).
    {title: "Episodes", notes: ["definitions_inputs: records no model or person played (STSS task definitions, InformativeBench schedules), not counted as episodes"],
      columns: ["benchmark", "episodes", "synthetic", "definitions_inputs"],
      rows: await q(`SELECT benchmark, episodes, synthetic, inputs AS definitions_inputs FROM (${BENCHMARK_COUNTS_SQL}) ORDER BY 1`)},
    {title: "Models", notes: [], columns: ["benchmark", "model", "episodes"],
      rows: await q(`SELECT benchmark, model, episodes FROM (${MODEL_COUNTS_SQL}) ORDER BY 1, 2`)},
    {title: "Raters", notes: [], columns: ["rater", "rater_kind", "episodes", "scores"],
      rows: await q("SELECT rater, rater_kind, count(DISTINCT episode_id)::INTEGER AS episodes, count(*)::INTEGER AS scores FROM ratings GROUP BY ALL ORDER BY 2, 1")},
  ];
}

export async function main(argv: string[]): Promise<number> {
  // `judge` has options of its own (loaders/cli/judge.ts).
  if (argv[0] === "judge") return (await import("./judge.js")).judgeCommand(argv.slice(1));
  // `run` too (loaders/cli/run.ts).
  if (argv[0] === "run") return (await import("./run.js")).runCommand(argv.slice(1));
  if (argv[0] === "verify-schedule") return (await import("./verify-schedule.js")).verifyScheduleCommand(argv.slice(1));
  if (argv[0] === "compare") return (await import("./compare.js")).compareCommand(argv.slice(1));
  if (argv[0] === "migrate") return (await import("./migrate.js")).migrateCommand(argv.slice(1));
  if (argv[0] === "repair") return (await import("./repair.js")).repairCommand(argv.slice(1));
  const {values, positionals} = parseCommandLine({
    args: argv,
    allowPositionals: true,
    options: {
      db: {type: "string"},
      format: {type: "string"},
      rater: {type: "string", multiple: true},
      against: {type: "string"},
      bins: {type: "string"},
      basis: {type: "string"},
      metric: {type: "string"},
      icc: {type: "string"},
      "kappa-weights": {type: "string"},
      resamples: {type: "string"},
      seed: {type: "string"},
      interval: {type: "string"},
      cluster: {type: "string"},
      adjust: {type: "string"},
      "hard-target": {type: "string"},
      "hard-n": {type: "string"},
      "hard-rule": {type: "string"},
      "hard-dimension": {type: "string"},
      dimension: {type: "string"},
      "min-gap": {type: "string"},
      limit: {type: "string"},
      "best-among": {type: "string"},
      positive: {type: "string"},
      "label-runs": {type: "string"},
      alpha: {type: "string"},
      beta: {type: "string"},
      gamma: {type: "string"},
      formula: {type: "string"},
      "win-policy": {type: "string"},
      cot: {type: "string"},
      "by-cluster": {type: "boolean"},
      by: {type: "string"},
      level: {type: "string"},
      "conv-ratio": {type: "string"},
      "run-id": {type: "string"},
      "appointment-partners": {type: "string"},
      order: {type: "string"},
      "min-n": {type: "string"},
      "help-order": {type: "string"},
      initiator: {type: "string"},
      match: {type: "string"},
      "free-text": {type: "string"},
      settings: {type: "string"},
      "right-at": {type: "string"},
      average: {type: "string"},
      base: {type: "string"},
      "per-update": {type: "string"},
      fake: {type: "string"},
      "easy-overlap": {type: "string"},
      "fixed-activities": {type: "string"},
      threshold: {type: "string"},
      cap: {type: "string"},
      window: {type: "string"},
      band: {type: "string"},
      variance: {type: "string"},
      model: {type: "string", multiple: true},
      out: {type: "string"},
      dataset: {type: "string"},
      "max-n": {type: "string"},
      rejects: {type: "string"},
      "skip-invalid": {type: "boolean"},
      sources: {type: "boolean"},
      quiet: {type: "boolean"},
      help: {type: "boolean", short: "h"},
    },
  }, usageOf);
  const [command, ...args] = positionals;
  if (values.help || !command || command === "help") {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 1;
  }
  const dbPath = values.db ? resolve(values.db) : defaultStorePath();
  const progress = values.quiet ? undefined : stderrProgress();
  const printAs = outputFormat(values.format);

  switch (command) {
    case "import": {
      const [format, ...paths] = args;
      if (!format || !paths.length) throw new Error(`usage: ${USAGE.import}`);
      const summary = await withStore(dbPath, false, (s) =>
        importFiles(s, format, paths, {skipInvalid: values["skip-invalid"], rejectsPath: values.rejects, progress}));
      process.stdout.write(describeImport(summary));
      return 0;
    }
    case "import-samples": {
      const summaries = await withStore(dbPath, false, (s) => importSamples(s, progress));
      for (const summary of summaries) process.stdout.write(describeImport(summary));
      process.stdout.write(`store: ${dbPath} (synthetic sample data)\n`);
      return 0;
    }
    case "status": {
      const tables = await withStore(dbPath, true, (s) => status(s, values.sources === true));
      if (printAs === "json") process.stdout.write(JSON.stringify(Object.fromEntries(tables.map((t) => [t.title.toLowerCase(), t.rows])), null, 2) + "\n");
      else for (const t of tables) process.stdout.write(render(t, printAs));
      return 0;
    }
    case "report": {
      const [name] = args;
      if (!name) throw new Error(`usage: sociometer report <name>; reports: ${REPORTS.map((r) => r.name).join(", ")}`);
      const names = REPORTS.map((r) => r.name);
      if (!names.includes(name)) {
        const meant = closest(name, names);
        throw new Error(`unknown report ${JSON.stringify(name)}${meant ? `; did you mean ${meant}?` : ""}; reports: ${names.join(", ")}`);
      }
      const report = getReport(name);
      const bins = values.bins === undefined ? undefined : Number(values.bins);
      if (bins !== undefined && !(Number.isInteger(bins) && bins >= 2)) throw new Error(`--bins must be a whole number ≥ 2, not ${values.bins}`);
      if (values.basis !== undefined && !["dimension", "annotators"].includes(values.basis)) throw new Error("--basis must be dimension or annotators");
      const hardN = values["hard-n"] === undefined ? undefined : Number(values["hard-n"]);
      if (hardN !== undefined && !(Number.isInteger(hardN) && hardN >= 1)) throw new Error(`--hard-n must be a whole number ≥ 1, not ${values["hard-n"]}`);
      const hardRule = values["hard-rule"];
      if (hardRule !== undefined && hardRule !== "max" && hardRule !== "pooled") throw new Error("--hard-rule must be max or pooled");
      const choose = <T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined => {
        if (value !== undefined && !allowed.includes(value as T)) throw new Error(`--${flag} must be ${allowed.join(" or ")}, not ${value}`);
        return value as T | undefined;
      };
      const positive = choose("positive", values.positive, ["fail", "pass"] as const);
      const labelRuns = choose("label-runs", values["label-runs"], ["majority", "unanimous"] as const);
      const bestAmong = choose("best-among", values["best-among"], ["models", "all"] as const);
      const band = choose("band", values.band, ["sd", "ci95"] as const);
      const variance = choose("variance", values.variance, ["sample", "population"] as const);
      const num = (flag: string, value: string | undefined, ok: (n: number) => boolean, what: string): number | undefined => {
        if (value === undefined) return undefined;
        const n = Number(value);
        if (!ok(n)) throw new Error(`--${flag} must be ${what}, not ${value}`);
        return n;
      };
      const weight = (flag: string, v: string | undefined) => num(flag, v, (n) => Number.isFinite(n) && n >= 0, "a number ≥ 0") ?? 1;
      const weights = {alpha: weight("alpha", values.alpha), beta: weight("beta", values.beta), gamma: weight("gamma", values.gamma)};
      const formula = choose("formula", values.formula, ["eq1", "table1"] as const);
      const winPolicy = choose("win-policy", values["win-policy"], ["mean", "strict", "first"] as const);
      const cotFlag = choose("cot", values.cot, ["with", "without", "both"] as const);
      const threshold = num("threshold", values.threshold, (n) => n > 0 && n <= 1, "a share in (0, 1]");
      const cap = num("cap", values.cap, (n) => Number.isInteger(n) && n >= 1, "a whole number ≥ 1");
      const window = num("window", values.window, (n) => Number.isInteger(n) && n >= 1, "a whole number of chain indices ≥ 1");
      const by = choose("by", values.by, ["task", "type"] as const);
      const level = choose("level", values.level, ["conversation", "summary"] as const);
      const convRatio = choose("conv-ratio", values["conv-ratio"], ["mean", "pooled"] as const);
      const table = await withStore(dbPath, true, (s) =>
        report.run(s, {
          rater: values.rater?.[0], raters: values.rater, models: values.model, against: values.against, bins, basis: values.basis as SpreadBasis | undefined,
          hardTarget: values["hard-target"], hardN, hardRule, hardDimension: values["hard-dimension"], bestAmong, positive, labelRuns, band, variance,
          weights, formula, winPolicy, cot: cotFlag === "with" ? true : cotFlag === "without" ? false : undefined, byCluster: values["by-cluster"], threshold, cap, window,
          by, level, convRatio,
          reliability: {metric: values.metric, icc: values.icc, kappaWeights: values["kappa-weights"], resamples: values.resamples, seed: values.seed,
            interval: values.interval, cluster: values.cluster, adjust: values.adjust},
          stss: {runId: values["run-id"], appointmentPartners: values["appointment-partners"], helpOrder: values["help-order"], initiator: values.initiator,
            order: values.order, minN: values["min-n"]},
          ib: {match: values.match, freeText: values["free-text"], settings: values.settings, rightAt: values["right-at"], average: values.average, base: values.base, perUpdate: values["per-update"],
            fake: values.fake, easyOverlap: values["easy-overlap"], fixedActivities: values["fixed-activities"]},
          disagreements: {dimension: values.dimension, minGap: values["min-gap"], limit: values.limit},
        }));
      process.stdout.write(render(table, printAs));
      return 0;
    }
    case "export": {
      const [table] = args;
      if (values.dataset !== undefined) {
        if (table !== undefined || values.out !== undefined) throw new Error(`usage: ${USAGE.export}`);
        const dir = resolve(values.dataset);
        const manifest = await withStore(dbPath, true, (s) => exportDataset(s.conn, dir));
        const rowCount = manifest.tables.reduce((n, t) => n + t.rows, 0);
        process.stderr.write(`wrote ${dir}: ${manifest.tables.length} tables, ${rowCount.toLocaleString("en-US")} rows (dataset.json lists them)\n`);
        return 0;
      }
      if (!table || !EXPORTABLE.includes(table)) throw new Error(`usage: sociometer export <table> --out FILE; tables: ${EXPORTABLE.join(", ")}`);
      if (!values.out) throw new Error("--out FILE.parquet or FILE.csv is required");
      const out = resolve(values.out);
      formatOfPath(out);
      await withStore(dbPath, true, (s) => exportQuery(s.conn, `SELECT * FROM ${table}`, out));
      process.stderr.write(`wrote ${out}\n`);
      return 0;
    }
    case "audit": {
      const [file] = args;
      if (!file) throw new Error("usage: sociometer audit <file.csv> [--format table|csv|json] [--max-n N]");
      const maxN = values["max-n"] === undefined ? undefined : Number(values["max-n"]);
      if (maxN !== undefined && !(Number.isInteger(maxN) && maxN >= 1)) throw new Error(`--max-n must be a whole number ≥ 1, not ${values["max-n"]}`);
      const report = await auditFile(file, {dbPath, maxN});
      process.stdout.write(renderAudit(report, file, printAs, maxN));
      return 0;
    }
    case "formats": {
      for (const f of FORMATS) process.stdout.write(`${f.name}\t${f.description}\n`);
      return 0;
    }
    default: {
      const meant = closest(command, Object.keys(USAGE).concat(["judge", "run", "verify-schedule", "migrate", "repair", "compare", "help"]));
      throw new Error(`unknown command ${JSON.stringify(command)}${meant ? `; did you mean ${meant}?` : ""}; see sociometer --help`);
    }
  }
}

/**
 * Runs one command as the `sociometer` program does and returns its exit code:
 * an error is printed to stderr (redacted: it may quote a key the endpoint
 * echoed, or a URL with a password) with its code, never thrown. The tests
 * call this in their own process where the process boundary is not what they test.
 */
export async function runCommand(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (e) {
    const message = e instanceof ImportError ? `import failed, store unchanged:\n  ${e.message}` : (e as Error).message;
    process.stderr.write(`sociometer: ${redact(message, cliSecrets(argv))}\n`);
    return exitCodeOf(e);
  }
}

// Run when executed directly (tsx loaders/cli/main.ts, or bin/sociometer.js), not when imported by tests.
const invokedDirectly = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly || process.env.SOCIOMETER_CLI === "1") runCommand(process.argv.slice(2)).then(exitAfterOutput);

/** The exit code for an error: 65 (bad input data, as sysexits' EX_DATAERR) for a record or audit table at fault, else 2. */
export function exitCodeOf(e: unknown): number {
  return e instanceof ImportError || e instanceof AuditCsvError ? 65 : 2;
}

/**
 * Exits once stdout and stderr have drained. When stdout is a pipe, writes are
 * asynchronous: exiting at once cuts a large report short (a JSON report piped
 * into another program lost everything after 80 KB).
 */
function exitAfterOutput(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}
