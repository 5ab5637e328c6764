// Distinct values over typed arrays, and a rater's side of a pairing: the
// pieces the agreement engine needs to count equal scores together (classes
// of equal terms, Spearman's ranks by value, perceived ranges' groups of
// equal numbers) without one object per score.

/** Half-units either side of zero that NumberIds numbers by table rather than by hash. */
const DIRECT_REACH = 2048;

/**
 * Groups of exactly equal numbers (−0 with 0, as === and sorting do), numbered in order of first appearance;
 * with `signedZero`, −0 gets an id of its own (its value kept for sums) that order() places with 0.
 * Scores are mostly whole or half points on small ranges: those are numbered by a direct table, a few
 * nanoseconds each, and only other numbers (a mean of three scores, say) go through the hash.
 */
export class NumberIds {
  private keys = new Float64Array(1024);
  private ids = new Int32Array(1024).fill(-1);
  private hashed = 0;
  private direct = new Int32Array(2 * DIRECT_REACH + 1).fill(-1);
  private readonly bits = new Float64Array(1);
  private readonly words = new Uint32Array(this.bits.buffer);
  readonly values: number[] = [];
  private negativeZero = -1;

  constructor(private readonly signedZero = false) {}

  id(x: number): number {
    if (this.signedZero && x === 0 && 1 / x < 0) {
      if (this.negativeZero < 0) {
        this.negativeZero = this.values.length;
        this.values.push(-0);
      }
      return this.negativeZero;
    }
    const half = x * 2;
    // −0 lands on 0's slot; NaN fails every comparison and goes to the hash.
    if (half >= -DIRECT_REACH && half <= DIRECT_REACH && half === Math.floor(half)) {
      const at = half + DIRECT_REACH;
      const known = this.direct[at]!;
      if (known >= 0) return known;
      const id = this.values.length;
      this.values.push(x === 0 ? 0 : x);
      this.direct[at] = id;
      return id;
    }
    return this.hashedId(x);
  }

  private hashedId(x: number): number {
    const slot = this.slotOf(x);
    const known = this.ids[slot]!;
    if (known >= 0) return known;
    const id = this.values.length;
    this.values.push(x);
    this.keys[slot] = x;
    this.ids[slot] = id;
    if (++this.hashed * 2 > this.keys.length) this.grow();
    return id;
  }

  /** The slot holding x, or the empty slot where it goes. */
  private slotOf(x: number): number {
    const mask = this.keys.length - 1;
    this.bits[0] = x;
    let slot = Math.imul(this.words[0]! ^ Math.imul(this.words[1]!, 0x9e3779b1), 0x85ebca6b) >>> 0;
    for (;;) {
      slot &= mask;
      const id = this.ids[slot]!;
      if (id < 0 || this.keys[slot] === x) return slot;
      slot++;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldIds = this.ids;
    this.keys = new Float64Array(oldKeys.length * 2);
    this.ids = new Int32Array(oldKeys.length * 2).fill(-1);
    for (let s = 0; s < oldKeys.length; s++) {
      if (oldIds[s]! < 0) continue;
      const slot = this.slotOf(oldKeys[s]!);
      this.keys[slot] = oldKeys[s]!;
      this.ids[slot] = oldIds[s]!;
    }
  }

  /** A copy that numbers further values on its own, keeping the ids given so far. */
  clone(): NumberIds {
    const copy = new NumberIds(this.signedZero);
    copy.negativeZero = this.negativeZero;
    copy.keys = this.keys.slice();
    copy.ids = this.ids.slice();
    copy.hashed = this.hashed;
    copy.direct = this.direct.slice();
    for (const v of this.values) copy.values.push(v);
    return copy;
  }

  /** Position of each id's value in ascending order; equal values (−0 and 0) share one. */
  order(): Int32Array {
    const sorted = this.values.map((v, id) => id).sort((x, y) => this.values[x]! - this.values[y]!);
    const position = new Int32Array(sorted.length);
    let place = -1;
    sorted.forEach((id, at) => {
      if (at === 0 || this.values[id] !== this.values[sorted[at - 1]!]) place++;
      position[id] = place;
    });
    return position;
  }
}

/** Pairs of non-negative 32-bit integers, numbered in order of first appearance (an open-addressing table). */
export class PairIds {
  private first = new Int32Array(1024);
  private second = new Int32Array(1024);
  private ids = new Int32Array(1024).fill(-1);
  private size = 0;

  id(a: number, b: number): number {
    const slot = this.slotOf(a, b);
    const known = this.ids[slot]!;
    if (known >= 0) return known;
    const id = this.size++;
    this.first[slot] = a;
    this.second[slot] = b;
    this.ids[slot] = id;
    if (this.size * 2 > this.ids.length) this.grow();
    return id;
  }

  private slotOf(a: number, b: number): number {
    const mask = this.ids.length - 1;
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x7f4a7c15, 0x85ebca6b);
    h ^= h >>> 15;
    let slot = Math.imul(h, 0x2c1b3c6d) >>> 0;
    for (;;) {
      slot &= mask;
      if (this.ids[slot]! < 0 || (this.first[slot] === a && this.second[slot] === b)) return slot;
      slot++;
    }
  }

  private grow(): void {
    const {first, second, ids} = this;
    this.first = new Int32Array(ids.length * 2);
    this.second = new Int32Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2).fill(-1);
    for (let s = 0; s < ids.length; s++) {
      if (ids[s]! < 0) continue;
      const slot = this.slotOf(first[s]!, second[s]!);
      this.first[slot] = first[s]!;
      this.second[slot] = second[s]!;
      this.ids[slot] = ids[s]!;
    }
  }

  clone(): PairIds {
    const copy = new PairIds();
    copy.first = this.first.slice();
    copy.second = this.second.slice();
    copy.ids = this.ids.slice();
    copy.size = this.size;
    return copy;
  }
}

/**
 * One side of a pairing, a named rater's: the instances it scored
 * (ascending, its first score of each, as list.find gives it), each score's
 * id among its distinct scores, and each id's place in ascending order.
 */
export interface Side {
  present: Int32Array;
  /** Per entry of `present`, its score's id (the value is distinct.values[id]). */
  ids: Int32Array;
  order: Int32Array;
  distinct: NumberIds;
}
