// The rater menus of the SOTOPIA and agreement pages count instances, and say
// so: a judge with two runs has twice as many scores in the store (the
// overview's count) as instances in the menus.

import {describe, expect, it} from "vitest";
import {importFiles} from "../../loaders/import/session.js";
import {AGREEMENT_ROWS_SQL} from "../../loaders/queries/agreement.js";
import {SOTOPIA_STATS_SQL, sotopiaGroupsSql} from "../../loaders/queries/sotopia.js";
import {rows} from "../../loaders/store/db.js";
import {choiceLabel} from "../../src/client/agreement.js";
import {raterLabel, sotopiaData, type SotopiaTables} from "../../src/client/sotopia.js";
import {HUMANS} from "../../src/lib/agreement-labels.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, tempStore, writeFile} from "../helpers/store.js";

describe("rater menu labels", () => {
  it("name a rater's instances, not its scores: gpt-4o's two runs on ep-1 are 28 scores and 14 instances (7 dimensions × 2 agents)", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("ep-1"), dumpRecord("ep-2")]))]);
    const reruns = "episode_id,agent,dimension,rater,rater_kind,run_id,value\n" + ["run-1", "run-2"].flatMap((run) =>
      [1, 2].flatMap((agent) => SOTOPIA_DIMENSIONS.map((d) => `ep-1,${agent},${d.key},gpt-4o,llm,${run},${d.hi}`))).join("\n") + "\n";
    await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "reruns.csv", reruns)]);
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'gpt-4o'")).toBe(28);

    // The SOTOPIA page's menu, from its first-view statistics.
    const groups = await rows(store.conn, sotopiaGroupsSql(`(${SOTOPIA_STATS_SQL})`));
    const sotopia = sotopiaData({sotopia_groups: groups} as unknown as SotopiaTables);
    expect(sotopia.raters.map(raterLabel)).toEqual(["judge-x (llm, 28 instances)", "gpt-4o (llm, 14 instances)"]);

    // The agreement page's menus: each rater's rows of the multiply-rated episodes (ep-1 only), as its summary counts them.
    const agreementRows = await rows<{rater: string; rater_kind: string}>(store.conn, AGREEMENT_ROWS_SQL);
    const raters = ["gpt-4o", "judge-x"].map((rater) => ({rater, rater_kind: "llm", instances: agreementRows.filter((r) => r.rater === rater).length}));
    const data = {raters, humans: 0};
    expect(raters.map((r) => choiceLabel({rater: r.rater}, data))).toEqual(["gpt-4o (llm, 14 instances)", "judge-x (llm, 14 instances)"]);
    expect(choiceLabel({rater: "one"}, {raters: [{rater: "one", rater_kind: "human", instances: 1}], humans: 1})).toBe("one (human, 1 instance)");
    expect(choiceLabel(HUMANS, {raters: [], humans: 3})).toBe("mean of human annotators (3 annotators)");
  });
});
