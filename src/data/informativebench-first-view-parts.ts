// The InformativeBench first view (ibFirstView) computed one (backend, dataset)
// at a time, so the loader holds one part's records, not the benchmark's (at
// ×100 the samples every record at once took 2.3 GB). Everything the view
// shows is per (backend, dataset) once each dataset's base settings are known,
// and those follow from counts of records per settings combination, which SQL
// gives exactly in any order: the parts are scored by the library's own
// functions, with the base given, and put together in the order the whole
// view has. Table 4 needs each trajectory's score: the parts keep the scores of
// records with plans only, and the plans are counted one episode at a time.

import {
  ablations, addSettingsCount, baseChoices, DEFAULT_IB_OPTIONS, datasetOrder, goldChecks, IB_SETTINGS, infoNavOfPlans, parseBaseSpec, planCounts,
  scheduleKey, schedulesFromRows, scoreRows, settingsKey, sortAblations, table3, table3Column, vanishedWarnings, varyingSettings,
  type AblationRow, type BaseChoice, type ConsensusRow, type IbMetric, type IbResultRow, type IbSettings, type MatchMode, type PlanCounts,
  type PlanUpdateRow, type ScheduleRow, type Table3Cell,
} from "../lib/informativebench.js";
import {ablationKey, goldKey, IB_CHOICES, ibLookup, tableKey, type IbFirstView, type IbOptionViews} from "../client/informativebench.js";
import {orderBy, type Row} from "../client/tables.js";

/** What the view is made of, each read once: settings counts, the records by (backend, dataset), the plan updates by episode. */
export interface IbParts {
  /** Records per dataset and settings combination: the dataset, the six settings and `records`. */
  settingsCounts: readonly Row[];
  /** Episode ids with plan updates (the records whose scores Table 4 reads). */
  planEpisodes: ReadonlySet<string>;
  /** IB_RESULTS_SQL's rows in orderBy's order, in pieces that each hold one (model, dataset)'s rows or part of them (a question's, say). */
  results: () => AsyncIterable<Row[]>;
  /** IB_PLAN_UPDATES_SQL's rows one episode at a time, in orderBy's order. */
  updates: () => AsyncIterable<Row[]>;
  consensus: readonly Row[];
  schedules: readonly Row[];
}

const baseNames = IB_CHOICES.base;
type BaseName = (typeof baseNames)[number];

/** The first view from its parts: ibFirstView of every record at once, to the byte of its JSON. */
export async function ibFirstViewByParts(parts: IbParts): Promise<IbFirstView> {
  const counts = new Map<string, Map<string, number>>();
  const combinations: IbSettings[] = [];
  let records = 0;
  for (const c of parts.settingsCounts) {
    const settings = Object.fromEntries(IB_SETTINGS.map((x) => [x.key, c[x.key] as boolean])) as IbSettings;
    addSettingsCount(counts, c.dataset as string, settingsKey(settings), Number(c.records));
    combinations.push(settings);
    records += Number(c.records);
  }
  const bases = new Map(baseNames.map((b) => [b, baseChoices(counts, parseBaseSpec(b))] as const));
  /** The base of one dataset as a given spec, so a part scored alone uses the base of every backend's records. */
  const givenBase = (base: BaseName, dataset: string) => ({kind: "given" as const, all: null, byDataset: new Map([[dataset, bases.get(base)!.get(dataset)!.key]])});

  const stored = schedulesFromRows(parts.schedules as unknown as ScheduleRow[]);
  const models = new Set<string>(), trajectoryModels = new Set<string>();
  const metricOf = new Map<string, IbMetric>();
  const cells = new Map<string, Table3Cell>();
  const ablationRows = new Map<string, AblationRow[]>();
  const planScores = new Map<MatchMode, Map<string, number>>(IB_CHOICES.match.map((m) => [m, new Map()]));
  // One record per question and gold answer, in the records' order: goldChecks reads nothing else of the rest.
  const goldRecords = new Map<string, IbResultRow>();

  for await (const part of byModelAndDataset(parts.results())) {
    const rows = orderBy(part as unknown as IbResultRow[], ["question_id", "episode_id"]);
    const {model, dataset} = rows[0]!;
    models.add(model);
    if (!metricOf.has(dataset)) metricOf.set(dataset, rows[0]!.metric);
    for (const r of rows) {
      if (parts.planEpisodes.has(r.episode_id)) trajectoryModels.add(model);
      const key = `${scheduleKey(r.dataset, r.question_id)}\u0000${JSON.stringify(r.gold)}`;
      if (!goldRecords.has(key)) goldRecords.set(key, r);
    }
    for (const match of IB_CHOICES.match) {
      const scored = scoreRows(rows, {match, schedules: stored});
      const scores = planScores.get(match)!;
      for (const r of scored) if (parts.planEpisodes.has(r.episode_id)) scores.set(r.episode_id, r.score);
      for (const base of baseNames) {
        const spec = givenBase(base, dataset);
        for (const settings of IB_CHOICES.settings) {
          const [cell] = table3(scored, {settings, base: spec}).cells;
          if (cell) cells.set(`${tableKey({match, settings, base})}\u0000${model}\u0000${dataset}`, cell);
        }
        const shown = ablations(scored, {base: spec});
        const list = ablationRows.get(ablationKey({match, base}));
        if (list) for (const a of shown) list.push(a);
        else ablationRows.set(ablationKey({match, base}), shown);
      }
    }
  }

  const plans: PlanCounts[] = [];
  const consensusOf = new Map<string, ConsensusRow[]>();
  for (const c of parts.consensus as unknown as ConsensusRow[]) {
    const list = consensusOf.get(c.episode_id);
    if (list) list.push(c);
    else consensusOf.set(c.episode_id, [c]);
  }
  const withRecord = planScores.get("exact")!;
  for await (const episode of parts.updates()) {
    const updates = orderBy(episode as unknown as PlanUpdateRow[], ["plan", "update_index"]);
    const id = updates[0]!.episode_id;
    if (!withRecord.has(id)) continue;
    for (const p of planCounts(updates, consensusOf.get(id) ?? [], {fake: DEFAULT_IB_OPTIONS.fake})) plans.push(p);
  }

  const sortedModels = [...models].sort();
  const datasets = datasetOrder(metricOf.keys());
  const views: IbOptionViews = {tables: {}, ablations: {}, gold: {}, infoNav: {}, varying: varyingSettings(combinations), models: sortedModels, trajectoryModels: sortedModels.filter((m) => trajectoryModels.has(m))};
  for (const match of IB_CHOICES.match) {
    for (const base of baseNames) {
      for (const settings of IB_CHOICES.settings) {
        const key = tableKey({match, settings, base});
        const columns = datasets.map((d) => table3Column(d, metricOf.get(d)!, bases.get(base)!.get(d) as BaseChoice, settings));
        const found: Table3Cell[] = [];
        for (const model of sortedModels) {
          for (const c of columns) {
            const cell = cells.get(`${key}\u0000${model}\u0000${c.dataset}`);
            if (cell) found.push(cell);
          }
        }
        views.tables[key] = {models: sortedModels, columns, cells: found};
      }
      views.ablations[ablationKey({match, base})] = sortAblations(ablationRows.get(ablationKey({match, base})) ?? [], datasets);
    }
    views.infoNav[match] = {rows: infoNavOfPlans(plans, planScores.get(match)!, DEFAULT_IB_OPTIONS), warnings: vanishedWarnings(plans)};
  }
  const golden = [...goldRecords.values()];
  for (const easy of IB_CHOICES.easy) {
    for (const fixed of IB_CHOICES.fixed) views.gold[goldKey({easy, fixed})] = goldChecks(golden, stored, {easy, fixed});
  }
  return {results: records, schedules: parts.schedules.length, options: DEFAULT_IB_OPTIONS, table: ibLookup(views, DEFAULT_IB_OPTIONS).table, views};
}

/** The pieces joined into one array per (model, dataset): pieces are read into Arrow a few at a time, so a part is held once, as JavaScript rows. */
async function* byModelAndDataset(pieces: AsyncIterable<Row[]>): AsyncGenerator<Row[]> {
  let part: Row[] = [];
  for await (const piece of pieces) {
    if (!piece.length) continue;
    const first = piece[0]!;
    if (part.length && (part[0]!.model !== first.model || part[0]!.dataset !== first.dataset)) {
      yield part;
      part = [];
    }
    for (const r of piece) part.push(r);
  }
  if (part.length) yield part;
}
