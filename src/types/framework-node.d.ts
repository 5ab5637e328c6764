// Framework's bundler of npm packages for pages (dist/node.js), which ships no
// types: what src/data/preview-warmup.ts calls.
declare module "@observablehq/framework/dist/node.js" {
  /** Bundles `spec` (and what it imports) into `root`/.observablehq/cache/_node unless there already; resolves with its /_node/ path. */
  export function resolveNodeImport(root: string, spec: string): Promise<string>;
}
