// The Compare page's lifelong rows (src/data/compare-rows.ts), fetched by its worker when a comparison of lifelong needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("lifelong");
