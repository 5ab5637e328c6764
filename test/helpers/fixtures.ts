// Real fixtures live in ../shared/fixtures/external and are read from there, never copied.
// Without ../shared their suites are skipped and counted in the run's last line;
// under CI they must be there.

import {existsSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {describeUnless} from "./skips.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Where the fixtures are as the skip reason names them; SOCIOMETER_FIXTURES points elsewhere. */
const FIXTURES_NAMED = process.env.SOCIOMETER_FIXTURES || "../shared/fixtures/external";
export const FIXTURES = resolve(REPO, FIXTURES_NAMED);
export const fixture = (...parts: string[]) => join(FIXTURES, ...parts);

/** Why fixture suites are skipped, or null when the fixtures are there. */
export const FIXTURES_MISSING = existsSync(FIXTURES) ? null : `${FIXTURES_NAMED} not found`;
if (FIXTURES_MISSING && process.env.CI) throw new Error(`CI is set but the shared fixtures are missing at ${FIXTURES}`);

/**
 * `describe` for suites that read the shared fixtures. Vitest runs the body of
 * a skipped suite to collect its tests, so the body must not read fixtures
 * itself: do that in beforeAll or in the tests.
 */
export function describeWithFixtures(name: string, factory: () => void): void {
  describeUnless(FIXTURES_MISSING, name, factory);
}
