/**
 * How a trainer applies edits to the document it trains. The managed skill's editor changes only its
 * learned block (`src/trainer/learned-block.ts`); a user's own skill package is edited as a whole
 * (`src/skill-package/text-editor.ts`). The trainer core asks only this interface.
 */
import type { Edit } from './task.js';

export interface DocEditResult {
  doc: string;
  applied: Edit[];
  /** Edits that would change nothing (duplicate add, anchor not found, over the size budget); never gated. */
  unmatched: Edit[];
}

export interface DocEditor {
  apply(doc: string, edits: Edit[]): DocEditResult;
  /** The editable rules as lines (what a night counts as stated rules). */
  rules(doc: string): string[];
  /** Every bullet and paragraph may change (a user's skill), not only a learned block: reflection is told. */
  wholeDocument?: boolean;
}
