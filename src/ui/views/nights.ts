/** A project's nights (chart + table) and a `train` run's history, as the same kind of chart. */
import { html, isoTime, jsonForScript, score, type Html } from '../html.js';
import type { ProjectNights, TrainHistory } from '../data.js';
import { link, page, query, type RenderOptions } from './layout.js';

/** The series a chart draws: `a` and `b` per point (validation score before and after). */
export interface ChartSeries {
  x_label: string;
  /** x is a time in ms (shown as a date). */
  time: boolean;
  labels: [string, string];
  points: Array<{ x: number; a: number | null; b: number | null }>;
}

/** One point per night: x = its start time, the validation baseline and candidate. */
export function nightsSeries(data: ProjectNights): ChartSeries & { nights: number[] } {
  return {
    x_label: 'night start',
    time: true,
    labels: ['validation baseline', 'validation candidate'],
    points: data.nights.map((n) => ({ x: n.started_at, a: n.baseline, b: n.candidate })),
    nights: data.nights.map((n) => n.id),
  };
}

export function trainSeries(data: TrainHistory): ChartSeries {
  return {
    x_label: 'step',
    time: false,
    labels: ['validation before', 'validation after'],
    points: data.points.map((p) => ({ x: p.step, a: p.val_before, b: p.val_after })),
  };
}

/** The chart container and its data element (`id`, a test reads the exact values from it). */
export function chart(dataId: string, series: ChartSeries): Html {
  return html`<div id="chart" data-testid="chart" data-chart="${dataId}"></div>
    <script type="application/json" id="${dataId}">
      ${jsonForScript(series)}
    </script>`;
}

/** The nights view's content (chart and table), for the page and the static report. */
export function nightsBody(data: ProjectNights, o: RenderOptions): Html {
  const rows = [...data.nights].reverse().map(
    (n) =>
      html`<tr data-testid="night-row" data-night="${n.id}">
        <td>${isoTime(n.started_at)}</td>
        <td>${n.status}</td>
        <td>${score(n.baseline)} → ${score(n.candidate)}</td>
        <td>${n.gate_action || '—'}</td>
        <td>$${n.cost_usd.toFixed(4)}</td>
        <td>${n.calls}</td>
        <td>${n.tokens}</td>
        <td>${n.cache_hits}</td>
        <td>${n.stopped || '—'}${n.error ? html` <span class="muted">error: ${n.error}</span>` : ''}</td>
        <td>
          ${
            n.proposal_id
              ? link(`/proposal?${query({ dir: data.project, id: n.proposal_id })}`, n.proposal_id, o)
              : '—'
          }
        </td>
      </tr>`,
  );
  const body = html`<h1>Nights of <code id="project-dir">${data.project}</code></h1>
    <p class="muted">
      ${data.nights.length} nights; validation score before (baseline) and after (candidate).
    </p>
    ${chart('nights-data', nightsSeries(data))}
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
        ${rows}
      </tbody>
    </table>`;
  return body;
}

export function renderProjectNightsPage(data: ProjectNights, o: RenderOptions): string {
  return page(`Nights: ${data.project}`, nightsBody(data, o), o, true);
}

export function renderTrainPage(data: TrainHistory, o: RenderOptions): string {
  const rows = data.points.map(
    (p) =>
      html`<tr data-testid="train-row">
        <td>${p.step}</td>
        <td>${p.epoch}</td>
        <td>${p.kind}</td>
        <td>${score(p.val_before)} → ${score(p.val_after)}</td>
        <td>${p.gate}</td>
        <td>${p.accepted ? 'yes' : 'no'}</td>
      </tr>`,
  );
  const body = html`<h1>Training run <code id="train-dir">${data.dir}</code></h1>
    ${data.bad_lines > 0 ? html`<p class="muted">${data.bad_lines} lines of history.jsonl were not step records.</p>` : ''}
    ${chart('train-data', trainSeries(data))}
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
  return page(`Train: ${data.dir}`, body, o, true);
}
