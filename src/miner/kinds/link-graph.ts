/**
 * The candidate links of `agglomerate.ts`: which clusters may merge, and the dot products of their
 * sums. A merge adds the two parts' products instead of recomputing big × big, so the products live
 * on links, one per pair of clusters, shared by both ends.
 *
 * Held in arrays rather than maps (a night makes hundreds of thousands of links and rewrites them at
 * every merge): each cluster lists (neighbour, link) pairs; a link's products are in flat typed
 * arrays. A merge does not rewrite the neighbours' lists: the dropped cluster forwards to the kept
 * one, and a link folded into another is marked dead. Reading a list resolves and skips those.
 */
export class LinkGraph {
  /** Σ text·text and Σ action·action of the two ends' sums, by link id. */
  text = new Float64Array(1024);
  action = new Float64Array(1024);
  private dead = new Uint8Array(1024);
  private count = 0;
  private readonly neighbours: number[][];
  private readonly links: number[][];
  private readonly forward: Int32Array;
  /** Scratch of `merge`: the dropped cluster's link to each neighbour, -1 when none. */
  private readonly slot: Int32Array;

  constructor(n: number) {
    this.neighbours = Array.from({ length: n }, () => []);
    this.links = Array.from({ length: n }, () => []);
    this.forward = Int32Array.from({ length: n }, (_, i) => i);
    this.slot = new Int32Array(n).fill(-1);
  }

  /** A new link between clusters `i` and `j` with these products; its id. */
  add(i: number, j: number, text: number, action: number): number {
    if (this.count === this.text.length) this.grow();
    const id = this.count++;
    this.text[id] = text;
    this.action[id] = action;
    (this.neighbours[i] as number[]).push(j);
    (this.links[i] as number[]).push(id);
    (this.neighbours[j] as number[]).push(i);
    (this.links[j] as number[]).push(id);
    return id;
  }

  /** The live cluster `c` merged into (itself while it lives). */
  find(c: number): number {
    const forward = this.forward;
    let at = c;
    while (forward[at] !== at) {
      const next = forward[at] as number;
      forward[at] = forward[next] as number;
      at = next;
    }
    return at;
  }

  /**
   * Rewrites cluster `i`'s lists to its live links, each to a live cluster (`i`'s own merged-away
   * parts excluded), and returns them.
   */
  live(i: number): { neighbours: number[]; links: number[] } {
    const neighbours = this.neighbours[i] as number[];
    const links = this.links[i] as number[];
    let kept = 0;
    for (let k = 0; k < links.length; k++) {
      const id = links[k] as number;
      if (this.dead[id] === 1) continue;
      const c = this.find(neighbours[k] as number);
      if (c === i) {
        this.dead[id] = 1;
        continue;
      }
      neighbours[kept] = c;
      links[kept] = id;
      kept += 1;
    }
    neighbours.length = kept;
    links.length = kept;
    return { neighbours, links };
  }

  /**
   * `keep` takes in `drop` (call before their sums are added). A neighbour linked to both keeps one
   * link with the two products added; one linked to `keep` only gets `fromDrop(c, link)` added (drop's
   * sums with c's), one linked to `drop` only `fromKeep(c, link)`.
   */
  merge(
    keep: number,
    drop: number,
    fromDrop: (c: number, link: number) => void,
    fromKeep: (c: number, link: number) => void,
  ): void {
    const slot = this.slot;
    const dropSide = this.live(drop);
    for (let k = 0; k < dropSide.links.length; k++) {
      const c = dropSide.neighbours[k] as number;
      if (c === keep) this.dead[dropSide.links[k] as number] = 1;
      else slot[c] = dropSide.links[k] as number;
    }
    const keepSide = this.live(keep);
    const neighbours: number[] = [];
    const links: number[] = [];
    for (let k = 0; k < keepSide.links.length; k++) {
      const c = keepSide.neighbours[k] as number;
      const id = keepSide.links[k] as number;
      if (c === drop) {
        this.dead[id] = 1;
        continue;
      }
      const part = slot[c] as number;
      if (part >= 0) {
        this.text[id] = (this.text[id] as number) + (this.text[part] as number);
        this.action[id] = (this.action[id] as number) + (this.action[part] as number);
        this.dead[part] = 1;
        slot[c] = -2;
      } else {
        fromDrop(c, id);
      }
      neighbours.push(c);
      links.push(id);
    }
    for (let k = 0; k < dropSide.links.length; k++) {
      const c = dropSide.neighbours[k] as number;
      const id = slot[c] as number;
      slot[c] = -1;
      if (c === keep || id < 0) continue;
      // The neighbour's own entry names `drop`, which now forwards to `keep`.
      fromKeep(c, id);
      neighbours.push(c);
      links.push(id);
    }
    this.neighbours[keep] = neighbours;
    this.links[keep] = links;
    this.neighbours[drop] = [];
    this.links[drop] = [];
    this.forward[drop] = keep;
  }

  /** Lets link `id` go (both ends stop seeing it). */
  cut(id: number): void {
    this.dead[id] = 1;
  }

  /** How many live links cluster `i` has (its list compacted). */
  degree(i: number): number {
    return this.live(i).links.length;
  }

  private grow(): void {
    const size = this.text.length * 2;
    const text = new Float64Array(size);
    text.set(this.text);
    const action = new Float64Array(size);
    action.set(this.action);
    const dead = new Uint8Array(size);
    dead.set(this.dead);
    this.text = text;
    this.action = action;
    this.dead = dead;
  }
}
