// The agreement page's Disagreements section: for every (rater A, rater B,
// dimension) the page offers, the top instances by |A − B| as `report
// disagreements` ranks them (src/lib/disagreements.ts), with the rationales
// of only those instances, each text once. Bounded by the raters and the cut
// (perList rows a list), not by the episodes: the page decodes a few hundred
// rows at any store size. Key-shaped text is redacted, as in every page data file.

import {listValue} from "@duckdb/node-api";
import {AGREEMENT_ROWS_SQL} from "../../loaders/queries/agreement.js";
import {DISAGREEMENT_RATIONALES_SQL} from "../../loaders/queries/disagreements.js";
import {rows} from "../../loaders/store/db.js";
import {HUMANS, type RaterScore} from "../lib/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../lib/dimensions.js";
import {DEFAULT_DISAGREEMENT_LIMIT, disagreementLists, rationaleIndex, rationaleText, type RationaleRow} from "../lib/disagreements.js";
import {mean} from "../lib/stats.js";
import type {DisagreementPack, DisagreementRow} from "../components/disagreements.js";
import {redactText} from "./redaction.js";
import {withStore} from "./store.js";

const pack = await withStore(async ({conn}): Promise<DisagreementPack> => {
  const scores = await rows<RaterScore>(conn, AGREEMENT_ROWS_SQL);
  const present = new Set(scores.map((s) => s.dimension));
  const lists = disagreementLists(scores, SOTOPIA_DIMENSIONS.map((d) => d.key).filter((k) => present.has(k)), DEFAULT_DISAGREEMENT_LIMIT);
  const episodes = [...new Set(lists.flatMap((l) => l.items.map((i) => i.episode_id)))];
  const rationales = rationaleIndex(episodes.length ? await rows<RationaleRow>(conn, DISAGREEMENT_RATIONALES_SQL, [listValue(episodes)]) : []);
  const texts: string[] = [];
  const numbered = new Map<string, number>();
  const textIndex = (text: string): number => {
    const safe = redactText(text);
    let i = numbered.get(safe);
    if (i === undefined) numbered.set(safe, (i = texts.push(safe) - 1));
    return i;
  };
  const side = (name: string) => (name === HUMANS ? HUMANS : {rater: name});
  return {
    perList: DEFAULT_DISAGREEMENT_LIMIT, texts,
    lists: lists.map((l) => ({
      a: redactText(l.a), b: l.b === null ? null : redactText(l.b), dimension: l.dimension, paired: l.paired,
      rows: l.items.map((i): DisagreementRow => [
        i.episode_id, i.agent, i.dimension, i.a, i.b, i.gap, i.range, i.annotators, i.humans.length ? mean(i.humans.map((h) => h.value)) : null,
        l.b === null ? -1 : textIndex(rationaleText(i, side(l.a), rationales)), textIndex(rationaleText(i, l.b === null ? HUMANS : side(l.b), rationales)),
      ]),
    })),
  };
});

process.stdout.write(JSON.stringify(pack));
