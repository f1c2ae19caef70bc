/** report.md's section on the skills the user named (`--skill`, `skills:`): decision, size, files, edits. */
import type { NightReport } from './night-report.js';

const escapeMd = (s: string): string => s.replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
const score = (x: number | null): string => (x === null ? '—' : x.toFixed(3));

export function skillPackageLines(r: NightReport): string[] {
  const packages = r.skill_packages ?? [];
  if (packages.length === 0) return [];
  const lines = [
    '',
    '## Your skills',
    '',
    '| Skill | Decision | Gate | Tasks | Validation | Size (tokens, SKILL.md body) | Files changed |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const p of packages) {
    const decision = p.accepted ? 'staged' : `no change${p.reason ? `: ${escapeMd(p.reason)}` : ''}`;
    const files = p.changed_files.length > 0 ? p.changed_files.map(escapeMd).join(', ') : '—';
    lines.push(
      `| ${escapeMd(p.skill_name)} | ${decision} | ${p.gate_action} | ${p.n_tasks} | ${score(p.baseline)} → ${score(p.candidate)} | ${p.tokens_before} → ${p.tokens_after} of ${p.token_budget} | ${files} |`,
    );
  }
  for (const p of packages) {
    for (const e of p.edits) {
      const what =
        e.op === 'add'
          ? escapeMd(e.content)
          : e.op === 'delete'
            ? `“${escapeMd(e.anchor || e.content)}”`
            : `“${escapeMd(e.anchor)}” → ${escapeMd(e.content)}`;
      lines.push(`- ${escapeMd(p.skill_name)}: [${e.op}] ${what} — _why: ${escapeMd(e.rationale)}_`);
    }
    const trained = p.trained_files.map(escapeMd).join(', ');
    const scripts =
      p.scripts.length > 0 ? `; scripts (never edited): ${p.scripts.map(escapeMd).join(', ')}` : '';
    lines.push(`- ${escapeMd(p.skill_name)}: trained ${trained}${scripts}`);
  }
  return lines;
}
