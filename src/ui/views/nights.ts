/** A project's nights (chart + table) and a `train` run's history, as the same kind of chart. */
import { skillSizesHtml } from './skill-packages.js';
import type { ProposalSummary } from '../../../proposals/index.js';
import { html, jsonForScript, score, type Html, rowsOrEmpty } from '../html.js';
import type { NightPoint, ProjectNights, TrainHistory } from '../data.js';
import { nightSearchText, rowMatches, type RowFilter } from '../filter.js';
import { axisRange, gateWords, plural, timeHtml } from '../format.js';
import { statusWords } from '../proposal-state.js';
import { link, page, query, type RenderOptions } from './layout.js';

/** The series a chart draws: `a` and `b` per point (validation score before and after). */
export interface ChartSeries {
  x_label: string;
  /** x is a time in ms (shown as a date). */
  time: boolean;
  labels: [string, string];
  points: Array<{ x: number; a: number | null; b: number | null }>;
  /** The x axis's range: the points with room around them (null: no points). */
  x_range: [number, number] | null;
}

/** One point per night: x = its start time, the validation baseline and candidate. */
export function nightsSeries(data: Pick<ProjectNights, 'nights'>): ChartSeries & { nights: number[] } {
  const points = data.nights.map((n) => ({ x: n.started_at, a: n.baseline, b: n.candidate }));
  return {
    x_label: 'night start',
    time: true,
    labels: ['validation baseline', 'validation candidate'],
    points,
    x_range: axisRange(
      points.map((p) => p.x),
      true,
    ),
    nights: data.nights.map((n) => n.id),
  };
}

export function trainSeries(data: TrainHistory): ChartSeries {
  const points = data.points.map((p) => ({ x: p.step, a: p.val_before, b: p.val_after }));
  return {
    x_label: 'step',
    time: false,
    labels: ['validation before', 'validation after'],
    points,
    x_range: axisRange(
      points.map((p) => p.x),
      false,
    ),
  };
}

/** The chart container and its data element (`id`, a test reads the exact values from it). */
export function chart(dataId: string, series: ChartSeries): Html {
  return html`<div id="chart" data-testid="chart" data-chart="${dataId}"></div>
    <script type="application/json" id="${dataId}">
      ${jsonForScript(series)}
    </script>`;
}

/** Points without both scores, said plainly: the chart's lines join across them rather than break. */
export function unscoredNote(points: ChartSeries['points'], unit: string): string {
  const n = points.filter((p) => p.a === null || p.b === null).length;
  if (n === 0) return '';
  return `${n === 1 ? `1 ${unit} has` : `${n} ${unit}s have`} no validation score (— below); the chart joins the points around ${n === 1 ? 'it' : 'them'}.`;
}

/** A proposal's status as a coloured word (with a rejection's reason). */
export function statusBadge(p: ProposalSummary): Html {
  return html`<span
    class="status status-${p.status}"
    data-testid="proposal-status-word"
    data-status="${p.status}"
    >${statusWords(p)}</span
  >`;
}

function nightRow(
  n: NightPoint,
  p: ProposalSummary | undefined,
  data: ProjectNights,
  o: RenderOptions,
): Html {
  return html`<tr data-testid="night-row" data-night="${n.id}">
    <td>${timeHtml(n.started_at, o.now)}</td>
    <td>${n.status}</td>
    <td>${score(n.baseline)} → ${score(n.candidate)}</td>
    <td data-testid="gate">${gateWords(n.gate_action)}</td>
    <td>$${n.cost_usd.toFixed(4)}</td>
    <td>${n.calls}</td>
    <td>${n.tokens}</td>
    <td>${n.cache_hits}</td>
    <td>${n.stopped || '—'}${n.error ? html` <span class="muted">error: ${n.error}</span>` : ''}</td>
    <td>
      ${
        n.proposal_id
          ? html`${link(`/proposal?${query({ dir: data.project, id: n.proposal_id })}`, n.proposal_id, o)}
            ${p ? statusBadge(p) : html`<span class="muted">(not found)</span>`}`
          : '—'
      }
    </td>
  </tr>`;
}

/** The nights view's content (chart and table), for the page and the static report. */
export function nightsBody(data: ProjectNights, o: RenderOptions, filter?: RowFilter): Html {
  const byId = new Map(data.proposals.map((p) => [p.id, p]));
  const shown = [...data.nights].reverse().filter((n) => {
    const p = byId.get(n.proposal_id);
    return !filter || rowMatches(nightSearchText(n, p), p?.status ?? 'none', filter);
  });
  const rows = shown.map((n) => nightRow(n, byId.get(n.proposal_id), data, o));
  const count =
    shown.length === data.nights.length
      ? plural(data.nights.length, 'night')
      : `${shown.length} of ${plural(data.nights.length, 'night')} match the filter`;
  const series = nightsSeries(data);
  return html`<p class="muted" id="nights-count">
      ${count}; validation score before (baseline) and after (candidate).
      ${unscoredNote(series.points, 'night')}
    </p>
    ${chart('nights-data', series)}
    <table id="nights-table" data-testid="nights-table">
      <thead>
        <tr>
          <th>Started</th>
          <th>Status</th>
          <th>Validation</th>
          <th>Gate</th>
          <th>Cost</th>
          <th>Calls</th>
          <th>Tokens</th>
          <th>Cache hits</th>
          <th>Stopped</th>
          <th>Proposal</th>
        </tr>
      </thead>
      <tbody>
        ${rowsOrEmpty(rows, 10, data.nights.length ? 'no night matches' : 'no nights yet')}
      </tbody>
    </table>
    ${skillSizesHtml(data.skillSizes)}`;
}

/** The heading the nights view starts with (the static report's; the page adds its filter). */
export const nightsHeading = (data: ProjectNights): Html =>
  html`<h1>Nights of <code id="project-dir">${data.project}</code></h1>`;

export function renderTrainPage(data: TrainHistory, o: RenderOptions): string {
  const rows = data.points.map(
    (p) =>
      html`<tr data-testid="train-row">
        <td>${p.step}</td>
        <td>${p.epoch}</td>
        <td>${p.kind}</td>
        <td>${score(p.val_before)} → ${score(p.val_after)}</td>
        <td>${gateWords(p.gate)}</td>
        <td>${p.accepted ? 'yes' : 'no'}</td>
      </tr>`,
  );
  const series = trainSeries(data);
  const bad =
    data.bad_lines === 1
      ? '1 line of history.jsonl was not a step record.'
      : `${data.bad_lines} lines of history.jsonl were not step records.`;
  const body = html`${data.bad_lines > 0 ? html`<p class="muted" id="bad-lines">${bad}</p>` : ''}
    <p class="muted" id="steps-count">
      ${plural(data.points.length, 'step')}. ${unscoredNote(series.points, 'step')}
    </p>
    ${chart('train-data', series)}
    <table id="train-table" data-testid="train-table">
      <thead>
        <tr>
          <th>Step</th>
          <th>Epoch</th>
          <th>Kind</th>
          <th>Validation</th>
          <th>Gate</th>
          <th>Accepted</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`;
  return page(
    `Train: ${data.dir}`,
    body,
    o,
    true,
    html`<h1>Training run <code id="train-dir">${data.dir}</code></h1>`,
  );
}
