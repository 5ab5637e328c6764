// `sociometer report agreement` as a user runs it: the annotators' kappa and
// its items are the paper's whatever rater A is, the kappa with A is over A's
// instances, and both item counts are printed (test/helpers/annotated-goal.ts).

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {ANNOTATORS_KAPPA_NOTE} from "../../src/lib/agreement.js";
import {AMONG_ANNOTATORS, ANNOTATOR_GOAL_CSV, WITH_A} from "../helpers/annotated-goal.js";
import {cli} from "../helpers/cli.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {tempDir, writeFile} from "../helpers/store.js";

interface AgreementJsonRow {
  a: string;
  dimension: string;
  played_by: string;
  n: number;
  items_humans: number;
  kappa_humans: number;
  po_humans: number;
  items_with_a: number;
  kappa_with_a: number;
  po_with_a: number;
}

describe("sociometer report agreement: kappa among the annotators", () => {
  it("prints the annotators' kappa over all 5 annotated items for an LLM judge that scored 2 of them and for annotators as A, with each kappa's items", async () => {
    const dir = tempDir();
    const db = join(dir, "s.duckdb");
    // judge-x scores ep-1 (dumpRecord's GOAL 7 on both agents); ep-2 and ep-3 only the annotators.
    const episodes = [dumpRecord("ep-1"), dumpRecord("ep-2", {raw_rewards: []}), dumpRecord("ep-3", {raw_rewards: []})];
    expect((await cli(["import", "sotopia", writeFile(dir, "e.jsonl", jsonl(episodes)), "--db", db, "--quiet"])).code).toBe(0);
    expect((await cli(["import", "sotopia-ratings", writeFile(dir, "h.csv", ANNOTATOR_GOAL_CSV), "--db", db, "--quiet"])).code).toBe(0);

    const out = await cli(["report", "agreement", "--rater", "judge-x", "--rater", "h1", "--rater", "h3", "--format", "json", "--db", db]);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as {notes: string[]; rows: AgreementJsonRow[]};
    expect(report.notes).toContain(ANNOTATORS_KAPPA_NOTE);
    const row = (a: string, dimension: string) => report.rows.find((r) => r.a === a && r.dimension === dimension && r.played_by === "all")!;
    for (const a of ["judge-x", "h1", "h3"]) {
      for (const dimension of ["goal", "all"]) {
        const r = row(a, dimension);
        const where = `${a} ${dimension}`;
        expect([r.items_humans, r.items_with_a], where).toEqual([AMONG_ANNOTATORS.items, WITH_A[a]!.items]);
        expect(r.kappa_humans, where).toBeCloseTo(AMONG_ANNOTATORS.kappa, 12);
        expect(r.po_humans, where).toBeCloseTo(AMONG_ANNOTATORS.pairwiseAgreement, 12);
        expect(r.kappa_with_a, where).toBeCloseTo(WITH_A[a]!.kappa, 12);
        expect(r.po_with_a, where).toBeCloseTo(WITH_A[a]!.pairwiseAgreement, 12);
      }
    }
    // judge-x is paired on its 2 annotated GOAL instances: the kappa with it is over those, the annotators' over all 5.
    expect(row("judge-x", "goal").n).toBe(2);

    // Without --rater the report starts on judge-x, the one LLM rater, with the same numbers; the text table has both item columns.
    const text = await cli(["report", "agreement", "--db", db]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    const header = lines.find((l) => l.includes("kappa_humans"))!.trim().split(/\s+/);
    expect(header.slice(header.indexOf("items_humans"))).toEqual(["items_humans", "kappa_humans", "po_humans", "items_with_a", "kappa_with_a", "po_with_a"]);
    const goal = lines.find((l) => /^\s*judge-x\s+goal\s+all\s/.test(l))!.trim().split(/\s+/);
    expect(goal.slice(-6)).toEqual(["5", "0.583", "0.667", "2", "0.375", "0.500"]);
  });
});
