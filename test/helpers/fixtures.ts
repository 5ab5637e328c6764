// Real fixtures live in ../shared/fixtures/external and are read from there, never copied.
// Without ../shared a test is skipped with a visible message; under CI it must be there.

import {existsSync} from "node:fs";
import {dirname, join, resolve} from "node:path";
import {fileURLToPath} from "node:url";
import {describe} from "vitest";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = resolve(REPO, "../shared/fixtures/external");
export const fixture = (...parts: string[]) => join(FIXTURES, ...parts);

const available = existsSync(FIXTURES);
if (!available && process.env.CI) throw new Error(`CI is set but the shared fixtures are missing at ${FIXTURES}`);
if (!available) console.warn(`SKIPPING fixture tests: ${FIXTURES} not found`);

/** `describe` for suites that read the shared fixtures. */
export const describeWithFixtures = available ? describe : describe.skip;
