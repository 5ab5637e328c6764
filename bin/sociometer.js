#!/usr/bin/env node
// The `sociometer` command: runs the TypeScript CLI through tsx's loader.
import {register} from "tsx/esm/api";

register();
process.env.SOCIOMETER_CLI = "1";
await import("../loaders/cli/main.ts");
