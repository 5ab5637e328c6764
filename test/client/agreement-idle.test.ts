// The page's handle on the agreement worker says when the worker has nothing
// left to compute ahead (the Reliability section starts its run then).

import {afterEach, describe, expect, it, vi} from "vitest";
import {startAgreementWorker} from "../../src/client/agreement.js";
import type {WorkerReply} from "../../src/client/agreement-worker.js";

/** A stand-in Worker: records what the page posts; the test plays the worker's replies. */
class FakeWorker {
  static last: FakeWorker | null = null;
  posted: {id: number; job: string}[] = [];
  onmessage: ((event: {data: WorkerReply}) => void) | null = null;
  onerror: ((event: {message: string}) => void) | null = null;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(message: {id: number; job: string}) {
    this.posted.push(message);
  }
  terminate() {}
  reply(data: WorkerReply) {
    this.onmessage!({data});
  }
}

const summary = {raters: [{rater: "gpt-4"}], dimensions: [], rows: 10, start: null} as never;

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

/** The handle with its worker started (the page starts it after the first view). */
async function started() {
  vi.stubGlobal("Worker", FakeWorker);
  vi.stubGlobal("document", {baseURI: "http://127.0.0.1/agreement"});
  const handle = startAgreementWorker("data/agreement-rows.parquet", summary);
  for (let i = 0; i < 5; i++) await Promise.resolve();
  const worker = FakeWorker.last!;
  expect(worker.posted.map((m) => m.job)).toEqual(["load"]);
  return {handle, worker};
}

describe("AgreementWorker.idle", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeWorker.last = null;
  });

  it("settles once every neighbour of the current options is ready, not before", async () => {
    const {handle, worker} = await started();
    worker.reply({id: 0, type: "result", value: {rows: 10, instances: 2}});
    worker.reply({type: "warmed"});
    worker.reply({type: "ahead", key: "a", value: null, done: 1, total: 3});
    worker.reply({type: "ahead", key: "b", value: null, done: 2, total: 3});
    expect(await settled(handle.idle())).toBe(false);
    worker.reply({type: "ahead", key: "", value: null, done: 3, total: 3});
    expect(await settled(handle.idle())).toBe(true);
  });

  it("settles when the load fails, when the worker fails and when it is stopped: nothing will be computed ahead then", async () => {
    const load = await started();
    load.worker.reply({id: 0, type: "error", message: "cannot load agreement-rows.parquet: 404 Not Found"});
    expect(await settled(load.handle.idle())).toBe(true);
    const crash = await started();
    expect(await settled(crash.handle.idle())).toBe(false);
    crash.worker.onerror!({message: "out of memory"});
    expect(await settled(crash.handle.idle())).toBe(true);
    const stop = await started();
    stop.handle.terminate();
    expect(await settled(stop.handle.idle())).toBe(true);
  });
});
