/**
 * What a forgotten lesson leaves on its kind: the correction reports and check sources that quote its
 * evidence go too, so neither the report nor a model pass (which reads a kind's corrections) brings
 * the rule back. The kind's checks and criteria need nothing here: they come from the lessons kept.
 */
import { quotesEvidence } from '../../core/forgotten-lesson.js';
import type { Lesson } from '../../core/lesson.js';
import type { Cluster } from '../types.js';

export function dropForgottenQuotes(cluster: Cluster, dropped: readonly Lesson[]): void {
  if (dropped.length === 0) return;
  const evidence = dropped.flatMap((l) => l.evidence);
  const quoted = (sessionKey: string, sentence: string): boolean =>
    quotesEvidence(sessionKey, sentence, evidence);
  cluster.correctionReports = cluster.correctionReports.filter((r) => !quoted(r.sessionKey, r.sentence));
  cluster.checkSources = cluster.checkSources.filter((s) => !quoted(s.sessionKey, s.sentence));
  const left = new Set([
    ...cluster.checkSources.map((s) => s.sentence),
    ...cluster.correctionReports.map((r) => r.sentence),
  ]);
  cluster.corrections = cluster.corrections.filter((sentence) => left.has(sentence));
}
