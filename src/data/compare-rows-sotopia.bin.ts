// The Compare page's sotopia rows as a pack (src/data/compare-rows.ts), whose blocks on the two sides its worker fetches when a comparison of sotopia needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("sotopia");
