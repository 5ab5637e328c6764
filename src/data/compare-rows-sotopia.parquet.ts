// The Compare page's sotopia rows (src/data/compare-rows.ts), fetched by its worker when a comparison of sotopia needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("sotopia");
