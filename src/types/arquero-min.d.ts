// Pages import arquero's browser build (OFFLINE.md item 2); it is the same API as the package's typed entry.
declare module "arquero/dist/arquero.min.js" {
  import * as aq from "arquero";
  export default aq;
}
