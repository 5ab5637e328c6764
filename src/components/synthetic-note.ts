// The warning every page shows when the data it draws on is synthetic sample
// data, so no one mistakes it for results of real model runs.

/** A warning callout for `synthetic` of `episodes` episodes, or null when none is synthetic. */
export function syntheticNote(episodes: number, synthetic: number, what = "episodes loaded"): HTMLElement | null {
  if (synthetic === 0) return null;
  const div = document.createElement("div");
  div.className = "warning";
  div.setAttribute("data-testid", "synthetic-note");
  const share = synthetic === episodes ? `All ${episodes} ${what} are` : `${synthetic} of the ${episodes} ${what} are`;
  div.textContent = `${share} synthetic sample data, generated to exercise the tools: they are not results of real model runs.`;
  return div;
}
