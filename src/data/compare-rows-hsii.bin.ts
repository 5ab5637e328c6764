// The Compare page's hsii rows as a pack (src/data/compare-rows.ts), whose blocks on the two sides its worker fetches when a comparison of hsii needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("hsii");
