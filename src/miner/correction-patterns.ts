/**
 * Correction patterns from config (`correction_patterns`): a user's own way of saying a rule, as a
 * regex over one sentence of a follow-up and the checks a match gives. The miner reads rules from
 * what a correction changed (see `rules/`) and needs no table of phrases; these patterns are for
 * users who want a phrase of theirs to count wherever it appears.
 *
 * Config patterns (`compileUserPatterns`) use JavaScript regex syntax and run on RE2 (`re2js`), in
 * time linear in the sentence: a project's config arrives with a clone, and its pattern must not
 * backtrack for hours over the user's text. They are matched case-insensitively against each sentence
 * (every match counts); a regex that matches the empty string, or needs backtracking (a lookahead, a
 * backreference), is refused. A check's `arg` may use `$0`–`$9` for
 * the whole match and its capture groups and `$$` for a dollar sign; a captured value is trimmed of
 * quotes/backticks and trailing punctuation, a bare value must be a meaningful token (not "it",
 * "this", ...), and a check whose group did not capture is skipped. `not_contains` becomes the
 * word-bounded negative check; in a `regex` arg captured text is escaped; `max_chars`/`min_chars`
 * need an integer (commas allowed); a heading arg loses its leading `#`s.
 *
 * Whether a check is kept for a task (it must fail on the session's first attempt and not contradict
 * the rest of its correction) is decided by `filterUsefulChecks` in `corrections.ts`.
 */
import type { Check } from '../core/task.js';

/** What a pattern sees besides its match. */
export interface MatchContext {
  /** The sentence the match was found in. */
  readonly sentence: string;
  /** True when an earlier pattern already read the text at this index of the sentence. */
  isClaimed(index: number): boolean;
}

/** Every match in a sentence, with its index, as `String.prototype.matchAll` gives them. */
export interface SentenceMatcher {
  matchAll(sentence: string): Iterable<RegExpExecArray>;
}

/** One compiled pattern. */
export interface CorrectionPattern {
  /** Shown in errors. */
  readonly name: string;
  /** Matched against every sentence; a string is compiled with flags `gi`, a matcher runs itself. */
  readonly pattern: RegExp | string | SentenceMatcher;
  /** The checks one match implies; [] when the match is not a usable correction after all. */
  readonly checks: (match: RegExpMatchArray, context: MatchContext) => Check[];
  /** A generic pattern claims no text. Every other pattern claims the text it matched when it yields a check. */
  readonly generic?: boolean;
}

/** A pattern as a config file writes it. */
export interface UserPatternSpec {
  name: string;
  regex: string;
  checks: ReadonlyArray<{ op: string; arg?: string | number }>;
}
