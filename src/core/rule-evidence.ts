/**
 * A proposal's `rules.json`: every line a night would write into a document, with the lessons it came
 * from and their evidence (the session, the prompt's index, the user's sentence), so a reviewer sees
 * why each rule is there and `reject --rule N` knows what to keep out. Written by the night
 * (`src/night/rule-evidence.ts`), pinned by its hash in the manifest, read back by `proposals/rules.ts`.
 */
import { z } from 'zod';

export const RULES_FILE = 'rules.json';
export const RULES_SCHEMA = 'skillopt-sleep.rules';

const checkSchema = z.object({
  op: z.string(),
  arg: z.union([z.string(), z.number()]).optional(),
});

export const ruleLessonSchema = z.object({
  id: z.string(),
  rule: z.string(),
  project: z.string(),
  checks: z.array(checkSchema),
  evidence: z.array(z.object({ session: z.string(), turn: z.number().int(), sentence: z.string() })),
});
export type RuleLesson = z.infer<typeof ruleLessonSchema>;

export const learnedRuleSchema = z.object({
  /** 1-based, in the order of the proposal's targets and their lines (`reject --rule N`). */
  n: z.number().int().positive(),
  /** The live file the line goes into: relative to the project (posix), absolute outside it. */
  target: z.string(),
  line: z.string(),
  /** The checks the line states (what a judge tests it by), from the night's tasks. */
  checks: z.array(checkSchema),
  /** The lessons it says (none for a rule learned from a tasks file's checks). */
  lessons: z.array(ruleLessonSchema),
});
export type LearnedRule = z.infer<typeof learnedRuleSchema>;

export const rulesFileSchema = z.object({
  schema: z.literal(RULES_SCHEMA),
  version: z.literal(1),
  rules: z.array(learnedRuleSchema),
});
export type RulesFile = z.infer<typeof rulesFileSchema>;
