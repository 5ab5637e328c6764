// Which Chromium the browser tests drive: the order of the places looked in,
// the switch that skips them, and errors that say what to install. The last
// test starts the Chromium that @sparticuz/chromium carries, the fallback when
// the machine has none.

import {readdirSync, statSync} from "node:fs";
import {basename, dirname} from "node:path";
import {describe, expect, it} from "vitest";
import {describeUnless} from "../helpers/skips.js";
import {browserTestsOff, INSTALL_HINT, launchBrowser, resolveChromium, unpackBundledChromium, type ChromiumSources} from "./chromium.js";

const EXISTING = process.execPath;
const sources = (over: Partial<ChromiumSources>): ChromiumSources => ({
  env: {},
  onPath: () => null,
  bundled: () => Promise.reject(new Error("Cannot find package '@sparticuz/chromium'")),
  ...over,
});

describe("browserTestsOff", () => {
  it("runs the browser tests unless SOCIOMETER_BROWSER_TESTS=off, which becomes the skip reason", () => {
    expect(browserTestsOff({})).toBeNull();
    expect(browserTestsOff({SOCIOMETER_BROWSER_TESTS: "on"})).toBeNull();
    expect(browserTestsOff({SOCIOMETER_BROWSER_TESTS: "off"})).toBe("SOCIOMETER_BROWSER_TESTS=off");
  });

  it("refuses to skip them under CI, and refuses values other than on and off", () => {
    expect(() => browserTestsOff({SOCIOMETER_BROWSER_TESTS: "off", CI: "1"})).toThrow(
      "CI is set, and CI must run the browser tests: SOCIOMETER_BROWSER_TESTS=off is refused");
    expect(() => browserTestsOff({SOCIOMETER_BROWSER_TESTS: "no"})).toThrow('SOCIOMETER_BROWSER_TESTS must be "on" or "off", not "no"');
  });
});

describe("resolveChromium", () => {
  it("takes CHROME_PATH first, then `chromium` on PATH, then the bundled one", async () => {
    const bundled = () => Promise.resolve("/tmp/bundled/chromium");
    expect(await resolveChromium(sources({env: {CHROME_PATH: EXISTING}, onPath: () => "/usr/bin/chromium", bundled}))).toEqual({path: EXISTING, source: "CHROME_PATH"});
    expect(await resolveChromium(sources({onPath: (name) => (name === "chromium" ? "/usr/bin/chromium" : null), bundled}))).toEqual({path: "/usr/bin/chromium", source: "PATH"});
    expect(await resolveChromium(sources({bundled}))).toEqual({path: "/tmp/bundled/chromium", source: "@sparticuz/chromium"});
  });

  it("a CHROME_PATH that does not exist is an error, not a quiet fall back", async () => {
    await expect(resolveChromium(sources({env: {CHROME_PATH: "/nowhere/chrome"}, onPath: () => "/usr/bin/chromium"}))).rejects.toThrow(
      `CHROME_PATH is /nowhere/chrome, which does not exist: ${INSTALL_HINT}`);
  });

  it("with no Chromium anywhere, the error gives the command that installs one", async () => {
    await expect(resolveChromium(sources({}))).rejects.toThrow(
      "No Chromium found: CHROME_PATH is unset, there is no `chromium` on PATH, and @sparticuz/chromium gave none " +
      "(Cannot find package '@sparticuz/chromium'). To fix: install Debian's Chromium with `sudo apt-get install chromium` " +
      "(or set CHROME_PATH to a Chromium binary), or skip the browser tests with SOCIOMETER_BROWSER_TESTS=off");
  });
});

describe("launchBrowser", () => {
  it("a binary that is not a browser fails with where it came from and what to install", async () => {
    await expect(launchBrowser(sources({env: {CHROME_PATH: "/bin/false"}}))).rejects.toThrow(
      new RegExp(`^Chromium from CHROME_PATH \\(/bin/false\\) did not start: .+\\. To fix: ${INSTALL_HINT.replace(/[()]/g, "\\$&")}$`));
  });
});

describeUnless(browserTestsOff(), "the Chromium inside @sparticuz/chromium", () => {
  it("unpacks once, starts headless and runs a page's script", async () => {
    const browser = await launchBrowser(sources({bundled: unpackBundledChromium}));
    try {
      expect(browser.version()).toMatch(/^\d+\./);
      const page = await browser.newPage();
      await page.setContent("<p id=sum>2 + 3 = </p><script>document.getElementById('sum').textContent += 2 + 3</script>");
      expect(await page.textContent("#sum")).toBe("2 + 3 = 5");
    } finally {
      await browser.close();
    }
    // Unpacked already: the same file comes back untouched, and no staging directory is left behind.
    const binary = await unpackBundledChromium();
    const unpackedAt = statSync(binary).mtimeMs;
    expect(await unpackBundledChromium()).toBe(binary);
    expect(statSync(binary).mtimeMs).toBe(unpackedAt);
    expect(readdirSync(dirname(dirname(binary))).filter((name) => name.startsWith(`${basename(dirname(binary))}-partial-`))).toEqual([]);
  }, 120_000);
});
