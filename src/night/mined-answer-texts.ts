/**
 * The answers of each correction report (the rejected one and the accepted one) are most of a mined
 * result's bytes (6 of 8 MB for a 335-session project), and only a model pass reads them. The mining
 * cache stores them apart; a result read back gets them on first access.
 */
import type { MinedNight } from '../miner/types.js';

/** Every report's rejected then accepted answer, in cluster order, then report order. */
export type AnswerTexts = string[];

/** The result with its reports' answers emptied (keys kept, so key order is unchanged), and the answers. */
export function withoutAnswerTexts(mined: MinedNight): { head: MinedNight; texts: AnswerTexts } {
  const texts: AnswerTexts = [];
  const clusters = mined.clusters.map((c) => ({
    ...c,
    correctionReports: c.correctionReports.map((r) => {
      texts.push(r.rejected, r.accepted);
      return { ...r, rejected: '', accepted: '' };
    }),
  }));
  return { head: { ...mined, clusters }, texts };
}

/**
 * Gives `head`'s reports their answers back as properties read on first access: `texts` is called once,
 * for all of them. Redefining the existing keys keeps their place, so the result serializes as mined.
 */
export function withAnswerTexts(head: MinedNight, texts: () => AnswerTexts): MinedNight {
  let all: AnswerTexts | undefined;
  const at = (i: number): string => (all ??= texts())[i] ?? '';
  let i = 0;
  for (const cluster of head.clusters)
    for (const report of cluster.correctionReports) {
      for (const key of ['rejected', 'accepted'] as const) {
        const index = i++;
        Object.defineProperty(report, key, {
          enumerable: true,
          configurable: true,
          get: () => at(index),
          set: (value: string) =>
            Object.defineProperty(report, key, {
              value,
              enumerable: true,
              configurable: true,
              writable: true,
            }),
        });
      }
    }
  return head;
}
