// `npm run test:quick`: the inner loop. Every test but those that build a site
// or drive Chromium (test/browser/, and the build-while-importing test), which
// `npm test` runs as well.

import {defineConfig, mergeConfig} from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(base, defineConfig({
  test: {
    exclude: ["test/browser/**", "test/data/build-snapshot.test.ts"],
  },
}));
