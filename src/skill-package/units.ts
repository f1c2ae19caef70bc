/**
 * A Markdown document cut into the units a night may edit: each bullet (with its continuation lines)
 * and each paragraph. Everything else is kept as it is: front matter, headings, code fences, tables,
 * HTML comments, blank lines, the package's file markers, and any text between the user's
 * `<!-- skillopt: fixed -->` and `<!-- /skillopt: fixed -->` markers (an unclosed fixed marker keeps
 * the rest of the document). The units' texts joined in order are the document, byte for byte.
 */
import { splitFrontmatter } from './frontmatter.js';

export type UnitKind = 'bullet' | 'paragraph' | 'kept';

export interface Unit {
  kind: UnitKind;
  /** The unit's exact text, line ends included. */
  text: string;
  /** Where it starts in the document. */
  start: number;
  /** A bullet's marker with its indentation (`- `, `  1. `); '' otherwise. */
  marker: string;
}

export const FIXED_START = /^\s*<!--\s*skillopt:\s*fixed\s*-->\s*$/i;
export const FIXED_END = /^\s*<!--\s*\/skillopt:\s*fixed\s*-->\s*$/i;
const BULLET = /^(\s{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+)\S/;
const FENCE = /^\s{0,3}(```|~~~)/;
/** Lines that are structure, never a unit's text: headings, rules, tables, comments, quotes. */
const STRUCTURE = /^\s{0,3}(?:#{1,6}(?:\s|$)|(?:[-*_]\s*){3,}$|\||<!--|>|<\/?[A-Za-z])/;

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export function parseUnits(doc: string): Unit[] {
  const { front, body } = splitFrontmatter(doc);
  const units: Unit[] = [];
  let at = 0;
  const push = (kind: UnitKind, text: string, marker = ''): void => {
    const last = units[units.length - 1];
    if (kind === 'kept' && last?.kind === 'kept') last.text += text;
    else units.push({ kind, text, start: at, marker });
    at += text.length;
  };
  if (front !== '') push('kept', front);
  const all = lines(body);
  let fence: string | null = null;
  let fixed = false;
  for (let i = 0; i < all.length; i++) {
    const line = all[i] ?? '';
    const bare = line.replace(/\r?\n$/, '');
    if (fixed || fence !== null) {
      push('kept', line);
      if (fixed && FIXED_END.test(bare)) fixed = false;
      else if (fence !== null && bare.trimStart().startsWith(fence)) fence = null;
      continue;
    }
    if (FIXED_START.test(bare)) {
      fixed = true;
      push('kept', line);
      continue;
    }
    const opens = FENCE.exec(bare);
    if (opens) {
      fence = opens[1] ?? '```';
      push('kept', line);
      continue;
    }
    if (bare.trim() === '' || STRUCTURE.test(bare)) {
      push('kept', line);
      continue;
    }
    const bullet = BULLET.exec(bare);
    let text = line;
    // A unit runs on over its continuation lines: indented text for a bullet, plain text for a paragraph.
    while (i + 1 < all.length) {
      const next = (all[i + 1] ?? '').replace(/\r?\n$/, '');
      if (next.trim() === '' || STRUCTURE.test(next) || FENCE.test(next) || FIXED_START.test(next)) break;
      if (BULLET.test(next)) break;
      if (bullet && !/^\s/.test(next)) break;
      text += all[++i] ?? '';
    }
    push(bullet ? 'bullet' : 'paragraph', text, bullet?.[1] ?? '');
  }
  return units;
}

/** A unit's words as a person reads them: the bullet marker, emphasis and spacing do not matter. */
export function unitContent(unit: Unit): string {
  return unit.text.slice(unit.marker.length).replace(/\s+/g, ' ').trim();
}
