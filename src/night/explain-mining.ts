/**
 * The model passes of mining as `run --explain-sends` lists them, per kind of task: the LLM miner's
 * digest (`llm_mine`: mine-tasks), and with `llm_refine` the requests of sessions not labelled before
 * (label-sessions) and the corrections the offline miner could not check (rule-from-correction). Built
 * from the same digest and prompt variables the passes send. The kinds are the offline ones: in a real
 * night the labelling runs first and may merge kinds, so the miner's digests can group differently.
 */
import { proposeTasksVars } from '../backends/llm/llm-backend.js';
import { sha256Hex } from '../core/hash.js';
import type { Config } from '../config/schema.js';
import { clusterDigest, sessionFollowUps, worthAsking } from '../miner/llm-miner.js';
import { labelText } from '../miner/model/label-sessions.js';
import { MAX_TRIPLES_PER_NIGHT, triplesToAsk, tripleVars } from '../miner/model/rules-from-triples.js';
import type { SessionLabelStore } from '../core/session-labels.js';
import { varsAsTexts, type KindSends, type RoleSends } from './explain-sends.js';
import type { MinedProject } from './mine-project.js';

/** The mine-tasks prompt's variables and the stored texts they carry. */
const MINE_FIELDS: Readonly<Record<string, string | null>> = {
  project: "project folder's name",
  intents: 'intents (wordings, newest first)',
  corrections: 'corrections',
  follow_ups: 'follow-ups after the first answer',
  last_answer: "attempted_solution (the agent's latest first answer)",
  outcomes: 'outcome counts',
};

const TRIPLE_FIELDS: Readonly<Record<string, string | null>> = {
  kind: 'kind label',
  correction: 'correction',
  rejected: 'the answer the user corrected',
  accepted: 'the answer the user accepted',
};

export interface MiningSendsInput {
  mined: MinedProject;
  project: string;
  config: Config;
  /** Labels stored by earlier nights: a session labelled before is not sent again. */
  labels: SessionLabelStore;
}

/** What the model passes of mining would send, by kind; [] when `llm_mine` is off. */
export function explainMining(input: MiningSendsInput): KindSends[] {
  const { mined, config } = input;
  if (!config.llm_mine) return [];
  const sessions = new Map(mined.sessionsWithTurns().map((s) => [s.key, s]));
  const refine = config.llm_refine;
  const triples = refine ? triplesToAsk(mined.clusters).slice(0, MAX_TRIPLES_PER_NIGHT) : [];
  return mined.clusters
    .map((cluster) => {
      const instances = mined.instances.filter((t) => t.derived_from === cluster.id);
      const sends: RoleSends[] = [];
      if (refine) {
        const requests = instances.flatMap((t) => {
          const key = t.source_sessions[0];
          const text = labelText(t.intent);
          if (key === undefined || text === '' || input.labels.get(key, sha256Hex(text)) !== undefined)
            return [];
          return [{ field: 'request (cut to 300 characters, numbered)', chars: text.length, text }];
        });
        if (requests.length > 0)
          sends.push({
            role: 'miner',
            prompt: 'label-sessions',
            to: 'optimizer',
            when: 'once per session (a stored label is reused)',
            texts: requests,
            model_parts: [],
          });
        for (const t of triples.filter((x) => x.cluster === cluster))
          sends.push({
            role: 'miner',
            prompt: 'rule-from-correction',
            to: 'optimizer',
            when: 'once per correction the offline miner could not check',
            texts: varsAsTexts(tripleVars(t.cluster, t.report), TRIPLE_FIELDS),
            model_parts: [],
          });
      }
      if (worthAsking(cluster)) {
        const digest = clusterDigest(
          input.project,
          cluster,
          instances,
          sessionFollowUps(instances, sessions),
        );
        sends.push({
          role: 'miner',
          prompt: 'mine-tasks',
          to: 'optimizer',
          when: 'once per night for a recurring or corrected kind (the reply is cached)',
          texts: varsAsTexts(proposeTasksVars(digest), MINE_FIELDS),
          model_parts: [],
        });
      }
      return { id: cluster.id, label: cluster.label, sends };
    })
    .filter((k) => k.sends.length > 0);
}
