/**
 * Which memory file each of a night's tasks teaches: the file of the agent whose sessions taught the
 * task's lessons (their evidence), or `AGENTS.md` when agents whose files differ taught them. A task
 * no lesson judges counts its own sessions' agents. So one night may write `CLAUDE.md` for what Claude
 * Code needed, Cursor's rules for what Cursor needed, and `AGENTS.md` for what both did.
 */
import type { TaskRecord } from '../core/task.js';
import { SHARED_MEMORY_FILE, memoryFileOf, sourceOfSession, MEMORY_SOURCES } from './memory-files.js';

/** What routing needs of a lesson: its id and the sessions it was said in. */
export interface RoutedLesson {
  id: string;
  evidence: ReadonlyArray<{ session: string }>;
}

export interface MemoryRoute {
  /** Relative to the project. */
  file: string;
  /** The agent whose lessons these are, or 'shared' when several agents taught them. */
  chosenBy: string;
  tasks: TaskRecord[];
}

const LESSON_TAG = 'lesson:';

/** The agents (sources with a memory file) that taught what judges `task`. */
export function taskAgents(task: TaskRecord, lessons: ReadonlyMap<string, RoutedLesson>): Set<string> {
  const sessions = task.tags
    .filter((tag) => tag.startsWith(LESSON_TAG))
    .flatMap((tag) => lessons.get(tag.slice(LESSON_TAG.length))?.evidence.map((e) => e.session) ?? []);
  const keys = sessions.length > 0 ? sessions : task.source_sessions;
  return new Set(keys.map(sourceOfSession).filter((source) => memoryFileOf(source) !== null));
}

/**
 * The night's tasks by memory file, the file with most tasks first (ties in the table's order).
 * `fallback` is the agent of tasks whose sessions name none (a tasks file).
 */
export function memoryRoutes(
  tasks: readonly TaskRecord[],
  lessons: readonly RoutedLesson[],
  fallback: string,
): MemoryRoute[] {
  const byId = new Map(lessons.map((l) => [l.id, l]));
  const routes = new Map<string, MemoryRoute>();
  for (const task of tasks) {
    const agents = [...taskAgents(task, byId)];
    const files = new Set(agents.map((a) => memoryFileOf(a)));
    const [only] = agents;
    const route =
      files.size > 1
        ? { file: SHARED_MEMORY_FILE, chosenBy: 'shared' }
        : only !== undefined
          ? { file: memoryFileOf(only) ?? SHARED_MEMORY_FILE, chosenBy: agents.length > 1 ? 'shared' : only }
          : { file: memoryFileOf(fallback) ?? SHARED_MEMORY_FILE, chosenBy: fallback };
    const known = routes.get(route.file);
    if (known) {
      known.tasks.push(task);
      if (known.chosenBy !== route.chosenBy) known.chosenBy = 'shared';
    } else routes.set(route.file, { ...route, tasks: [task] });
  }
  const order = (r: MemoryRoute): number => {
    const i = MEMORY_SOURCES.findIndex((s) => memoryFileOf(s) === r.file);
    return i === -1 ? MEMORY_SOURCES.length : i;
  };
  return [...routes.values()].sort((a, b) => b.tasks.length - a.tasks.length || order(a) - order(b));
}
