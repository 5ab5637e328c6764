import {describe, expect, it} from "vitest";
import {readdirSync} from "node:fs";
import {join} from "node:path";
import {ImportError} from "../../loaders/import/errors.js";
import {importFiles} from "../../loaders/import/session.js";
import {rows, type Store} from "../../loaders/store/db.js";
import {describeWithFixtures, fixture} from "../helpers/fixtures.js";
import {dumpRecord, jsonl} from "../helpers/episodes.js";
import {count, expectImportFailure, tempStore, writeFile} from "../helpers/store.js";

const HEADER = "episode_id,agent,dimension,rater,value,rationale\n";

async function storeWithEpisode(): Promise<Store & {dir: string}> {
  const store = await tempStore();
  await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([dumpRecord("ep-1")]))]);
  return store;
}

const failure = (store: Store & {dir: string}, csv: string) => expectImportFailure(store, "sotopia-ratings", [writeFile(store.dir, "r.csv", csv)]);

describe("sotopia-ratings, long layout", () => {
  it("stores human scores by seat number or participant name, with multi-line quoted rationales", async () => {
    const store = await storeWithEpisode();
    const csv = HEADER + 'ep-1,1,goal,ann-1,6,"line one\nline ""two"""\nep-1,Bo Chen,goal,ann-1,4,\n';
    const summary = await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "r.csv", csv)]);
    expect(summary).toMatchObject({ratings: 2, rejected: 0});
    expect(await rows(store.conn, "SELECT agent, value, rater_kind, rationale FROM ratings WHERE rater = 'ann-1' ORDER BY agent")).toEqual([
      {agent: 1, value: 6, rater_kind: "human", rationale: 'line one\nline "two"'},
      {agent: 2, value: 4, rater_kind: "human", rationale: null},
    ]);
  });

  it("rejects a rating for an episode that does not exist, naming the row", async () => {
    const store = await storeWithEpisode();
    const e = await failure(store, HEADER + "ep-1,1,goal,a,5,\nep-404,1,goal,a,5,\n");
    expect([e.line, e.field]).toEqual([3, "episode_id"]);
    expect(e.problem).toContain('episode "ep-404" is not in the store');
  });

  it("rejects out-of-range values, unknown dimensions, non-numbers, unknown seats and short rows", async () => {
    const store = await storeWithEpisode();
    expect((await failure(store, HEADER + "ep-1,1,secret,a,2,\n")).problem).toBe("2 is outside SEC's range [-10, 0]");
    expect((await failure(store, HEADER + "ep-1,1,charm,a,2,\n")).problem).toMatch(/^unknown dimension "charm"/);
    expect((await failure(store, HEADER + "ep-1,1,goal,a,high,\n")).problem).toBe('expected a decimal number in [0, 10], got "high"');
    expect((await failure(store, HEADER + "ep-1,3,goal,a,5,\n")).problem).toContain("seat 3 does not exist");
    expect((await failure(store, HEADER + "ep-1,Nobody,goal,a,5,\n")).problem).toContain("neither a seat number nor a participant");
    expect((await failure(store, HEADER + "ep-1,1,goal\n")).problem).toBe("has 3 fields, the header has 6");
    expect((await failure(store, "episode,score\nep-1,5\n")).problem).toMatch(/^missing column\(s\) episode_id, agent, dimension, rater, value/);
  });

  it("rejects the same rater scoring the same thing twice with different values, within a file or across imports", async () => {
    const store = await storeWithEpisode();
    expect((await failure(store, HEADER + "ep-1,1,goal,a,5,\nep-1,1,goal,a,6,\n")).problem).toContain("already rated goal of agent 1");
    await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "first.csv", HEADER + "ep-1,1,goal,a,5,\n")]);
    const e = await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "second.csv", HEADER + "ep-1,1,goal,a,7,\n")]).then(() => null, (x: unknown) => x);
    expect((e as ImportError).message).toContain("rated goal of agent 1 in ep-1 more than once");
    expect(await count(store, "SELECT count(*) FROM ratings WHERE rater = 'a'")).toBe(1);
  });
});

const HUMAN_EVAL = fixture("sotopia-lab__sotopia-pi/human_eval");
const OTREE = join(HUMAN_EVAL, "otree_project/sotopia_official_study");

describeWithFixtures("sotopia-ratings on the real SOTOPIA annotation files (wide layout)", () => {
  it("imports 154 annotated episodes with 2–3 annotation rows each, joined to their episode logs", async () => {
    const store = await tempStore();
    const logs = readdirSync(OTREE).flatMap((d) => readdirSync(join(OTREE, d)).map((f) => join(OTREE, d, f)));
    const csvs = readdirSync(HUMAN_EVAL).filter((f) => f.endsWith(".csv")).map((f) => join(HUMAN_EVAL, f));
    await importFiles(store, "sotopia", logs);
    const summary = await importFiles(store, "sotopia-ratings", csvs);

    // 309 rows in the six files; two rows repeat an earlier row exactly (same response ID, same scores) and count once.
    expect(summary.files.flatMap((f) => f.duplicateLines)).toHaveLength(2);
    expect(summary.ratings).toBe(307 * 14);
    expect(await count(store, "SELECT count(DISTINCT episode_id) FROM ratings WHERE rater_kind = 'human'")).toBe(154);
    expect(await count(store, "SELECT count(DISTINCT rater) FROM ratings")).toBe(20);
    // Responses per episode after removing the two exact repeats: 151 episodes with 2, one with 3, two with 1.
    expect(await rows(store.conn, `SELECT responses, count(*)::INT AS episodes FROM (
        SELECT episode_id, count(DISTINCT (rater, run_id))::INT AS responses FROM ratings GROUP BY 1) GROUP BY 1 ORDER BY 1`)).toEqual([
      {responses: 1, episodes: 2}, {responses: 2, episodes: 151}, {responses: 3, episodes: 1},
    ]);
    // Five (episode, rater) pairs hold two different responses by the same rater (distinct response IDs): both are kept.
    expect(await count(store, `SELECT count(*) FROM (SELECT episode_id, rater FROM ratings GROUP BY 1, 2 HAVING count(DISTINCT run_id) > 1)`)).toBe(5);
    // Sums per dimension, computed independently with Python's csv module over the distinct rows of the six files.
    expect(await rows(store.conn, "SELECT dimension, sum(value)::INT AS total, count(*)::INT AS n FROM ratings GROUP BY 1 ORDER BY 1")).toEqual([
      {dimension: "believability", total: 4392, n: 614},
      {dimension: "financial_and_material_benefits", total: 118, n: 614},
      {dimension: "goal", total: 2501, n: 614},
      {dimension: "knowledge", total: 815, n: 614},
      {dimension: "relationship", total: 333, n: 614},
      {dimension: "secret", total: -23, n: 614},
      {dimension: "social_rules", total: -390, n: 614},
    ]);
    // One row read by eye: rater-03 on 01H8FK34JHJSTT5HQVM5K8T4MQ gave agent 1 believability 3 and goal 5.
    expect(await rows(store.conn, `SELECT dimension, value, rationale FROM ratings WHERE episode_id = '01H8FK34JHJSTT5HQVM5K8T4MQ'
      AND rater = 'rater-03' AND agent = 1 AND dimension IN ('believability', 'goal') ORDER BY 1`)).toEqual([
      {dimension: "believability", value: 3, rationale: "The phrasing was too formal for the situation and the conversation indicated that more items were picked than the scenario allowed for."},
      {dimension: "goal", value: 5, rationale: "It is hard to judge whether Sophia achieved her goals as the conversation suggested more items were selected than were possible."},
    ]);
  });

  it("refuses the annotation files when their episodes were not imported, and says how to fix it", async () => {
    const store = await tempStore();
    const e = await importFiles(store, "sotopia-ratings", [join(HUMAN_EVAL, "gpt4_final.csv")]).then(() => null, (x: unknown) => x);
    expect((e as ImportError).field).toBe("pk");
    expect((e as ImportError).problem).toContain("import its episode log first");
  });
});
