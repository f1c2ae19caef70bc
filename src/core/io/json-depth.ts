/**
 * How deep a parsed JSON value nests. `JSON.parse` takes 100,000 nested arrays, but everything that
 * walks the value afterwards recursively (cleaning its strings, a schema, `JSON.stringify` in a message)
 * overflows the stack: a file from elsewhere is refused past a depth no real file reaches.
 */

/** Most arrays and objects inside one another that a file we read may hold. */
export const MAX_JSON_DEPTH = 64;

/** True when `value` has arrays or objects nested more than `max` deep (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The sentence that refuses such a file, after its name. */
export const tooDeep = (max: number = MAX_JSON_DEPTH): string =>
  `nests arrays or objects more than ${max} levels deep, which no file of skillopt-sleep does`;
