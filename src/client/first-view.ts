// The mark a page puts on its first chart or table, so the page benchmark
// (bench/pages.ts) and the browser tests can see when the first view is drawn:
// the moment an element with data-first-view enters the document. Pages also
// wait on it to load what only later views need (afterFirstView), so that
// those modules do not compete with the first chart's.

let drawn: () => void = () => {};
const firstViewDrawn = new Promise<void>((resolve) => (drawn = resolve));

/** Marks `node` as the page's first view and returns it; for `renderVega(…).then(firstView)` and table cells. */
export function firstView<T extends Element>(node: T): T {
  node.setAttribute("data-first-view", "");
  drawn();
  return node;
}

/** Says the page has no first view to draw (nothing loaded), so what waits on afterFirstView goes ahead. */
export function noFirstView(): Text {
  drawn();
  return document.createTextNode("");
}

/** Resolves once the first view is marked and the frame that shows it has been painted. */
export function afterFirstView(): Promise<void> {
  return firstViewDrawn.then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
