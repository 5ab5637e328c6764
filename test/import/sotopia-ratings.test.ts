import {afterAll, beforeAll, describe, expect, it} from "vitest";
import {mkdtempSync, readdirSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, dirname, join} from "node:path";
import {parseCsv} from "../../loaders/import/csv.js";
import {ImportError} from "../../loaders/import/errors.js";
import {importFiles, type ImportSummary} from "../../loaders/import/session.js";
import {openStore, rows, type Store} from "../../loaders/store/db.js";
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
    expect((await failure(store, HEADER + "ep-1,1,charm,a,2,\n")).problem).toMatch(/^unknown dimension "charm" \(expected one of /);
    expect((await failure(store, HEADER + "ep-1,1,goal,a,high,\n")).problem).toBe('expected a decimal number in [0, 10], got "high"');
    expect((await failure(store, HEADER + "ep-1,3,goal,a,5,\n")).problem).toContain("seat 3 does not exist");
    expect((await failure(store, HEADER + "ep-1,Nobody,goal,a,5,\n")).problem).toContain("neither a seat number nor a participant");
    expect((await failure(store, HEADER + "ep-1,1,goal\n")).problem).toBe("has 3 fields, the header has 6");
    expect((await failure(store, "episode,score\nep-1,5\n")).problem).toMatch(/^missing column\(s\) episode_id, agent, dimension, rater, value/);
  });

  it("names the dimension column for an unknown dimension, with the dimension probably meant", async () => {
    const store = await storeWithEpisode();
    const e = await failure(store, HEADER + "ep-1,1,goal,a,5,\nep-1,1,believabilty,a,7,\n");
    expect(e.message).toBe(`${join(store.dir, "r.csv")}:3: dimension: unknown dimension "believabilty": did you mean "believability"? (expected one of believability, relationship, knowledge, secret, social_rules, financial_and_material_benefits, goal)`);
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

const WIDE = "ID,model,pk,prolific_id,goal_1,goal_2\n";
/** The summary's note on a file like WIDE, which scores one dimension. */
const GOAL_ONLY = "scores 1 of the 7 SOTOPIA dimensions, for every seat: goal (no columns for believability, relationship, knowledge, secret, social_rules, financial_and_material_benefits)";
const withPlaceholder = (id: string, models = ["judge-x", "gpt-3.5-turbo", "custom_model"]) => dumpRecord(id, {experiment_model_name_pairs: models});

async function storeWithPlaceholders(ids = ["ep-1", "ep-2"]): Promise<Store & {dir: string; log: string}> {
  const store = await tempStore();
  const log = writeFile(store.dir, "e.jsonl", jsonl(ids.map((id) => withPlaceholder(id))));
  await importFiles(store, "sotopia", [log]);
  return Object.assign(store, {log});
}

const seatModels = (store: Store) => rows(store.conn, "SELECT episode_id, agent, model FROM participants ORDER BY ALL");

describe("sotopia-ratings naming placeholder seats (custom_model) from the model column", () => {
  it("names the custom_model seat of each episode, and says so in the summary", async () => {
    const store = await storeWithPlaceholders();
    const summary = await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "bc.csv", WIDE + "1,BC,ep-1,r1,5,6\n2,BC,ep-1,r2,4,6\n3,BC,ep-2,r1,3,3\n")]);
    expect(summary.files[0]!.modelNames).toEqual([{placeholder: "custom_model", model: "BC", episodes: 2}]);
    expect(summary.files[0]!.notes).toEqual([GOAL_ONLY]);
    expect(await seatModels(store)).toEqual([
      {episode_id: "ep-1", agent: 1, model: "gpt-3.5-turbo"}, {episode_id: "ep-1", agent: 2, model: "BC"},
      {episode_id: "ep-2", agent: 1, model: "gpt-3.5-turbo"}, {episode_id: "ep-2", agent: 2, model: "BC"},
    ]);
  });

  it("refuses two names for one seat in one file, naming the line, and leaves the store as it was", async () => {
    const store = await storeWithPlaceholders();
    const e = await failure(store, WIDE + "1,BC,ep-1,r1,5,6\n2,SR,ep-1,r2,4,6\n");
    expect([e.line, e.field]).toEqual([3, "model"]);
    expect(e.problem).toBe('names seat 2 of episode ep-1 (custom_model in its log) "SR", but line 2 named it "BC": one seat cannot be two models');
  });

  it("refuses a second file that names a seat differently from the first, naming both files and lines", async () => {
    const store = await storeWithPlaceholders();
    const first = writeFile(store.dir, "bc.csv", WIDE + "1,BC,ep-1,r1,5,6\n");
    await importFiles(store, "sotopia-ratings", [first]);
    const e = await expectImportFailure(store, "sotopia-ratings", [writeFile(store.dir, "sr.csv", WIDE + "1,SR,ep-1,r2,4,6\n")]);
    expect([e.file, e.line, e.field]).toEqual([join(store.dir, "sr.csv"), 2, "model"]);
    expect(e.problem).toBe(`names seat 2 of episode ep-1 "SR", but ${first}:2 names it "BC": one seat cannot be two models`);
    expect(await count(store, "SELECT count(*) FROM participants WHERE model = 'BC'")).toBe(1);
  });

  it("refuses to guess when both seats are placeholders", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([withPlaceholder("ep-1", ["judge-x", "custom_model", "custom_model"])]))]);
    const e = await failure(store, WIDE + "1,BC,ep-1,r1,5,6\n");
    expect([e.line, e.field]).toEqual([2, "model"]);
    expect(e.problem).toBe('episode ep-1 calls seats 1 and 2 all "custom_model": cannot tell which of them is "BC"');
  });

  it("leaves seats the log names alone, whatever the model column says", async () => {
    const store = await tempStore();
    await importFiles(store, "sotopia", [writeFile(store.dir, "e.jsonl", jsonl([withPlaceholder("ep-1", ["judge-x", "gpt-3.5-turbo", "gpt-4"])]))]);
    const summary = await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "g.csv", WIDE + "1,gpt4,ep-1,r1,5,6\n")]);
    expect(summary.files[0]!.modelNames).toEqual([]);
    expect((await seatModels(store)).map((r) => r.model)).toEqual(["gpt-3.5-turbo", "gpt-4"]);
  });

  it("names the seat again when the episode log changes after the ratings, and takes a name back when the ratings file changes", async () => {
    const store = await storeWithPlaceholders(["ep-1"]);
    const ratings = writeFile(store.dir, "r.csv", WIDE + "1,BC,ep-1,r1,5,6\n");
    await importFiles(store, "sotopia-ratings", [ratings]);
    // The log changes (another scenario text): its rows are replaced, the seat reads custom_model again, and the stored name is applied.
    writeFile(store.dir, "e.jsonl", jsonl([withPlaceholder("ep-1", undefined)].map((r) => ({...r, scenario: "changed"}))));
    const replaced = await importFiles(store, "sotopia", [store.log]);
    expect(replaced.files[0]!.status).toBe("replaced");
    expect((await seatModels(store)).map((r) => r.model)).toEqual(["gpt-3.5-turbo", "BC"]);
    // The ratings file now names the seat SR: the old name goes with the old file's rows.
    writeFile(store.dir, "r.csv", WIDE + "1,SR,ep-1,r1,5,6\n");
    await importFiles(store, "sotopia-ratings", [ratings]);
    expect((await seatModels(store)).map((r) => r.model)).toEqual(["gpt-3.5-turbo", "SR"]);
    expect(await rows(store.conn, "SELECT episode_id, agent, placeholder, model, line FROM model_names")).toEqual([
      {episode_id: "ep-1", agent: 2, placeholder: "custom_model", model: "SR", line: 2},
    ]);
  });

  it("keeps a seat's name while another ratings file still gives it, when one file naming it changes", async () => {
    const store = await storeWithPlaceholders(["ep-1"]);
    const a = writeFile(store.dir, "a.csv", WIDE + "1,BC,ep-1,r1,5,6\n");
    await importFiles(store, "sotopia-ratings", [a, writeFile(store.dir, "b.csv", WIDE + "1,BC,ep-1,r2,4,6\n")]);
    // a.csv no longer names the model: its claim goes, b.csv's stays, and the seat keeps its name.
    writeFile(store.dir, "a.csv", WIDE + "1,,ep-1,r1,5,6\n");
    const changed = await importFiles(store, "sotopia-ratings", [a]);
    expect(changed.files[0]!.status).toBe("replaced");
    expect((await seatModels(store)).map((r) => r.model)).toEqual(["gpt-3.5-turbo", "BC"]);
  });

  it("reads a model column that counts up row by row (a spreadsheet fill series) as one model, and says so", async () => {
    const store = await storeWithPlaceholders();
    const csv = WIDE + "1,sr-round2,ep-1,r1,5,6\n2,sr-round3,ep-1,r2,4,6\n3,sr-round4,ep-2,r1,3,3\n";
    const summary = await importFiles(store, "sotopia-ratings", [writeFile(store.dir, "sr.csv", csv)]);
    expect(summary.files[0]!.modelNames).toEqual([{placeholder: "custom_model", model: "sr-round", episodes: 2}]);
    expect(summary.files[0]!.notes).toEqual([
      GOAL_ONLY,
      'the model column counts up row by row ("sr-round2" on line 2 … "sr-round4" on line 4), as a spreadsheet fill series does, and so names one episode differently on different rows: read as one model, "sr-round"',
    ]);
    // Counting down is no fill series: the two names for ep-1 are refused.
    const store2 = await storeWithPlaceholders();
    const e = await failure(store2, WIDE + "1,sr-round4,ep-1,r1,5,6\n2,sr-round3,ep-1,r2,4,6\n3,sr-round2,ep-2,r1,3,3\n");
    expect([e.line, e.field]).toEqual([3, "model"]);
  });
});

const HUMAN_EVAL = fixture("sotopia-lab__sotopia-pi/human_eval");
const OTREE = join(HUMAN_EVAL, "otree_project/sotopia_official_study");

describeWithFixtures("sotopia-ratings on the real SOTOPIA annotation files (wide layout)", () => {
  // One import serves the tests below (4–6 s each on a busy machine): the logs, then the six CSVs.
  let store: Store;
  let summary: ImportSummary;
  let customModelEpisodes: number;
  beforeAll(async () => {
    store = await openStore(join(mkdtempSync(join(tmpdir(), "sociometer-annotation-study-")), "study.duckdb"));
    const logs = readdirSync(OTREE).flatMap((d) => readdirSync(join(OTREE, d)).map((f) => join(OTREE, d, f)));
    const csvs = readdirSync(HUMAN_EVAL).filter((f) => f.endsWith(".csv")).map((f) => join(HUMAN_EVAL, f));
    await importFiles(store, "sotopia", logs);
    customModelEpisodes = await count(store, "SELECT count(DISTINCT episode_id) FROM participants WHERE model = 'custom_model'");
    summary = await importFiles(store, "sotopia-ratings", csvs);
  }, 120_000);
  afterAll(() => {
    store?.close();
    if (store) rmSync(dirname(store.path), {recursive: true, force: true});
  });

  it("imports 154 annotated episodes with 2–3 annotation rows each, joined to their episode logs", async () => {

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

  it("tells the four fine-tuned models the logs call custom_model apart by the CSVs' model column, 28 episodes each", async () => {
    // Before the CSVs: the logs name all four custom_model.
    expect(customModelEpisodes).toBe(112);

    const named = Object.fromEntries(summary.files.map((f) => [basename(f.path), f.modelNames]));
    expect(named).toEqual({
      "BC+SR_final.csv": [{placeholder: "custom_model", model: "BC-selftrain-1", episodes: 28}],
      "BC_final.csv": [{placeholder: "custom_model", model: "BC", episodes: 28}],
      "SR_final.csv": [{placeholder: "custom_model", model: "mistral-selftrain-round", episodes: 28}],
      "gpt3.5_final.csv": [],
      "gpt4_final.csv": [],
      "mistral-instruct_final.csv": [{placeholder: "custom_model", model: "mistral", episodes: 28}],
    });
    // SR_final.csv's model column is mistral-selftrain-round2 … round56, one number per row: the summary says how it was read.
    expect(summary.files.find((f) => basename(f.path) === "SR_final.csv")!.notes).toEqual([
      'the model column counts up row by row ("mistral-selftrain-round2" on line 2 … "mistral-selftrain-round56" on line 57), as a spreadsheet fill series does, and so names one episode differently on different rows: read as one model, "mistral-selftrain-round"',
    ]);
    // Episodes per model (either seat), from the six oTree folders: 28 per pairing with GPT-3.5, 14 of GPT-3.5 with itself.
    expect(await rows(store.conn, "SELECT model, count(DISTINCT episode_id)::INT AS episodes FROM participants GROUP BY 1 ORDER BY 1")).toEqual([
      {model: "BC", episodes: 28}, {model: "BC-selftrain-1", episodes: 28}, {model: "gpt-3.5-turbo", episodes: 154},
      {model: "gpt-4", episodes: 28}, {model: "mistral", episodes: 28}, {model: "mistral-selftrain-round", episodes: 28},
    ]);
    // Each named model sits in the folder of its pairing: the GPT3.5-BC logs are BC's, and so on.
    expect(await rows(store.conn, `SELECT p.model, list(DISTINCT e.tag) AS tags FROM participants p JOIN episodes e USING (episode_id)
      WHERE p.model IN ('BC', 'BC-selftrain-1', 'mistral', 'mistral-selftrain-round') GROUP BY 1 ORDER BY 1`)).toEqual([
      {model: "BC", tags: ["sft-round-2_checkpoint_improve-0_epoch-20_gpt-3.5-turbo_test"]},
      {model: "BC-selftrain-1", tags: ["sft-selftrain-round-1-filtered-top-4_checkpoint_improve-0_epoch-5_gpt-3.5-turbo_test"]},
      {model: "mistral", tags: ["mistral-instruct_gpt-3.5-turbo_test"]},
      {model: "mistral-selftrain-round", tags: ["init-selftrain-round-1_checkpoint_improve-0_epoch-18_gpt-3.5-turbo_test"]},
    ]);
  });

  it("refuses the annotation files when their episodes were not imported, and says how to fix it", async () => {
    const store = await tempStore();
    const e = await importFiles(store, "sotopia-ratings", [join(HUMAN_EVAL, "gpt4_final.csv")]).then(() => null, (x: unknown) => x);
    expect((e as ImportError).field).toBe("pk");
    expect((e as ImportError).problem).toContain("import its episode log first");
  });
});

const DIMENSIONS = "believability, relationship, knowledge, secret, social_rules, financial_and_material_benefits, goal";

/** A copy of a real wide file in the store's folder, its columns passed through `edit` (name and cells together). */
function editedCopy(dir: string, file: string, edit: (columns: {name: string; cells: string[]}[]) => {name: string; cells: string[]}[]): string {
  const parsed = [...parseCsv(readFileSync(join(HUMAN_EVAL, file), "utf8"))].map((r) => r.fields);
  const columns = edit(parsed[0]!.map((name, i) => ({name, cells: parsed.slice(1).map((r) => r[i]!)})));
  const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
  const lines = [columns.map((c) => quoted(c.name)).join(",")];
  for (let r = 0; r < parsed.length - 1; r++) lines.push(columns.map((c) => quoted(c.cells[r]!)).join(","));
  return writeFile(dir, file, lines.join("\n") + "\n");
}
const renamed = (from: string, to: string) => (cs: {name: string; cells: string[]}[]) => cs.map((c) => (c.name === from ? {...c, name: to} : c));
const without = (...names: string[]) => (cs: {name: string; cells: string[]}[]) => cs.filter((c) => !names.includes(c.name.trim()));

describeWithFixtures("sotopia-ratings refuses a wide file whose header would leave scores behind", () => {
  // gpt3.5_final.csv: 29 responses to the 14 GPT3.5-GPT3.5 episodes, 7 dimensions × 2 seats each.
  async function storeWithLogs(): Promise<Store & {dir: string}> {
    const store = await tempStore();
    await importFiles(store, "sotopia", readdirSync(join(OTREE, "GPT3.5-GPT3.5")).map((f) => join(OTREE, "GPT3.5-GPT3.5", f)));
    return store;
  }

  it("imports the file as it is: 406 scores, and no note", async () => {
    const store = await storeWithLogs();
    const summary = await importFiles(store, "sotopia-ratings", [editedCopy(store.dir, "gpt3.5_final.csv", (cs) => cs)]);
    expect(summary.ratings).toBe(29 * 14);
    expect(summary.files[0]!.notes).toEqual([]);
  });

  it("refuses a misspelt score column, naming it and the dimension meant, and imports nothing", async () => {
    const store = await storeWithLogs();
    const path = editedCopy(store.dir, "gpt3.5_final.csv", renamed("believability_1", "beleivability_1"));
    const e = await expectImportFailure(store, "sotopia-ratings", [path]);
    expect(e.message).toBe(`${path}:1: header: column 6, "beleivability_1", is named like a score column of seat 1, but "beleivability" is no SOTOPIA dimension (did you mean believability_1?); the dimensions are ${DIMENSIONS}`);
    // A misspelt rationale column is named the same way; a name far from any dimension is only refused.
    const reasoning = editedCopy(store.dir, "gpt3.5_final.csv", renamed("social_rules_reasoning_2", "social_rule_reasoning_2"));
    expect((await expectImportFailure(store, "sotopia-ratings", [reasoning])).problem).toBe(
      `column 29, "social_rule_reasoning_2", is named like a score column of seat 2, but "social_rule" is no SOTOPIA dimension (did you mean social_rules_reasoning_2?); the dimensions are ${DIMENSIONS}`);
    const overall = editedCopy(store.dir, "gpt3.5_final.csv", (cs) => [...cs, {name: "overall_1", cells: cs[0]!.cells.map(() => "5")}]);
    expect((await expectImportFailure(store, "sotopia-ratings", [overall])).problem).toBe(
      `column 34, "overall_1", is named like a score column of seat 1, but "overall" is no SOTOPIA dimension (rename or remove it); the dimensions are ${DIMENSIONS}`);
    // The same other spelling for both seats would leave a consistent file of six dimensions: refused too.
    const spelt = editedCopy(store.dir, "gpt3.5_final.csv", (cs) => renamed("goal_2", "Goal2")(renamed("goal_1", "goal-1")(cs)));
    expect((await expectImportFailure(store, "sotopia-ratings", [spelt])).problem).toBe(
      'column 18, "goal-1", looks like the score column goal_1 spelt another way (wide files name them <dimension>_<seat>); ' +
        `column 32, "Goal2", looks like the score column goal_2 spelt another way (wide files name them <dimension>_<seat>); the dimensions are ${DIMENSIONS}`);
    const spaced = editedCopy(store.dir, "gpt3.5_final.csv", renamed("believability_reasoning_2", "believabilty reasoning 2"));
    expect((await expectImportFailure(store, "sotopia-ratings", [spaced])).problem).toContain(
      'column 21, "believabilty reasoning 2", looks like the score column believability_reasoning_2 spelt another way');
    expect(await count(store, "SELECT count(*) FROM ratings")).toBe(0);
  });

  it("refuses a dimension scored for one seat and not the other, naming the missing columns, and imports nothing of any file", async () => {
    const store = await storeWithLogs();
    await importFiles(store, "sotopia", readdirSync(join(OTREE, "GPT3.5-GPT4")).map((f) => join(OTREE, "GPT3.5-GPT4", f)));
    const good = join(HUMAN_EVAL, "gpt4_final.csv");
    const path = editedCopy(store.dir, "gpt3.5_final.csv", without("goal_2"));
    const e = await expectImportFailure(store, "sotopia-ratings", [good, path]);
    expect(e.message).toBe(`${path}:1: header: missing score column(s) goal_2 (the file scores goal for seat 1 only): a wide file scores each of its dimensions for every seat (1 and 2 here)`);
    const two = editedCopy(store.dir, "gpt3.5_final.csv", without("goal_2", "secret_1", "secret_reasoning_1"));
    expect((await expectImportFailure(store, "sotopia-ratings", [two])).problem).toBe(
      "missing score column(s) secret_1, goal_2 (the file scores secret for seat 2 only, goal for seat 1 only): a wide file scores each of its dimensions for every seat (1 and 2 here)");
    // A rationale column whose scores are gone for both seats.
    const orphan = editedCopy(store.dir, "gpt3.5_final.csv", without("goal_1", "goal_2"));
    expect((await expectImportFailure(store, "sotopia-ratings", [orphan])).problem).toBe(
      'column "goal_reasoning_1" holds rationales for a score column goal_1 the file does not have');
    // Two columns of one name (the reader would see the second only), and a seat 0.
    const twice = editedCopy(store.dir, "gpt3.5_final.csv", renamed("goal_2", "goal_1"));
    const dup = await expectImportFailure(store, "sotopia-ratings", [twice]);
    expect([dup.line, dup.field, dup.problem]).toEqual([1, "goal_1",
      'column 18 and column 32 are both named "goal_1" (header names are compared after trimming spaces around them; case counts): rename or remove one of them']);
    const zero = editedCopy(store.dir, "gpt3.5_final.csv", (cs) => [...cs, {name: "goal_0", cells: cs[0]!.cells.map(() => "5")}]);
    expect((await expectImportFailure(store, "sotopia-ratings", [zero])).problem).toBe('column 34, "goal_0", names seat 0; seats count from 1');
    expect(await count(store, "SELECT count(*) FROM ratings")).toBe(0);
  });

  it("imports a file that scores fewer dimensions for every seat, and says which", async () => {
    const store = await storeWithLogs();
    const path = editedCopy(store.dir, "gpt3.5_final.csv", without("goal_1", "goal_reasoning_1", "goal_2", "goal_reasoning_2"));
    const summary = await importFiles(store, "sotopia-ratings", [path]);
    expect(summary.ratings).toBe(29 * 12);
    expect(summary.files[0]!.notes).toEqual([
      "scores 6 of the 7 SOTOPIA dimensions, for every seat: believability, relationship, knowledge, secret, social_rules, financial_and_material_benefits (no columns for goal)",
    ]);
    expect(await rows(store.conn, "SELECT DISTINCT dimension FROM ratings WHERE dimension LIKE 'g%'")).toEqual([]);
  });
});
