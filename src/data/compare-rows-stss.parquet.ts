// The Compare page's stss rows (src/data/compare-rows.ts), fetched by its worker when a comparison of stss needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("stss");
