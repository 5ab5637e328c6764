// The Compare page's hsii rows with stage-3/4 wins under the win policy `strict` (src/data/compare-rows.ts), read by its worker when a person picks that policy.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("hsii", "strict");
