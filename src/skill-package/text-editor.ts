/**
 * Edits on a skill's own text (not only a learned block): `add` a bullet (after the unit its anchor
 * names, else at the end of SKILL.md), `replace` or `delete` the one bullet or paragraph its anchor
 * names. Front matter, headings, code, the package's markers and the user's fixed text are never a
 * unit, so no edit reaches them. SKILL.md's body has a token budget: an add that would cross it first
 * merges near-duplicates, and is refused when that does not make room (the optimizer must delete or
 * merge first). Deletes and replaces of a batch apply before its adds, so they can make that room.
 */
import type { DocEditor, DocEditResult } from '../core/doc-editor.js';
import { plainText } from '../core/safe-text.js';
import type { Edit } from '../core/task.js';
import { nearDuplicate, redundantUnits } from './consolidate.js';
import { splitFrontmatter } from './frontmatter.js';
import { skillMdEnd } from './markers.js';
import { estimateTokens } from './tokens.js';
import { parseUnits, unitContent, type Unit } from './units.js';

export interface TextEditorOptions {
  /** The most tokens SKILL.md's body (front matter aside) may hold after an edit. */
  budgetTokens: number;
}

const BULLET = /^(?:[-*+•]\s+|\d{1,9}[.)]\s+)+/;
const normalize = (s: string): string =>
  s.toLowerCase().replace(/`/g, '').replace(/\s+/g, ' ').trim().replace(BULLET, '').trim();
const oneLine = (s: string): string =>
  plainText(s, ' ')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(BULLET, '')
    .trim();

/** The tokens of SKILL.md's body in a joined package. */
export function skillBodyTokens(doc: string): number {
  const { front } = splitFrontmatter(doc);
  return estimateTokens(doc.slice(front.length, skillMdEnd(doc)));
}

const editable = (units: readonly Unit[]): Unit[] => units.filter((u) => u.kind !== 'kept');

/** The one editable unit an anchor names: an exact match, else the only unit containing it. */
function anchored(units: readonly Unit[], anchor: string): Unit | null {
  const key = normalize(anchor);
  if (key === '') return null;
  const candidates = editable(units);
  const exact = candidates.filter((u) => normalize(unitContent(u)) === key);
  if (exact.length === 1) return exact[0] ?? null;
  if (exact.length > 1) return null;
  const containing = candidates.filter((u) => normalize(unitContent(u)).includes(key));
  return containing.length === 1 ? (containing[0] ?? null) : null;
}

function remove(doc: string, unit: Unit): string {
  const before = doc.slice(0, unit.start);
  let after = doc.slice(unit.start + unit.text.length);
  // A paragraph between blank lines leaves one blank line, not two.
  if ((before === '' || before.endsWith('\n\n')) && after.startsWith('\n')) after = after.slice(1);
  return before + after;
}

function splice(doc: string, at: number, text: string): string {
  return doc.slice(0, at) + text + doc.slice(at);
}

function replaceUnit(doc: string, unit: Unit, content: string): string {
  const end = unit.text.endsWith('\n') ? '\n' : '';
  return doc.slice(0, unit.start) + unit.marker + content + end + doc.slice(unit.start + unit.text.length);
}

function addUnit(doc: string, units: readonly Unit[], content: string, anchor: string): string {
  const after = anchor.trim() === '' ? null : anchored(units, anchor);
  if (after) {
    const at = after.start + after.text.length;
    const nl = after.text.endsWith('\n') ? '' : '\n';
    return after.kind === 'bullet'
      ? splice(doc, at, `${nl}${after.marker}${content}\n`)
      : splice(doc, at, `${nl}\n${content}\n`);
  }
  const end = skillMdEnd(doc);
  const last = editable(units)
    .filter((u) => u.start + u.text.length <= end)
    .at(-1);
  // A new rule joins SKILL.md's last list when its last unit is a top-level bullet (whatever kept text follows).
  if (last?.kind === 'bullet' && /^[-*+]\s/.test(last.marker) && last.text.endsWith('\n'))
    return splice(doc, last.start + last.text.length, `${last.marker}${content}\n`);
  const head = doc.slice(0, end);
  const sep = head === '' || head.endsWith('\n\n') ? '' : head.endsWith('\n') ? '\n' : '\n\n';
  return splice(doc, end, `${sep}- ${content}\n`);
}

/** The document after one edit, or null when it would change nothing. */
function applyOne(doc: string, edit: Edit): string | null {
  const units = parseUnits(doc);
  const content = oneLine(edit.content);
  switch (edit.op) {
    case 'delete': {
      const unit = anchored(units, edit.anchor || edit.content);
      return unit ? remove(doc, unit) : null;
    }
    case 'replace': {
      if (content === '' || edit.anchor.trim() === '') return null;
      const unit = anchored(units, edit.anchor);
      if (!unit || unitContent(unit) === content) return null;
      const twin = editable(units).some(
        (u) => u !== unit && normalize(unitContent(u)) === normalize(content),
      );
      return twin ? remove(doc, unit) : replaceUnit(doc, unit, content);
    }
    case 'add': {
      if (content === '') return null;
      const same = editable(units).find((u) => normalize(unitContent(u)) === normalize(content));
      if (same) return null;
      // A near-duplicate is merged: the longer wording stays, in the older unit's place.
      const near = editable(units).find((u) => nearDuplicate(unitContent(u), content));
      if (near) return content.length > unitContent(near).length ? replaceUnit(doc, near, content) : null;
      return addUnit(doc, units, content, edit.anchor);
    }
    default: {
      const never: never = edit.op;
      return never;
    }
  }
}

/** The document without its near-duplicate units (the longer of each pair stays). */
export function consolidate(doc: string): string {
  const units = parseUnits(doc);
  const drop = redundantUnits(units);
  let out = doc;
  for (const i of [...drop].reverse()) out = remove(out, units[i] as Unit);
  return out;
}

const ORDER: Record<Edit['op'], number> = { delete: 0, replace: 1, add: 2 };

export function skillTextEditor(options: TextEditorOptions): DocEditor {
  return {
    apply(doc: string, edits: Edit[]): DocEditResult {
      let current = doc;
      const applied: Edit[] = [];
      const unmatched: Edit[] = [];
      const ordered = edits
        .map((e, i) => ({ e, i }))
        .sort((a, b) => ORDER[a.e.op] - ORDER[b.e.op] || a.i - b.i);
      for (const { e } of ordered) {
        let next = applyOne(current, e);
        if (next !== null && next.length > current.length && skillBodyTokens(next) > options.budgetTokens) {
          next = consolidate(next);
          if (skillBodyTokens(next) > options.budgetTokens) next = null;
        }
        if (next === null) unmatched.push(e);
        else {
          current = next;
          applied.push(e);
        }
      }
      return { doc: current, applied, unmatched };
    },
    rules: (doc) => editable(parseUnits(doc)).map(unitContent),
    wholeDocument: true,
  };
}
