// The agreement page's summary loader reads the store's numbered score rows a
// DuckDB chunk at a time into typed arrays (whole, as JS arrays, they took it
// past 2 GiB at a million episodes): its counts and first view must be those
// of the same rows read whole.

import {join} from "node:path";
import {describe, expect, it} from "vitest";
import {AGREEMENT_COLUMNS_SQL} from "../../loaders/queries/agreement.js";
import {rows} from "../../loaders/store/db.js";
import {columnsFromCodes, type CodedScores} from "../../src/client/agreement-columns.js";
import {AgreementEngine} from "../../src/client/agreement-engine.js";
import {parseSummary} from "../../src/client/agreement.js";
import {SOTOPIA_DIMENSIONS} from "../../src/lib/dimensions.js";
import {REPO} from "../helpers/fixtures.js";
import {runLoaderInProcess} from "../helpers/run-loader.js";
import {tempSamplesStore} from "../helpers/store.js";

const LOADER = join(REPO, "src", "data", "agreement-summary.json.ts");

/** The loader's output when Framework runs it alone over the store at `path`. */
const runLoader = async (path: string): Promise<string> => (await runLoaderInProcess(LOADER, {store: path})).toString("utf8");

/** JSON with NaN and infinities kept apart from null, as summaryJson writes them. */
const exact = (value: unknown): string => JSON.stringify(value, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? `number:${v}` : v));

describe("the agreement summary loader", () => {
  it("counts every numbered row of the samples and draws the first view from them, as when the rows are read whole", async () => {
    const store = await tempSamplesStore();
    const [expected] = await rows<{rows: number; instances: number; episodes: number}>(store.conn, `
      SELECT count(*)::INTEGER AS rows, count(DISTINCT instance)::INTEGER AS instances, count(DISTINCT episode)::INTEGER AS episodes
      FROM (${AGREEMENT_COLUMNS_SQL})`);
    const whole = (await store.conn.runAndReadAll(
      `SELECT instance, episode, dimension_code, played_human, rater_code, human, value FROM (${AGREEMENT_COLUMNS_SQL})`,
    )).getColumnsObject() as unknown as CodedScores;
    store.close();

    const summary = parseSummary(await runLoader(store.path));
    // Three DuckDB chunks (2,048 rows each) or more: the loader fills its arrays across chunk boundaries.
    expect(expected.rows).toBeGreaterThan(2 * 2048);
    expect({rows: summary.rows, instances: summary.instances, episodes: summary.episodes}).toEqual(expected);
    expect(summary.start).not.toBeNull();
    const columns = columnsFromCodes(whole, summary.raters.map((r) => r.rater), summary.dimensions);
    const view = new AgreementEngine(columns, SOTOPIA_DIMENSIONS.map((d) => d.key)).view(summary.start!);
    expect(exact(summary.view)).toBe(exact(view));
  });
});
