// The Compare page's stss rows with every appointment conversation kept, the target person's or not (src/data/compare-rows.ts), read by its worker when a person picks --appointment-partners all.
import {writeBenchmarkRows} from "./compare-rows.js";

await writeBenchmarkRows("stss", "mean", "all");
