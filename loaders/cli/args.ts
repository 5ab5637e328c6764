// Command-line options read with node:util's parseArgs, whose own errors
// ("Unknown option '--fromat'. To specify a positional argument starting with
// a '-', …") are replaced by a usage error: what was wrong, the option that
// was probably meant, and the command's usage line.

import {parseArgs, type ParseArgsConfig} from "node:util";
import {closest} from "../did-you-mean.js";

/** A command line that cannot be read; the CLI prints it and exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * parseArgs with `config`, throwing a UsageError for an unknown option or a
 * missing or unwanted value. `usage` gives the usage line of the command the
 * positionals name (or of the program when they name none).
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T, usage: (positionals: string[]) => string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    const code = (e as {code?: string}).code;
    if (code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION" && code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") throw e;
    const problem = describeProblem(config.args ?? [], config.options ?? {});
    if (!problem) throw e;
    // Read again without checks, only to learn which command the line was for.
    const {positionals} = parseArgs({args: config.args, options: config.options, allowPositionals: true, strict: false});
    throw new UsageError(`${problem}\nusage: ${usage(positionals)}`);
  }
}

/** What is wrong with the first option parseArgs refused, in words. */
function describeProblem(args: readonly string[], options: Options): string | undefined {
  const {tokens} = parseArgs({args: args.slice(), options, allowPositionals: true, strict: false, tokens: true});
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const known = options[t.name];
    if (!known) {
      const long = t.rawName.startsWith("--");
      const names = long ? Object.keys(options) : Object.values(options).flatMap((o) => (o.short ? [o.short] : []));
      const meant = closest(t.name, names);
      return `unknown option ${t.rawName}${meant ? `; did you mean ${long ? "--" : "-"}${meant}?` : ""}`;
    }
    if (known.type === "string" && t.value === undefined) return `option ${t.rawName} needs a value`;
    // parseArgs refuses `--db --quiet` rather than guess whether --quiet is the value.
    if (known.type === "string" && !t.inlineValue && t.value?.startsWith("-")) {
      return `option ${t.rawName} needs a value, not the option ${t.value} (write ${t.rawName}=${t.value} if that is the value)`;
    }
    if (known.type === "boolean" && t.inlineValue) return `option ${t.rawName} takes no value (give it alone: ${t.rawName})`;
  }
  return undefined;
}
