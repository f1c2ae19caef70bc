/** The proposal page's section on the user's own skills (`--skill`): files changed, size against budget. */
import { html, score, type Html } from '../html.js';
import type { NightReport } from '../../night/night-report.js';
import type { SkillSizePoint } from '../skill-sizes.js';

export function skillPackagesHtml(r: NightReport | null): Html {
  const packages = r?.skill_packages ?? [];
  if (packages.length === 0) return html``;
  const rows = packages.map(
    (p) =>
      html`<tr data-testid="skill-package" data-skill="${p.skill_name}">
        <td><code>${p.skill_name}</code></td>
        <td>${score(p.baseline)} → ${score(p.candidate)}</td>
        <td data-testid="skill-size">${p.tokens_before} → ${p.tokens_after} of ${p.token_budget}</td>
        <td data-testid="skill-files">${p.changed_files.length > 0 ? p.changed_files.join(', ') : '—'}</td>
        <td>${p.scripts.length > 0 ? p.scripts.join(', ') : '—'}</td>
      </tr>`,
  );
  return html`<h2>Your skills</h2>
    <table id="skill-packages" data-testid="skill-packages">
      <thead>
        <tr>
          <th>Skill</th>
          <th>Validation</th>
          <th>Size (tokens, SKILL.md body)</th>
          <th>Files changed</th>
          <th>Scripts (never edited)</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}

/** Each named skill's SKILL.md body size, night by night (the nights that staged a proposal). */
export function skillSizesHtml(points: readonly SkillSizePoint[] | undefined): Html {
  if (!points || points.length === 0) return html``;
  const rows = points.map(
    (p) =>
      html`<tr data-testid="skill-size-row" data-skill="${p.skill_name}" data-night="${p.night}">
        <td>${p.night}</td>
        <td><code>${p.skill_name}</code></td>
        <td>${p.tokens_before} → ${p.tokens_after}</td>
        <td>${p.token_budget}</td>
        <td>${p.proposal_id} (${p.status})</td>
      </tr>`,
  );
  return html`<h2>Your skills' size, night by night</h2>
    <table id="skill-sizes" data-testid="skill-sizes">
      <thead>
        <tr>
          <th>Night</th>
          <th>Skill</th>
          <th>Tokens (SKILL.md body)</th>
          <th>Budget</th>
          <th>Proposal</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
}
