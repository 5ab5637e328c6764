// A build runs the data loaders in one process (src/data/run-loaders.ts) into
// Framework's cache: each output must be the bytes the loader writes when
// Framework runs it alone, a loader with a parameter gets it as Framework
// passes it, and a loader that fails leaves nothing behind for the build to use.

import {existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from "node:fs";
import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {loaderOfOutput, loaderOutputs, runLoaders, runLoadersOnce} from "../../src/data/site-cache.js";
import {REPO} from "../helpers/fixtures.js";
import {runLoaderAlone} from "../helpers/run-loader.js";
import {tempDir, tempSamplesStore} from "../helpers/store.js";

const SRC = join(REPO, "src");

/** What a loader writes when run alone, as Framework runs it (`tsx loader.ts [--param=value]`). */
const runAlone = (loader: string, args: string[], env: NodeJS.ProcessEnv): Promise<Buffer> => runLoaderAlone(loader, {args, env});

describe("finding a loader as Framework does", () => {
  it("maps an output to its loader file, or to a [param] loader with the parameter Framework passes", () => {
    expect(loaderOfOutput(SRC, "data/words-per-turn.parquet")).toEqual({loader: join(SRC, "data", "words-per-turn.parquet.ts"), args: []});
    expect(loaderOfOutput(SRC, "data/tables/episodes.parquet")).toEqual({loader: join(SRC, "data", "tables", "[table].parquet.ts"), args: ["--table=episodes"]});
    expect(loaderOfOutput(SRC, "data/no-such-file.parquet")).toBeNull();
  });

  it("lists every loader of src/data and the parameterised outputs of the dynamic paths, not helper modules", () => {
    const outputs = loaderOutputs(SRC, ["/data/tables/episodes.parquet", "/data/words-per-turn.parquet"]);
    expect(outputs).toContain("data/words-per-turn.parquet");
    expect(outputs).toContain("data/viewer-episodes.bin");
    expect(outputs).toContain("data/tables/episodes.parquet");
    expect(outputs.filter((o) => o === "data/words-per-turn.parquet")).toHaveLength(1);
    for (const helper of ["data/store", "data/site-cache", "data/viewer-pack", "data/explorer-tables"]) expect(outputs).not.toContain(helper);
  });
});

describe("running loaders in one process", () => {
  it("writes each output into the cache with the bytes the loader writes alone, on the samples", async () => {
    const store = await tempSamplesStore();
    store.close();
    const env = {...process.env, SOCIOMETER_DB: store.path};
    // A root whose data folder is src/data: the cache lands in the temporary folder, not in the repository.
    const root = tempDir();
    symlinkSync(join(SRC, "data"), join(root, "data"), "dir");
    const outputs = ["data/words-per-turn.parquet", "data/tables/episodes.parquet", "data/reliability-raters.json"];
    await runLoaders(root, outputs, env);
    for (const output of outputs) {
      const found = loaderOfOutput(root, output)!;
      const alone = await runAlone(found.loader, found.args, env);
      expect(alone.length, output).toBeGreaterThan(0);
      expect(readFileSync(join(root, ".observablehq", "cache", output)).equals(alone), output).toBe(true);
    }
  });

  it("leaves no output for a loader that fails, and runs only what the cache lacks", async () => {
    const root = tempDir();
    mkdirSync(join(root, "data", "pages"), {recursive: true});
    writeFileSync(join(root, "data", "fine.txt.ts"), 'process.stdout.write("fine");\n');
    writeFileSync(join(root, "data", "broken.txt.ts"), 'process.stdout.write("half");\nthrow new Error("no store");\n');
    writeFileSync(join(root, "data", "pages", "[page].txt.ts"), 'process.stdout.write(`page ${process.argv.slice(2).join(" ")}`);\n');
    const store = join(root, "store.duckdb");
    writeFileSync(store, "");
    const cached = (output: string) => join(root, ".observablehq", "cache", output);

    const ran = await runLoadersOnce(root, store, ["/data/pages/two.txt"]);
    expect(ran).toEqual(["data/broken.txt", "data/fine.txt", "data/pages/two.txt"]);
    expect(readFileSync(cached("data/fine.txt"), "utf8")).toBe("fine");
    expect(readFileSync(cached("data/pages/two.txt"), "utf8")).toBe("page --page=two");
    expect(existsSync(cached("data/broken.txt"))).toBe(false);
    // Only the failed loader is missing now; Framework's own run would report its error.
    expect(await runLoadersOnce(root, store, ["/data/pages/two.txt"])).toEqual(["data/broken.txt"]);
    expect(await runLoadersOnce(root, store, ["/data/pages/two.txt"], {...process.env, SOCIOMETER_SHARED_LOADERS: "0"})).toEqual([]);
  });
});
