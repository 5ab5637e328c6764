import {availableParallelism} from "node:os";
import {defineConfig} from "vitest/config";

export default defineConfig({
  test: {
    // Imports of the real fixtures take a second or two, and the CLI tests start
    // tsx child processes several times per test: on a busy 2-core machine a
    // test can take well over the 30 s we first allowed without being stuck.
    testTimeout: 90_000,
    // Vitest's default is one file fewer than the cores: one at a time on this 2-core machine, while many
    // files spend their time waiting (on Chromium, a site build, an endpoint, a child process). Two at a
    // time took the suite from 763 to 478 s here (issue 31); shared stores and sites are made once
    // whichever file asks first (test/helpers/shared-dir.ts).
    maxWorkers: Math.max(2, availableParallelism()),
    exclude: ["node_modules/**", "dist/**", "src/.observablehq/**", ".bench/**"],
    // The run's shared folder, where browser tests build each distinct site once (test/browser/sites.ts).
    globalSetup: ["./test/global-setup.ts"],
    // The default output, then one line counting skipped tests by reason.
    reporters: ["default", "./test/helpers/skip-summary.ts"],
  },
});
