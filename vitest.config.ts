import {defineConfig} from "vitest/config";

export default defineConfig({
  test: {
    // Imports of the real fixtures take a second or two, and the CLI tests start
    // tsx child processes several times per test: on a busy 2-core machine a
    // test can take well over the 30 s we first allowed without being stuck.
    testTimeout: 90_000,
    exclude: ["node_modules/**", "dist/**", "src/.observablehq/**", ".bench/**"],
    // The run's shared folder, where browser tests build each distinct site once (test/browser/sites.ts).
    globalSetup: ["./test/global-setup.ts"],
    // The default output, then one line counting skipped tests by reason.
    reporters: ["default", "./test/helpers/skip-summary.ts"],
  },
});
