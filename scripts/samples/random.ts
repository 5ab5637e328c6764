// A small seeded pseudo-random generator (sfc32 seeded through cyrb128), so
// every synthetic file the project writes is the same for the same seed.

/** Four 32-bit words hashed from a string (cyrb128), used to seed sfc32. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Seeded generator: uniform, integer, normal draws, picks and ULID-shaped ids. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    [this.a, this.b, this.c, this.d] = cyrb128(String(seed));
    for (let i = 0; i < 15; i++) this.next(); // let the state mix before use
  }

  /** A uniform draw in [0, 1) (sfc32). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi], both ends included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** A normal draw (Box–Muller; one uniform pair per draw, so streams stay easy to reason about). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next(); // (0, 1]: log(u) is finite
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick() needs a non-empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A shuffled copy of a list (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** An independent generator derived from this one's seed material and a label. */
  fork(label: string): Random {
    return new Random(`${this.a}:${this.b}:${this.c}:${this.d}:${label}`);
  }

  /** A 26-character ULID-shaped id: 10 characters of the given time (ms), 16 random ones. */
  ulid(timeMs: number): string {
    let time = "";
    let t = Math.floor(timeMs);
    for (let i = 0; i < 10; i++) {
      time = CROCKFORD[t % 32] + time;
      t = Math.floor(t / 32);
    }
    let rest = "";
    for (let i = 0; i < 16; i++) rest += CROCKFORD[Math.floor(this.next() * 32)];
    return time + rest;
  }
}
