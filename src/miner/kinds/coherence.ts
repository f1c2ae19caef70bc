/**
 * A kind is a kind of work its sessions recognisably share: most of them say the same word of the
 * work or run the same command. Average linkage over a project whose sessions all read the same
 * files can join sessions that share only the project; such a group is taken apart again along the
 * merge tree, down to the groups that do share a mark (or single sessions).
 *
 * A session's marks are what may name its kind (`kinds.ts` chooses them: request words that are
 * neither function words nor the project's topic words, commands with their subcommand). A group is
 * coherent when one mark bridges the merge that made it: most sessions of each of its two parts
 * have it. A word three of five sessions say does not make the other two of their kind, and one
 * session of a pair saying a word of a third does not make the pair its kind.
 */

/** The merges of one partition: nodes below `leaves` are items, each later node joins two nodes. */
export class MergeTree {
  private readonly children: Array<[number, number]> = [];
  private readonly leaves: number;

  constructor(leaves: number) {
    this.leaves = leaves;
  }

  join(a: number, b: number): number {
    this.children.push([a, b]);
    return this.leaves + this.children.length - 1;
  }

  /** The two nodes a node joined; undefined for an item. */
  childrenOf(node: number): [number, number] | undefined {
    return node < this.leaves ? undefined : this.children[node - this.leaves];
  }

  /** The items below a node. */
  items(node: number): number[] {
    const out: number[] = [];
    const stack = [node];
    while (stack.length > 0) {
      const top = stack.pop() as number;
      const kids = this.childrenOf(top);
      if (kids === undefined) out.push(top);
      else stack.push(kids[1], kids[0]);
    }
    return out;
  }
}

/** The groups, each incoherent one replaced by its coherent parts (item indices as in `marks`). */
export function coherentGroups(
  groups: ReadonlyArray<{ members: number[]; node: number }>,
  tree: MergeTree,
  marks: ReadonlyArray<readonly number[]>,
): number[][] {
  const out: number[][] = [];
  // A group is replaced by the two parts its last merge joined, each judged the same way (a stack,
  // not recursion: a tree grown one session at a time is as deep as its group is large).
  const stack = groups.map((group) => ({ node: group.node, members: group.members })).reverse();
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const kids = tree.childrenOf(top.node);
    if (kids === undefined) {
      out.push(top.members);
      continue;
    }
    const parts = kids.map((kid) => tree.items(kid));
    if (coherent(parts, marks)) out.push(top.members);
    else stack.push({ node: kids[1], members: parts[1] ?? [] }, { node: kids[0], members: parts[0] ?? [] });
  }
  return out;
}

function coherent(parts: ReadonlyArray<readonly number[]>, marks: ReadonlyArray<readonly number[]>): boolean {
  const [first, second] = parts.map((part) => {
    const counts = new Map<number, number>();
    for (const member of part)
      for (const mark of new Set(marks[member] ?? [])) counts.set(mark, (counts.get(mark) ?? 0) + 1);
    return { counts, size: part.length };
  });
  if (first === undefined || second === undefined) return false;
  for (const [mark, n] of first.counts) {
    const m = second.counts.get(mark) ?? 0;
    if (2 * n > first.size && 2 * m > second.size) return true;
  }
  return false;
}
