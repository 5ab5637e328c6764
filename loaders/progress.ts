// Progress on stderr for long work. A bar with rate and ETA on a terminal;
// an occasional plain line otherwise (CI logs), so stdout stays clean.

export interface Progress {
  start(label: string, total: number, unit?: "bytes" | "items"): void;
  update(done: number): void;
  finish(): void;
}

export const silentProgress: Progress = {start() {}, update() {}, finish() {}};

const human = (n: number, unit: "bytes" | "items") =>
  unit === "bytes" ? `${(n / 1e6).toFixed(1)} MB` : n.toLocaleString("en-US");

export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  let label = "";
  let total = 0;
  let unit: "bytes" | "items" = "items";
  let started = 0;
  let last = 0;
  let lastDone = 0;
  const tty = Boolean(stream.isTTY);
  const render = (done: number, final = false) => {
    const elapsed = (Date.now() - started) / 1000;
    const rate = elapsed > 0 ? done / elapsed : 0;
    const share = total > 0 ? Math.min(done / total, 1) : 0;
    const eta = rate > 0 && total > done ? `${Math.ceil((total - done) / rate)} s left` : "";
    const text = `${label} ${(share * 100).toFixed(0).padStart(3)}% ${human(done, unit)} of ${human(total, unit)}, ${human(rate, unit)}/s ${eta}`;
    if (tty) {
      const width = 24;
      const filled = Math.round(share * width);
      stream.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${text}\x1b[K${final ? "\n" : ""}`);
    } else {
      stream.write(`${text}\n`);
    }
  };
  return {
    start(l, t, u = "items") {
      label = l;
      total = t;
      unit = u;
      started = last = Date.now();
      lastDone = 0;
    },
    update(done) {
      lastDone = done;
      const now = Date.now();
      // A terminal redraws often; a log gets a line every ten seconds at most.
      if (now - last >= (tty ? 100 : 10_000)) {
        last = now;
        render(done);
      }
    },
    finish() {
      // Only runs that took more than a moment leave a trace.
      if (Date.now() - started >= 1000) render(Math.max(lastDone, total), true);
      else if (tty) stream.write("\r\x1b[K");
    },
  };
}
