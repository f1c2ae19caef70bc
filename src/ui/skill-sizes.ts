/**
 * Your own skills' size night by night (`--skill`, and fan-out skills in the skill format): read from
 * each staged proposal's report.json, oldest first. A night that staged nothing changed no skill.
 */
import { z } from 'zod';
import { readProposal, type ProposalSummary } from '../../proposals/index.js';
import type { ProposalLedger } from '../core/proposal-ledger.js';
import { storedReportSchema } from '../night/night-report.js';

export interface SkillSizePoint {
  night: number;
  proposal_id: string;
  status: ProposalSummary['status'];
  skill_name: string;
  tokens_before: number;
  tokens_after: number;
  token_budget: number;
}

/** The newest proposals read for the series (each is one report.json read). */
const MOST = 60;

export async function loadSkillSizes(
  dir: string,
  proposals: readonly ProposalSummary[],
  ledger: ProposalLedger,
): Promise<SkillSizePoint[]> {
  const points: SkillSizePoint[] = [];
  for (const p of proposals.slice(0, MOST)) {
    let report: unknown;
    try {
      report = (await readProposal(dir, p.id, z.unknown(), ledger)).report;
    } catch {
      continue;
    }
    const parsed = storedReportSchema.safeParse(report);
    if (!parsed.success) continue;
    for (const s of parsed.data.skill_packages ?? []) {
      points.push({
        night: p.night,
        proposal_id: p.id,
        status: p.status,
        skill_name: s.skill_name,
        tokens_before: s.tokens_before,
        tokens_after: s.tokens_after,
        token_budget: s.token_budget,
      });
    }
  }
  return points.sort((a, b) => a.night - b.night);
}
