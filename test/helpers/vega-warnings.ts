// What Vega-Lite and Vega say while compiling and running a spec in Node (no
// renderer): the warnings a browser's console would show for the same chart.

import * as vega from "vega";
import {compile, type TopLevelSpec} from "vega-lite";

/** Every warning and error logged while the spec compiles and its dataflow runs once. */
export async function vegaWarnings(spec: TopLevelSpec): Promise<string[]> {
  const said: string[] = [];
  const logger: {[level: string]: (...args: unknown[]) => unknown} = {
    level: () => logger,
    error: (...args) => said.push(`error: ${args.join(" ")}`) && logger,
    warn: (...args) => said.push(`warn: ${args.join(" ")}`) && logger,
    info: () => logger,
    debug: () => logger,
  };
  const view = new vega.View(vega.parse(compile(spec, {logger: logger as never}).spec), {renderer: "none", logger: logger as unknown as vega.LoggerInterface});
  // The view sets its own level from its options: warnings must reach the logger.
  view.logLevel(vega.Warn);
  await view.runAsync();
  view.finalize();
  return said;
}
