/**
 * The edits a reflect or merge reply carries, read the way strong models naturally write them: a bare
 * list instead of `{"edits": [...]}`, `"op": "Add"`, `"anchor": null`, and rules copied with their
 * `- ` bullet. Matching an anchor to a rule (backticks, ambiguity) is the learned block's job.
 */
import { z } from 'zod';

/** A rule copied from the rendered block keeps its bullet; the block adds its own. */
export const withoutBullet = (text: string): string =>
  text
    .trim()
    .replace(/^(?:[-*•]\s+)+/, '')
    .trim();

const text = z.preprocess((v) => (v === null || v === undefined ? '' : v), z.string());
const ruleText = text.transform(withoutBullet);

const editSchema = z.object({
  op: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.enum(['add', 'replace', 'delete']),
  ),
  content: ruleText,
  anchor: ruleText,
  rationale: text,
  /** Merge replies only: how many proposals the merged edit stands for. */
  support: z.number().int().positive().optional().catch(undefined),
});

export const editsReplySchema = z.preprocess(
  (v) => (Array.isArray(v) ? { edits: v } : v),
  z.object({ edits: z.array(editSchema).max(50) }),
);
export type EditsReply = z.infer<typeof editsReplySchema>;

export const EDITS_SHAPE =
  '{"edits": [{"op": "add", "content": "rule text", "anchor": "", "rationale": "why"}]}';
