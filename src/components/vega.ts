// Renders a Vega-Lite spec into an element with vega-embed, with no way to
// reach the network: no action menu (it links to the online editor), SVG
// output, and a loader that refuses every URL (specs carry their data inline).

import embed, {type VisualizationSpec} from "vega-embed";
import type {Loader} from "vega";

const refuse = (what: string) => () => Promise.reject(new Error(`charts load no ${what}: put the data in the spec`));

/** A vega loader that never fetches anything. */
const offlineLoader = {
  load: refuse("URLs"),
  sanitize: refuse("URLs"),
  http: refuse("URLs"),
  file: refuse("files"),
} as unknown as Loader;

/** vega-embed's options for every chart of the site: SVG, no action menu, no loading. */
export const OFFLINE_EMBED = {mode: "vega-lite", actions: false, renderer: "svg", loader: offlineLoader} as const;

/** Renders a Vega-Lite `spec` and returns the element holding it. */
export async function renderVega(spec: VisualizationSpec): Promise<HTMLElement> {
  const div = document.createElement("div");
  div.className = "vega-chart";
  await embed(div, spec, OFFLINE_EMBED);
  return div;
}
