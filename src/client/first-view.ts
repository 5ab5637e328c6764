// The mark a page puts on its first chart or table, so the page benchmark
// (bench/pages.ts) and the browser tests can see when the first view is drawn:
// the moment an element with data-first-view enters the document.

/** Marks `node` as the page's first view and returns it; for `renderVega(…).then(firstView)` and table cells. */
export function firstView<T extends Element>(node: T): T {
  node.setAttribute("data-first-view", "");
  return node;
}
