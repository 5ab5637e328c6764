// The import formats the workbench reads, by name. Later benchmarks register theirs here.

import type {ImportFormat} from "./format.js";
import {canonicalFormat} from "./canonical.js";
import {hsiiFormat} from "./hsii.js";
import {informativebenchFormat} from "./informativebench.js";
import {informativebenchSchedulesFormat} from "./informativebench-schedules.js";
import {lifelongFormat} from "./lifelong.js";
import {sonzaiLifelongFormat} from "./sonzai-lifelong.js";
import {sotopiaFormat} from "./sotopia.js";
import {sotopiaRatingsFormat} from "./sotopia-ratings.js";
import {stssFormat} from "./stss.js";
import {stssActionFormat} from "./stss-action.js";
import {stssTasksFormat} from "./stss-tasks.js";
import {closest} from "../did-you-mean.js";

export const FORMATS: readonly ImportFormat[] = [canonicalFormat, sotopiaFormat, sotopiaRatingsFormat, lifelongFormat, sonzaiLifelongFormat, hsiiFormat, stssTasksFormat, stssFormat, stssActionFormat,
  informativebenchSchedulesFormat, informativebenchFormat];

export function getFormat(name: string): ImportFormat {
  const format = FORMATS.find((f) => f.name === name);
  if (!format) {
    const meant = closest(name, FORMATS.map((f) => f.name));
    throw new Error(`unknown format ${JSON.stringify(name)}${meant ? `; did you mean ${meant}? Known` : "; known"} formats: ${FORMATS.map((f) => f.name).join(", ")}`);
  }
  return format;
}
