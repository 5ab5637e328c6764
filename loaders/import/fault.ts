// A test hook into the steps of an import's transaction. SOCIOMETER_IMPORT_FAULT
// set to a step makes the import throw there; `<step>:kill` makes its process
// kill itself there (SIGKILL: no handler, no rollback, no close), as a crash
// or an impatient user would. Tests use it to check that every step leaves
// the store as it was or with the whole import (test/import/commit-faults.test.ts).

/** The steps, in the order an import passes them. */
export const IMPORT_STEPS = [
  "journaled", // the journal is written, the transaction not yet begun
  "begun", // the transaction is open
  "cleared", // replaced files' rows are deleted
  "appended", // a file's rows are handed to the appenders
  "recorded", // its sources row is written
  "flushed", // every appender is flushed into the transaction
  "checked", // the checks across files passed; COMMIT is next
  "committed", // COMMIT returned; the journal is not yet removed
] as const;

export type ImportStep = (typeof IMPORT_STEPS)[number];

export class InjectedFault extends Error {}

export function faultPoint(step: ImportStep, env: NodeJS.ProcessEnv = process.env): void {
  const asked = env.SOCIOMETER_IMPORT_FAULT;
  if (!asked) return;
  const [at, how = "throw"] = asked.split(":");
  // A misspelt step would make a fault test pass without any fault: refuse it.
  if (!(IMPORT_STEPS as readonly string[]).includes(at) || !["throw", "kill"].includes(how)) {
    throw new Error(`SOCIOMETER_IMPORT_FAULT must be <step> or <step>:kill, with a step among ${IMPORT_STEPS.join(", ")}; not ${JSON.stringify(asked)}`);
  }
  if (at !== step) return;
  if (how === "kill") process.kill(process.pid, "SIGKILL");
  throw new InjectedFault(`injected fault at ${step} (SOCIOMETER_IMPORT_FAULT)`);
}
