// The Compare page's informativebench rows (src/data/compare-rows.ts), fetched by its worker when a comparison of informativebench needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("informativebench");
