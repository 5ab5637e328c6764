// The Compare page's informativebench rows as a pack (src/data/compare-rows.ts), whose blocks on the two sides its worker fetches when a comparison of informativebench needs them.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("informativebench");
