import {describe, expect, it} from "vitest";
import {join} from "node:path";
import {ImportError} from "../../loaders/import/errors.js";
import {FORMATS} from "../../loaders/import/registry.js";
import {importFiles} from "../../loaders/import/session.js";
import {firstRecord, formatsThatFit, RECOGNISERS, suggestFormat, WrongFormatError} from "../../loaders/import/sniff.js";
import {SAMPLE_IMPORTS} from "../../loaders/samples.js";
import {describeWithFixtures, fixture, REPO} from "../helpers/fixtures.js";
import {jsonl} from "../helpers/episodes.js";
import {snapshot, tempDir, tempStore, writeFile} from "../helpers/store.js";

const STSS_TASKS = fixture("wcx21__Social-Tasks-in-Sandbox-Simulation/environment/data/task_0905/tasks.json");
const SONZAI = fixture("sonz-ai__sonzai-python/benchmarks/lifelong_sotopia/results/lifelong_sotopia_baseline-none_20260505-175555.jsonl");
const PI_CSV = fixture("sotopia-lab__sotopia-pi/human_eval/gpt4_final.csv");

describe("format recognisers", () => {
  it("cover exactly the registered formats", () => {
    expect(Object.keys(RECOGNISERS).sort()).toEqual(FORMATS.map((f) => f.name).sort());
  });

  it.each(SAMPLE_IMPORTS.map((s) => [s.path.slice(REPO.length + 1), s.format]))("%s fits %s and nothing else", (path, format) => {
    expect(formatsThatFit(join(REPO, path))).toEqual([format]);
  });

  it("recognise a canonical record", () => {
    const path = writeFile(tempDir(), "c.jsonl", jsonl([{episode_id: "c-1", benchmark: "stss", participants: [{model: "m"}], chain_id: "x", chain_index: 0}]));
    expect(formatsThatFit(path)).toEqual(["canonical"]);
  });

  it("read the first record of a JSON array, a JSONL file, and a CSV header (with a byte-order mark)", () => {
    const dir = tempDir();
    expect(firstRecord(writeFile(dir, "a.json", '[\n  {"goal": "g", "task": {"target": []}},\n  {"other": 1}\n]'))).toEqual({kind: "json", keys: new Set(["goal", "task"])});
    expect(firstRecord(writeFile(dir, "b.jsonl", '{"a": "}{\\"", "b": [1]}\n{"c": 2}\n'))).toEqual({kind: "json", keys: new Set(["a", "b"])});
    expect(firstRecord(writeFile(dir, "c.csv", '\uFEFFpk, prolific_id ,"goal_1"\n1,2,3\n'))).toEqual({kind: "csv", columns: new Set(["pk", "prolific_id", "goal_1"])});
  });

  it("find no record in an empty file, an array of numbers, or a JSON object cut short", () => {
    const dir = tempDir();
    expect(firstRecord(writeFile(dir, "empty.jsonl", "\n  \n"))).toBeNull();
    expect(firstRecord(writeFile(dir, "numbers.json", "[1, 2]"))).toBeNull();
    expect(firstRecord(writeFile(dir, "cut.jsonl", '{"episode_id": "a", "benchmark"'))).toBeNull();
  });
});

describe("suggestFormat", () => {
  it("leaves the error alone when the file fits the format it was read as (the record itself is wrong)", () => {
    const csv = writeFile(tempDir(), "r.csv", "episode_id,agent,dimension,rater,value\ne1,1,goal,r,3\n");
    const error = new ImportError(csv, 2, "episode_id", "episode \"e1\" is not in the store");
    expect(suggestFormat(error, "sotopia-ratings")).toBe(error);
    expect(suggestFormat(error, "sotopia")).toBeInstanceOf(WrongFormatError);
  });

  it("leaves the error alone when no format fits", () => {
    const error = new ImportError(writeFile(tempDir(), "p.jsonl", jsonl([{agent_id: "a", first_name: "Ann"}])), 1, null, "bad");
    expect(suggestFormat(error, "sotopia")).toBe(error);
  });

});

describe("every sample imported under every other format", () => {
  it("fails, leaves the store as it was, and names the sample's own format", async () => {
    const store = await tempStore();
    const before = await snapshot(store);
    const hints: string[] = [];
    for (const sample of SAMPLE_IMPORTS) {
      for (const {name} of FORMATS) {
        if (name === sample.format) continue;
        const error = await importFiles(store, name, [sample.path]).then(() => null, (e: unknown) => e);
        hints.push(`${name} ${sample.path.slice(REPO.length + 1)}: ${error instanceof WrongFormatError ? error.likely.join(" or ") : String(error)}`);
      }
    }
    const expected = SAMPLE_IMPORTS.flatMap((sample) => FORMATS.filter((f) => f.name !== sample.format)
      .map((f) => `${f.name} ${sample.path.slice(REPO.length + 1)}: ${sample.format}`));
    expect(hints).toEqual(expected);
    // 10 sample files (the judge reruns included) × the 10 formats each is not.
    expect(expected).toHaveLength(100);
    expect(await snapshot(store)).toEqual(before);
  }, 120_000);
});

describeWithFixtures("a real file imported under the wrong format", () => {
  it.each([
    ["stss", "tasks.json", STSS_TASKS, 1, "not valid JSON (Unexpected end of JSON input); is the record truncated?", "stss-tasks"],
    ["lifelong", "sonzai results", SONZAI, 1, "episode_id: expected a string, got nothing (the field is missing)", "sonzai-lifelong"],
    ["sotopia", "gpt4_final.csv", PI_CSV, 1, `not valid JSON (Unexpected token 'I', "ID,model,p"... is not valid JSON); is the record truncated?`, "sotopia-ratings"],
  ])("import %s <%s> fails, store unchanged, naming the format that fits", async (format, _name, path, line, problem, fits) => {
    const store = await tempStore();
    const before = await snapshot(store);
    const error = await importFiles(store, format, [path]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongFormatError);
    expect((error as Error).message).toBe(`${path}:${line}: ${problem}\n  this looks like ${fits}, not ${format}: sociometer import ${fits} ${path}`);
    expect(await snapshot(store)).toEqual(before);
  });

  it.each([
    ["wcx21__Social-Tasks-in-Sandbox-Simulation/environment/data/task_0905/tasks.json", "stss-tasks"],
    ["wcx21__Social-Tasks-in-Sandbox-Simulation/environment/data/task_0905/tasks_dlc.json", "stss-tasks"],
    ["sonz-ai__sonzai-python/benchmarks/lifelong_sotopia/results/lifelong_sotopia_baseline-none_20260505-175555.jsonl", "sonzai-lifelong"],
    ["sotopia-lab__sotopia-pi/human_eval/gpt4_final.csv", "sotopia-ratings"],
    ["sotopia-lab__sotopia-rl/example_episodes.jsonl", "sotopia"],
    ["sotopia-lab__sotopia-pi/human_eval/otree_project/sotopia_official_study/GPT3.5-BC/01HMN74FB8HVPT727QCV3SB27E.json", "sotopia"],
  ])("%s fits %s and nothing else", (path, format) => {
    expect(formatsThatFit(fixture(path))).toEqual([format]);
  });

  it("fits no format to files no importer reads (profiles, published aggregates)", () => {
    expect(formatsThatFit(fixture("sotopia-lab__sotopia-space/profiles/agent_profiles.jsonl"))).toEqual([]);
    expect(formatsThatFit(fixture("sotopia-lab__sotopia-space/data_dir/models_vs_gpt35.jsonl"))).toEqual([]);
  });
});
