/** A proposal: its diff, edits, where its rules came from, per-task deltas, refusals, and the buttons. */
import type { ProposalSummary } from '../../../proposals/index.js';
import { html, raw, score, type Html } from '../html.js';
import type { ProposalView } from '../data.js';
import { gateWords, timeHtml } from '../format.js';
import { ACTION_LABELS, proposalActions, targetWord, type ProposalActionName } from '../proposal-state.js';
import { checkText, type LessonReport, type NightReport } from '../../night/night-report.js';
import { liftSentence, liftWhere } from '../../lift/lift-text.js';
import { link, page, query, type RenderOptions } from './layout.js';
import { statusBadge } from './nights.js';
import { skillPackagesHtml } from './skill-packages.js';

/** What an adopt/reject/revert button did: the lines the CLI prints, or its error line. */
export interface ActionResult {
  ok: boolean;
  lines: string[];
}

/** A validation task by its kind's label (the `kind:` tag), with its instance id (as report.md names it). */
export function taskName(id: string, tags: readonly string[] | undefined): string {
  const kind = tags?.find((tag) => tag.startsWith('kind:'))?.slice('kind:'.length);
  return kind ? `${kind} (${id})` : id;
}

/** The unified diff, one element per line, coloured by its first character. */
export function diffHtml(diff: string): Html {
  const lines = diff.split('\n').map((line) => {
    const cls =
      line.startsWith('+++') || line.startsWith('---')
        ? 'file'
        : line.startsWith('@@')
          ? 'hunk'
          : line.startsWith('+')
            ? 'add'
            : line.startsWith('-')
              ? 'del'
              : 'ctx';
    return html`<span class="${cls}">${line}</span>`;
  });
  const joined = lines.flatMap((line, i) => (i === 0 ? [line] : ['\n', line]));
  return html`<pre class="diff" id="diff" data-testid="diff">${joined}</pre>`;
}

/** The buttons this status allows (the CLI refuses the others; a page never offers them). */
function actionForms(v: ProposalView, o: RenderOptions): Html {
  if (o.static) return html``;
  const form = (action: ProposalActionName, label: string, extra: Html = html``): Html =>
    html`<form class="inline" method="post" action="/action" id="${action}-form" data-testid="${action}-form">
      <input type="hidden" name="csrf" value="${o.csrf ?? ''}" />
      <input type="hidden" name="dir" value="${v.project}" />
      <input type="hidden" name="id" value="${v.summary.id}" />
      <input type="hidden" name="action" value="${action}" />
      ${extra}
      <button type="submit" id="${action}-button" data-testid="${action}-button">${label}</button>
    </form>`;
  const actions = proposalActions(v.summary);
  const forms = actions.map((a) =>
    a === 'reject'
      ? form(
          a,
          ACTION_LABELS[a],
          html`<input type="text" name="reason" id="reject-reason" placeholder="reason (optional)" />
            ${ruleChoices(v)}`,
        )
      : form(a, a === 'adopt' && v.summary.status === 'adopted' ? 'Adopt the rest' : ACTION_LABELS[a]),
  );
  return html`<section id="actions" data-actions="${actions.join(' ')}">
    ${forms.length ? forms : html`<p class="muted" id="no-actions">Nothing to do: it was ${v.summary.status}.</p>`}
  </section>`;
}

/** One box per learned line: checked ones alone are rejected (kept out in any wording); none: all. */
function ruleChoices(v: ProposalView): Html {
  if (v.rules.length === 0) return html``;
  const boxes = v.rules.map((r) => {
    const box = html`<input type="checkbox" name="rule" value="${String(r.n)}" data-testid="reject-rule" />`;
    return html`<li>
      <label>${box} ${`${r.n}. ${r.line}`} <span class="muted">(${r.target})</span></label>
    </li>`;
  });
  return html`<fieldset id="reject-rules">
    <legend>Reject only these rules (none checked: the whole proposal)</legend>
    <ul>
      ${boxes}
    </ul>
  </fieldset>`;
}

function resultBox(result: ActionResult | undefined): Html {
  if (!result) return html``;
  return html`<pre
    id="action-result"
    data-testid="action-result"
    data-ok="${String(result.ok)}"
    class="${result.ok ? 'ok' : 'refused'}"
  >
${result.lines.join('\n')}</pre>`;
}

/** When it was adopted, rejected or reverted. */
function statusTimes(s: ProposalSummary, o: RenderOptions): Html {
  const at = (word: string, ms: number | undefined): Html =>
    ms === undefined ? html`` : html` · ${word} ${timeHtml(ms, o.now)}`;
  return html`${at('adopted', s.adoptedAt)}${at('rejected', s.rejectedAt)}${at('reverted', s.revertedAt)}`;
}

/** What the user taught, as the night that staged the proposal mined it: rule, support, judge, evidence. */
export function lessonsHtml(lessons: readonly LessonReport[] | undefined): Html {
  if (lessons === undefined)
    return html`<p class="muted" id="lessons">
      None in this night's report (it read a tasks file, or it is older than lessons).
    </p>`;
  const items = lessons.map((l) => {
    const judged =
      l.checks.length > 0
        ? html`${l.checks.length} check${l.checks.length === 1 ? '' : 's'}:
          ${l.checks.map((c, i) => html`${i > 0 ? ', ' : ''}<code>${checkText(c)}</code>`)}`
        : l.criterion !== null
          ? html`a model, against the rule`
          : html`nothing`;
    const evidence = l.evidence.map(
      (e) =>
        html`<li data-testid="lesson-evidence">
          “<span class="sentence">${e.sentence}</span>”
          <span class="muted"
            >(${e.session}, prompt ${e.turn}${e.signals.length ? `; ${e.signals.join(', ')}` : ''})</span
          >
        </li>`,
    );
    return html`<li data-testid="lesson" data-lesson="${l.id}" ${l.retired_by ? raw('class="muted"') : ''}>
      <strong>${l.rule}</strong>
      <span class="muted"
        >(${l.id}; ${l.support}
        session${l.support === 1 ? '' : 's'}${l.kind ? `; ${l.kind}` : ''}${
          l.retired_by ? `; retired by ${l.retired_by}` : ''
        })</span
      ><br />judged by ${judged}
      <ul>
        ${evidence}
      </ul>
    </li>`;
  });
  return html`<ul id="lessons" data-testid="lessons">
    ${items.length ? items : html`<li class="muted">none</li>`}
  </ul>`;
}

/** How sure the proposal is: the night's paired comparison in words, and the tasks that got worse. */
export function liftHtml(r: NightReport | null): Html {
  if (!r) return html``;
  const l = r.lift;
  const sure = l
    ? html`<p id="lift" data-testid="lift" data-split="${l.split}">
        how sure, ${liftWhere(l)}: <strong>${liftSentence(l)}</strong>
        <span class="muted"
          >(better on ${l.improved.length}, worse on ${l.regressed.length}; bootstrap seed ${l.seed})</span
        >
        ${l.notes.map((n) => html`<br /><span class="muted">${n}</span>`)}
      </p>`
    : html`<p class="muted" id="lift" data-testid="lift">No paired comparison in this night's report.</p>`;
  const worse = r.regressed_tasks.map(
    (t) =>
      html`<li data-testid="regressed-task" data-task="${t.task_id}">
        <strong>${taskName(t.task_id, t.tags)}</strong>
        (${t.split === 'test' ? 'held-out test' : 'validation'}): ${score(t.before)} → ${score(t.after)}
        <br />before: <q class="sentence">${t.answer_before}</q> <br />after:
        <q class="sentence">${t.answer_after}</q>
      </li>`,
  );
  return html`${sure}
  ${
    worse.length
      ? html`<h2>Tasks that got worse</h2>
          <ul id="regressed-tasks" data-testid="regressed-tasks">
            ${worse}
          </ul>`
      : ''
  }`;
}

/** The proposal view's content, for the page and the static report. */
export function proposalBody(v: ProposalView, o: RenderOptions & { result?: ActionResult }): Html {
  const s = v.summary;
  const r = v.report;
  const targets = s.targets.map(
    (t) =>
      html`<li data-testid="target">
        ${targetWord(s.status, t)} ${t.kind} <code>${t.name}</code>: ${t.livePath}
      </li>`,
  );
  const edits = (r?.edits ?? []).map(
    (e) =>
      html`<li data-testid="edit">
        [${e.target}/${e.op}]
        ${e.op !== 'add' && e.anchor !== '' ? html`<q>${e.anchor}</q>${e.op === 'replace' ? ' → ' : ''}` : ''}${e.content}<br /><span
          class="muted"
          >why: ${e.rationale}</span
        >
      </li>`,
  );
  const rejected = (r?.rejected_edits ?? []).map(
    (e) =>
      html`<li data-testid="rejected-edit">
        [${e.target}/${e.op}] ${e.content} — <strong>${e.reason}</strong> (Δ ${e.delta.toFixed(3)})
      </li>`,
  );
  const deltas = (r?.task_deltas ?? []).map(
    (d) =>
      html`<tr data-testid="task-delta">
        <td>${taskName(d.task_id, d.tags)}</td>
        <td>${score(d.baseline_score)}</td>
        <td>${score(d.candidate_score)}</td>
        <td>${d.status}</td>
      </tr>`,
  );
  const provenance = v.provenance.map(
    (p) =>
      html`<li data-testid="provenance-item">
        <strong>${p.task_label}</strong> — ${p.kind}: <code>${p.detail}</code><br />
        “<span class="sentence">${p.sentence}</span>”
        <span class="muted"
          >(${p.session}${p.session_started_at !== null ? html`, ${timeHtml(p.session_started_at, o.now)}` : ''})</span
        >
      </li>`,
  );
  const body = html`<h1>Proposal <code id="proposal-id">${s.id}</code></h1>
    <p id="proposal-status" data-testid="proposal-status" data-status="${s.status}">
      ${statusBadge(s)} · night ${s.night} · staged ${timeHtml(s.createdAt, o.now)}${statusTimes(s, o)} ·
      project ${link(`/project?${query({ dir: v.project })}`, v.project, o)}
    </p>
    ${resultBox(o.result)} ${actionForms(v, o)}
    <ul id="targets">
      ${targets}
    </ul>
    ${
      r
        ? html`<p id="scores" data-testid="scores">
            validation (${r.gate_metric || 'gate metric'}): ${score(r.baseline)} → ${score(r.candidate)} ·
            gate:
            <strong>${gateWords(r.gate_action)}</strong>
          </p>`
        : html`<p class="muted" id="report-unreadable">report.json is not of a shape this version reads.</p>`
    }
    ${liftHtml(r)} ${skillPackagesHtml(r)}
    <h2>Edits</h2>
    <ul id="edits" data-testid="edits">
      ${edits.length ? edits : html`<li class="muted">none</li>`}
    </ul>
    <h2>Where the rules came from</h2>
    <ul id="provenance" data-testid="provenance">
      ${provenance.length ? provenance : html`<li class="muted">no corrections recorded</li>`}
    </ul>
    ${
      r
        ? html`<h2>Lessons: what you taught the agent</h2>
            ${lessonsHtml(r.lessons)}`
        : ''
    }
    <h2>Validation tasks</h2>
    <table id="task-deltas" data-testid="task-deltas">
      <thead>
        <tr>
          <th>Task</th>
          <th>Baseline</th>
          <th>Candidate</th>
          <th>Change</th>
        </tr>
      </thead>
      <tbody>
        ${deltas}
      </tbody>
    </table>
    <h2>Rejected by the gate</h2>
    <ul id="rejected-edits" data-testid="rejected-edits">
      ${rejected.length ? rejected : html`<li class="muted">none</li>`}
    </ul>
    <h2>Diff</h2>
    ${diffHtml(v.diff)}`;
  return body;
}

export function renderProposalPage(v: ProposalView, o: RenderOptions & { result?: ActionResult }): string {
  return page(`Proposal ${v.summary.id}`, proposalBody(v, o), o);
}
