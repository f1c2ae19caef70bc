/**
 * Whether a name can be a git branch: the rules of `git check-ref-format --branch`, checked before a
 * night spends anything, so a bad `run --branch NAME` is refused at once and in one sentence.
 */

/** Why `name` cannot name a branch, or null when it can. */
export function branchNameProblem(name: string): string | null {
  if (name === '') return 'it is empty';
  if (name.startsWith('-')) return 'it starts with "-"';
  if (name === 'HEAD' || name === '@') return `"${name}" is reserved by git`;
  // Space, DEL and the other control characters, and the characters git gives a meaning in revisions.
  // eslint-disable-next-line no-control-regex
  const bad = /[\u0000-\u0020\u007f~^:?*[\\]/.exec(name);
  if (bad) return `it contains ${describeChar(bad[0])}`;
  if (name.includes('..')) return 'it contains ".."';
  if (name.includes('@{')) return 'it contains "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//'))
    return 'it starts or ends with "/" or has an empty part';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `its part "${part}" starts with "."`;
    if (part.endsWith('.lock')) return `its part "${part}" ends with ".lock"`;
  }
  return null;
}

function describeChar(c: string): string {
  if (c === ' ') return 'a space';
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f ? 'a control character' : `"${c}"`;
}
