import {defineConfig} from "vitest/config";

export default defineConfig({
  test: {
    // Imports of the real fixtures take a second or two; on a busy 2-core machine, more.
    testTimeout: 30_000,
    exclude: ["node_modules/**", "dist/**", "src/.observablehq/**", ".bench/**"],
  },
});
