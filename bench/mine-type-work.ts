/** The first reply per task type id (the ids of bench/mine-corpus.ts), from its two halves. */
import { FIRST_TYPE_WORK } from './mine-type-work-first.js';
import { REST_TYPE_WORK } from './mine-type-work-rest.js';
import type { TypeWork } from './mine-work.js';

export type { TypeWork };

export const TYPE_WORK: Readonly<Record<string, TypeWork>> = { ...FIRST_TYPE_WORK, ...REST_TYPE_WORK };
