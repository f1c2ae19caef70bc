/**
 * The learned block: the only part of a skill document the trainer may change. Text outside the
 * markers is kept byte for byte (the reference moved the block to the end and reflowed the file).
 */
import { InputError } from '../core/errors.js';
import { plainText } from '../core/safe-text.js';
import type { DocEditor } from '../core/doc-editor.js';
import type { Edit } from '../core/task.js';
import type { LearnedBlockState } from '../backends/types.js';
import { BLOCK_END, BLOCK_START, blockRules, findLearnedBlock } from '../core/learned-block-text.js';

export { BLOCK_END, BLOCK_START };
const HEADING = '## Learned preferences & procedures';
const NOTE =
  '_This block is maintained by skillopt-sleep: rules here were kept only because they raised the score on validation tasks. Hand-edits outside this block are never touched._';

interface LocatedBlock {
  /** Text before the START marker (untouched). */
  before: string;
  /** Text after the END marker (untouched). */
  after: string;
  rules: string[];
  present: boolean;
}

/** A leading list bullet, as a model copies a rule from the rendered block. */
const BULLET = /^(?:[-*•]\s+)+/;
/** How rules and anchors are compared: case, spacing, a copied bullet and backticks do not matter. */
const normalizeRule = (s: string): string =>
  s.toLowerCase().replace(/`/g, '').replace(/\s+/g, ' ').trim().replace(BULLET, '').trim();
/**
 * A rule is one line (newlines would break the bullet list) without a bullet of its own (the block adds
 * it), and without escape sequences or control characters (a model's or a transcript's wording).
 */
const oneLine = (s: string): string =>
  plainText(s, ' ')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(BULLET, '')
    .trim();

/**
 * The one rule an anchor names: an exact match, else the only rule containing it. An anchor found in
 * several rules is ambiguous (a short "pnpm" must not touch every pnpm rule): -1, like no match.
 */
function anchoredRule(rules: string[], key: string): number {
  const exact = rules.findIndex((r) => normalizeRule(r) === key);
  if (exact !== -1) return exact;
  const containing = rules.flatMap((r, i) => (normalizeRule(r).includes(key) ? [i] : []));
  return containing.length === 1 ? (containing[0] ?? -1) : -1;
}

function locate(doc: string, where: string): LocatedBlock {
  const span = findLearnedBlock(doc);
  if (span.kind === 'none') return { before: doc, after: '', rules: [], present: false };
  if (span.kind === 'broken') {
    if (span.problem === 'end_without_start')
      throw new InputError(`${where}: learned block END marker without START`);
    if (span.problem === 'two_starts')
      throw new InputError(`${where}: more than one learned block; keep exactly one ${BLOCK_START}`);
    // The reference truncated the rest of the file here; we refuse to touch it instead.
    throw new InputError(
      `${where}: learned block has ${BLOCK_START} but no ${BLOCK_END}; fix the file by hand`,
    );
  }
  return {
    before: doc.slice(0, span.start),
    after: doc.slice(span.end + BLOCK_END.length),
    rules: blockRules(doc, span),
    present: true,
  };
}

export function learnedRules(doc: string, where = 'skill'): string[] {
  return locate(doc, where).rules;
}

/**
 * The document without its learned block: the text a person wrote, as it was before the first block was
 * appended (trailing blank lines aside). Throws like `learnedRules` on a malformed block.
 */
export function withoutLearnedBlock(doc: string, where = 'skill'): string {
  const block = locate(doc, where);
  return block.present ? `${block.before}${block.after}` : doc;
}

/** Whether the document has its block yet (a malformed one is reported where edits are applied). */
export function learnedBlockState(doc: string): LearnedBlockState | undefined {
  try {
    const block = locate(doc, 'skill');
    return !block.present ? 'absent' : block.rules.length === 0 ? 'empty' : 'filled';
  } catch {
    return undefined;
  }
}

function renderBlock(rules: string[]): string {
  const lines = [BLOCK_START, HEADING, '', NOTE, ''];
  for (const r of rules) lines.push(`- ${oneLine(r)}`);
  lines.push(BLOCK_END);
  return lines.join('\n');
}

function render(block: LocatedBlock, rules: string[]): string {
  if (block.present) return block.before + renderBlock(rules) + block.after;
  // First block: append after the existing text, separated by one blank line.
  const base = block.before;
  const sep = base === '' ? '' : base.endsWith('\n\n') ? '' : base.endsWith('\n') ? '\n' : '\n\n';
  return `${base}${sep}${renderBlock(rules)}\n`;
}

export interface ApplyResult {
  doc: string;
  applied: Edit[];
  /** Edits that would change nothing (duplicate add, anchor not found or in several rules); never gated. */
  unmatched: Edit[];
}

function applyOne(rules: string[], edit: Edit): boolean {
  const content = oneLine(edit.content);
  const key = normalizeRule(edit.anchor || edit.content);
  switch (edit.op) {
    case 'add': {
      if (content === '' || rules.some((r) => normalizeRule(r) === normalizeRule(content))) return false;
      rules.push(content);
      return true;
    }
    case 'delete': {
      if (key === '') return false;
      const index = anchoredRule(rules, key);
      if (index === -1) return false;
      rules.splice(index, 1);
      return true;
    }
    case 'replace': {
      if (content === '' || key === '' || edit.anchor.trim() === '') return false;
      const index = anchoredRule(rules, key);
      if (index === -1 || rules[index] === content) return false;
      const duplicate = rules.some((r, i) => i !== index && normalizeRule(r) === normalizeRule(content));
      if (duplicate) rules.splice(index, 1);
      else rules[index] = content;
      return true;
    }
    default: {
      const never: never = edit.op;
      return never;
    }
  }
}

/** Apply edits in order to the learned block of `doc`. */
export function applyEdits(doc: string, edits: Edit[], where = 'skill'): ApplyResult {
  const block = locate(doc, where);
  const rules = [...block.rules];
  const applied: Edit[] = [];
  const unmatched: Edit[] = [];
  for (const edit of edits) (applyOne(rules, edit) ? applied : unmatched).push(edit);
  if (applied.length === 0) return { doc, applied, unmatched };
  return { doc: render(block, rules), applied, unmatched };
}

/** The document with its learned rules replaced by `rules` (a rewrite); text outside the block is kept. */
export function withRules(doc: string, rules: string[], where = 'skill'): string {
  const block = locate(doc, where);
  const clean = rules.map(oneLine).filter((r) => r !== '');
  if (!block.present && clean.length === 0) return doc;
  return render(block, clean);
}

/** The managed skill's editor: edits change its learned block only. */
export const learnedBlockEditor: DocEditor = {
  apply: (doc, edits) => applyEdits(doc, edits),
  rules: (doc) => learnedRules(doc),
};
