/**
 * What the Worker gets for `import … from "react-dom"` (wrangler.toml [alias]): the Worker renders pages with
 * react-dom/server alone, and the browser renderer (react-dom itself, 43 KiB gzip of the bundle, issue 29)
 * is reached only through react-router-dom, which reads `flushSync` from it in the browser's RouterProvider.
 * That one is kept here; a named import of anything else of react-dom's, in code the Worker bundles, fails
 * the bundling ("No matching export"), not a request.
 */

/** Runs `fn` at once; there is no pending browser render to flush in the Worker. */
export function flushSync<R>(fn: () => R): R {
  return fn();
}
