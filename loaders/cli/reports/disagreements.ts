// `sociometer report disagreements`: the instances where two raters differ
// most (src/lib/disagreements.ts) with what each said, or with --rater humans
// alone the instances the annotators spread widest on.

import {listValue} from "@duckdb/node-api";
import {AGREEMENT_ROWS_SQL, RATER_COVERAGE_SQL} from "../../queries/agreement.js";
import {DISAGREEMENT_RATIONALES_SQL} from "../../queries/disagreements.js";
import {rows, type Store} from "../../store/db.js";
import {coverageText, defaultJudge, HUMANS, raterLabel, type RaterChoice, type RaterCoverage, type RaterScore} from "../../../src/lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../../src/lib/dimensions.js";
import {mean} from "../../../src/lib/stats.js";
import {DEFAULT_DISAGREEMENT_LIMIT, disagreements, episodesOf, rationaleIndex, rationaleText, type RationaleRow} from "../../../src/lib/disagreements.js";
import type {ResultTable} from "../output.js";
import {unknownName} from "../unknown-name.js";

/** The report's own flags, as typed; checked here. */
export interface DisagreementFlags {
  dimension?: string;
  minGap?: string;
  limit?: string;
}

const choice = (name: string): RaterChoice => (name === HUMANS ? HUMANS : {rater: name});

/** A dimension by key or abbreviation (goal, GOAL), which must be one the store's multiply-rated instances carry. */
function dimensionOf(name: string, present: readonly string[]): string {
  const d = SOTOPIA_DIMENSIONS.find((x) => x.key === name || x.abbrev.toLowerCase() === name.toLowerCase());
  if (!d || !present.includes(d.key)) throw unknownName("dimension", name, present, "the store's multiply-rated SOTOPIA instances (--dimension)");
  return d.key;
}

export async function disagreementsCliReport(store: Store, options: {rater?: string; against?: string; disagreements?: DisagreementFlags}): Promise<ResultTable> {
  const flags = options.disagreements ?? {};
  const minGap = flags.minGap === undefined ? 0 : Number(flags.minGap);
  if (!(Number.isFinite(minGap) && minGap >= 0)) throw new Error(`--min-gap must be a number ≥ 0, not ${flags.minGap}`);
  const limit = flags.limit === undefined ? DEFAULT_DISAGREEMENT_LIMIT : Number(flags.limit);
  if (!(Number.isInteger(limit) && limit >= 1)) throw new Error(`--limit must be a whole number ≥ 1, not ${flags.limit}`);
  const coverage = coverageText(await rows<RaterCoverage>(store.conn, RATER_COVERAGE_SQL));
  const scores = await rows<RaterScore>(store.conn, AGREEMENT_ROWS_SQL);
  if (!scores.length) throw new Error(`no episode in the store is scored by two or more raters. ${coverage.lines.join(" ")}`);
  const present = [...new Set(scores.map((s) => s.rater))].sort();
  for (const r of [options.rater, options.against]) {
    // humans first: the error lists 20 names, and a store of many annotators would push it out of sight.
    if (r !== undefined && r !== HUMANS && !present.includes(r)) throw unknownName("rater", r, [HUMANS, ...present], "the store's multiply-rated SOTOPIA episodes (humans is the annotators' mean)");
  }
  const dimensions = [...new Set(scores.map((s) => s.dimension))];
  const dimension = flags.dimension === undefined ? null : dimensionOf(flags.dimension, SOTOPIA_DIMENSIONS.map((d) => d.key).filter((k) => dimensions.includes(k)));
  // With no --rater: the judge against the humans when one meets them, else the annotators among themselves.
  const aName = options.rater ?? (coverage.llmMeetsHumans ? defaultJudge(scores) ?? HUMANS : HUMANS);
  const bName = options.against ?? (aName === HUMANS ? null : HUMANS);
  if (bName !== null && bName === aName && aName !== HUMANS) throw new Error(`--rater and --against are both ${aName}; name two raters, or --rater humans alone for the annotators among themselves`);
  const a = choice(aName);
  const b = bName === null || bName === HUMANS && a === HUMANS ? null : choice(bName);
  const items = disagreements(scores, a, b, {dimension, minGap, limit});
  const rationales = rationaleIndex(items.length ? await rows<RationaleRow>(store.conn, DISAGREEMENT_RATIONALES_SQL, [listValue(episodesOf(items))]) : []);
  const on = dimension === null ? "every dimension" : dimension;
  const common = [
    `an instance is one (episode, agent) on one dimension (${on}), a rater's repeated responses averaged; ties in order of episode id, agent, dimension`,
    `${items.length} instance(s) shown (--limit ${limit}${minGap ? `, --min-gap ${minGap}` : ""})`,
    "episode_id: open its transcript in the episode viewer, episodes?episode=<episode_id>",
    "rationales: as the raters wrote them, on one line; (no rationale) where a rater gave none",
  ];
  if (b === null) {
    return {
      title: `Disagreements among the human annotators: the instances they spread widest on (${on})`,
      notes: ["range: highest minus lowest annotator score; low / high / mean over the instance's annotators (two or more)", ...common, ...coverage.lines],
      columns: ["rank", "episode_id", "agent", "dimension", "range", "annotators", "low", "high", "mean", "rationales"],
      rows: items.map((i, k) => ({
        rank: k + 1, episode_id: i.episode_id, agent: i.agent, dimension: i.dimension, range: i.gap, annotators: i.annotators, low: i.a, high: i.b,
        mean: mean(i.humans.map((h) => h.value)), rationales: rationaleText(i, HUMANS, rationales),
      })),
    };
  }
  return {
    title: `Disagreements of ${raterLabel(a)} with ${raterLabel(b)}: the instances by |A − B| (${on})`,
    notes: [
      `A = ${raterLabel(a)}; B = ${raterLabel(b)}${a === HUMANS || b === HUMANS ? " (per instance the mean of the annotators' scores, an annotator's repeats averaged first, as `report agreement` pools them)" : ""}`,
      `gap: |A − B|; range and annotators: the spread of the human annotators' scores (max − min, blank with fewer than two) and how many there are${a !== HUMANS && present.includes(a.rater) && scores.some((s) => s.rater === a.rater && s.rater_kind === "human") ? `, ${a.rater} left out as A` : ""}`,
      ...common, ...coverage.lines,
    ],
    columns: ["rank", "episode_id", "agent", "dimension", "a", "b", "gap", "range", "annotators", "a_rationale", "b_rationale"],
    rows: items.map((i, k) => ({
      rank: k + 1, episode_id: i.episode_id, agent: i.agent, dimension: i.dimension, a: i.a, b: i.b, gap: i.gap, range: i.range, annotators: i.annotators,
      a_rationale: rationaleText(i, a, rationales), b_rationale: rationaleText(i, b, rationales),
    })),
  };
}
