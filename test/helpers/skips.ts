// A suite that cannot run here is skipped with its reason in the task meta, so
// the run's last line (test/helpers/skip-summary.ts) can count skips by reason.

import {describe} from "vitest";

declare module "vitest" {
  interface TaskMeta {
    /** Why the suite was skipped, as the summary line prints it. */
    skipReason?: string;
  }
}

/** `describe`, skipped when `reason` is not null. */
export function describeUnless(reason: string | null, name: string, factory: () => void): void {
  if (reason === null) describe(name, factory);
  else describe(name, {skip: true, meta: {skipReason: reason}}, factory);
}
