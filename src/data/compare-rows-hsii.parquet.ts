// The Compare page's hsii rows (src/data/compare-rows.ts), fetched by its worker when a comparison of hsii needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("hsii");
