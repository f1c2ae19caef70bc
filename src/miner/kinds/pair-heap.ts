/** The merge heap of `agglomerate.ts`. */

export interface PairEntry {
  sim: number;
  a: number;
  b: number;
  stampA: number;
  stampB: number;
}

/**
 * A max-heap of candidate pairs (ties: lower `a`, then lower `b`, first), held in typed arrays: a
 * night pushes hundreds of thousands of pairs, and objects for each would be garbage to collect.
 */
export class PairHeap {
  private sim = new Float64Array(1024);
  private a = new Int32Array(1024);
  private b = new Int32Array(1024);
  private stampA = new Int32Array(1024);
  private stampB = new Int32Array(1024);
  private size = 0;

  push(sim: number, a: number, b: number, stampA: number, stampB: number): void {
    if (this.size === this.sim.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.beforeAt(sim, a, b, parent)) break;
      this.move(parent, i);
      i = parent;
    }
    this.sim[i] = sim;
    this.a[i] = a;
    this.b[i] = b;
    this.stampA[i] = stampA;
    this.stampB[i] = stampB;
  }

  /** Moves the top entry into `out` (no allocation per pop); false when the heap is empty. */
  pop(out: PairEntry): boolean {
    if (this.size === 0) return false;
    out.sim = this.sim[0] as number;
    out.a = this.a[0] as number;
    out.b = this.b[0] as number;
    out.stampA = this.stampA[0] as number;
    out.stampB = this.stampB[0] as number;
    this.size -= 1;
    if (this.size === 0) return true;
    const last = this.size;
    const sim = this.sim[last] as number;
    const a = this.a[last] as number;
    const b = this.b[last] as number;
    const stampA = this.stampA[last] as number;
    const stampB = this.stampB[last] as number;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = -1;
      if (left < this.size && !this.beforeAt(sim, a, b, left)) best = left;
      if (right < this.size && !this.beforeAt(sim, a, b, right)) {
        const r = right;
        if (
          best === -1 ||
          this.beforeAt(this.sim[r] as number, this.a[r] as number, this.b[r] as number, best)
        )
          best = right;
      }
      if (best === -1) break;
      this.move(best, i);
      i = best;
    }
    this.sim[i] = sim;
    this.a[i] = a;
    this.b[i] = b;
    this.stampA[i] = stampA;
    this.stampB[i] = stampB;
    return true;
  }

  /** True when (sim, a, b) comes before the entry at `at`. */
  private beforeAt(sim: number, a: number, b: number, at: number): boolean {
    const s = this.sim[at] as number;
    if (sim !== s) return sim > s;
    const x = this.a[at] as number;
    return a < x || (a === x && b < (this.b[at] as number));
  }

  private move(from: number, to: number): void {
    this.sim[to] = this.sim[from] as number;
    this.a[to] = this.a[from] as number;
    this.b[to] = this.b[from] as number;
    this.stampA[to] = this.stampA[from] as number;
    this.stampB[to] = this.stampB[from] as number;
  }

  private grow(): void {
    const size = this.sim.length * 2;
    const widen = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.sim = widen(this.sim, (k) => new Float64Array(k));
    this.a = widen(this.a, (k) => new Int32Array(k));
    this.b = widen(this.b, (k) => new Int32Array(k));
    this.stampA = widen(this.stampA, (k) => new Int32Array(k));
    this.stampB = widen(this.stampB, (k) => new Int32Array(k));
  }
}
