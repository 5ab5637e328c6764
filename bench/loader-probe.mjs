// Loaded into every Node process of a build by `npm run bench -- build`
// (NODE_OPTIONS=--import), it appends one JSON line per process to the file
// SOCIOMETER_LOADER_PROBE names: the script, wall seconds since the process
// started and its peak RSS. Framework runs each data loader as `tsx loader.ts`,
// so the lines name every loader with what it cost. Plain JavaScript: it must
// load before tsx does.

import {appendFileSync} from "node:fs";

const log = process.env.SOCIOMETER_LOADER_PROBE;
if (log) {
  process.on("exit", () => {
    const line = {
      script: process.argv[1] ?? "",
      pid: process.pid,
      seconds: process.uptime(),
      peakRss: process.resourceUsage().maxRSS * 1024,
    };
    // One short write per process: appends of a line this size do not interleave.
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
