// Which Chromium the browser tests drive, and starting it. In order: CHROME_PATH,
// Debian's `chromium` on PATH, then the Chromium that the @sparticuz/chromium
// npm package carries (brotli-compressed), so `npm install` alone is enough.
// SOCIOMETER_BROWSER_TESTS=off skips the browser tests, except under CI.

import {execFileSync} from "node:child_process";
import {existsSync, mkdtempSync, readFileSync, renameSync, rmSync} from "node:fs";
import {createRequire} from "node:module";
import {tmpdir} from "node:os";
import {dirname, join, resolve} from "node:path";
import {chromium, type Browser} from "playwright-core";

/** What to do when no Chromium starts: the exact command, and the two ways around it. */
export const INSTALL_HINT =
  "install Debian's Chromium with `sudo apt-get install chromium` (or set CHROME_PATH to a Chromium binary), " +
  "or skip the browser tests with SOCIOMETER_BROWSER_TESTS=off";

/** Why the browser tests are skipped ("SOCIOMETER_BROWSER_TESTS=off"), or null when they run. */
export function browserTestsOff(env: NodeJS.ProcessEnv = process.env): string | null {
  const value = env.SOCIOMETER_BROWSER_TESTS;
  if (value === undefined || value === "" || value === "on") return null;
  if (value !== "off") throw new Error(`SOCIOMETER_BROWSER_TESTS must be "on" or "off", not ${JSON.stringify(value)}`);
  if (env.CI) throw new Error("CI is set, and CI must run the browser tests: SOCIOMETER_BROWSER_TESTS=off is refused");
  return "SOCIOMETER_BROWSER_TESTS=off";
}

/** Where a Chromium can come from; tests replace these to check the order and the errors. */
export interface ChromiumSources {
  env: NodeJS.ProcessEnv;
  /** The path of `name` on PATH, or null. */
  onPath(name: string): string | null;
  /** The path of the Chromium an npm package carries, unpacked; rejects when there is none. */
  bundled(): Promise<string>;
}

export interface FoundChromium {
  path: string;
  /** Where it was found, for messages: "CHROME_PATH", "PATH" or "@sparticuz/chromium". */
  source: string;
}

/** The Chromium to drive, or an error that says what to install. */
export async function resolveChromium(sources: ChromiumSources = systemSources): Promise<FoundChromium> {
  const chromePath = sources.env.CHROME_PATH;
  if (chromePath) {
    if (!existsSync(chromePath)) throw new Error(`CHROME_PATH is ${chromePath}, which does not exist: ${INSTALL_HINT}`);
    return {path: chromePath, source: "CHROME_PATH"};
  }
  const debian = sources.onPath("chromium");
  if (debian) return {path: debian, source: "PATH"};
  try {
    return {path: await sources.bundled(), source: "@sparticuz/chromium"};
  } catch (error) {
    throw new Error(`No Chromium found: CHROME_PATH is unset, there is no \`chromium\` on PATH, and @sparticuz/chromium gave none (${firstLine(error)}). To fix: ${INSTALL_HINT}`);
  }
}

/** Flags that keep Chromium from calling home (OFFLINE.md item 11). */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Starts the Chromium that resolveChromium finds; a failure says what to install. */
export async function launchBrowser(sources: ChromiumSources = systemSources): Promise<Browser> {
  const {path, source} = await resolveChromium(sources);
  try {
    return await chromium.launch({executablePath: path, headless: true, args: CHROMIUM_FLAGS});
  } catch (error) {
    throw new Error(`Chromium from ${source} (${path}) did not start: ${firstLine(error)}. To fix: ${INSTALL_HINT}`);
  }
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0]!.trim();

const systemSources: ChromiumSources = {
  env: process.env,
  onPath(name) {
    try {
      return execFileSync("sh", ["-c", `command -v ${name}`], {encoding: "utf8"}).trim() || null;
    } catch {
      return null;
    }
  },
  bundled: unpackBundledChromium,
};

/**
 * Unpacks @sparticuz/chromium's binary once per version into the temp
 * directory and returns its path. The package unpacks into os.tmpdir(), so it
 * is pointed at a fresh directory that is then renamed into place: two test
 * files starting at once never see a half-written binary.
 */
export async function unpackBundledChromium(): Promise<string> {
  const require = createRequire(import.meta.url);
  const main = require.resolve("@sparticuz/chromium");
  const {version} = JSON.parse(readFileSync(resolve(dirname(main), "../../package.json"), "utf8")) as {version: string};
  const target = join(tmpdir(), `sociometer-chromium-${version}`);
  const binary = join(target, "chromium");
  if (existsSync(binary)) return binary;
  const staging = mkdtempSync(`${target}-partial-`);
  const savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    const {default: bundled} = await import("@sparticuz/chromium");
    await bundled.executablePath();
  } finally {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
  }
  try {
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, {recursive: true, force: true});
    if (!existsSync(binary)) throw error;
  }
  return binary;
}
