/**
 * Tasks a team shares through its repository: what `export --tasks` keeps of a project's mined tasks,
 * and the union of several people's exports that `run --tasks-from` trains on.
 */
import { sha256Hex } from '../core/hash.js';
import { mapStrings, storedText } from '../core/safe-text.js';
import type { TaskRecord } from '../core/task.js';
import { isReplayable } from './no-request.js';

/** The folders an export writes relatively: the project (as `.`) and the user's home (as `~`). */
export interface LocalPaths {
  project: string;
  home: string;
}

/**
 * The tasks of the recurring kinds, without what only names this machine: the project's absolute
 * path (it holds the user's name; in texts it becomes `.`, the home `~`) and the agents' session ids
 * (links to local transcripts, of no use to a teammate). Every text goes through `storedText` again
 * (idempotent), so the user's redact_patterns of today apply too.
 */
export function teamExportTasks(
  tasks: readonly TaskRecord[],
  recurringKinds: ReadonlySet<string>,
  local: LocalPaths,
): TaskRecord[] {
  const clean = (text: string): string => storedText(relativeToMachine(text, local));
  return tasks
    .filter((task) => recurringKinds.has(task.derived_from) && isReplayable(task))
    .map(({ trace_sessions: _traces, ...task }) =>
      mapStrings({ ...task, project: '', source_sessions: [] }, clean),
    );
}

/** The text with the project's and the home's absolute paths written relatively. */
function relativeToMachine(text: string, { project, home }: LocalPaths): string {
  // The project first: it is usually inside the home. A root folder is too short to replace safely.
  return [
    [project, '.'],
    [home, '~'],
  ].reduce(
    (out, [folder = '', short = '']) => (folder.length > 1 ? out.replace(wholeFolder(folder), short) : out),
    text,
  );
}

/** The folder as a whole path: `/home/al` is not replaced inside `/home/alice`. */
const wholeFolder = (folder: string): RegExp =>
  new RegExp(`${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g');

/** One person's tasks file as read. */
export interface TeamTasksFile {
  file: string;
  tasks: readonly TaskRecord[];
}

export interface TeamUnion {
  tasks: TaskRecord[];
  /** Tasks left out because an earlier file held the same content. */
  duplicates: number;
  /** Tasks whose id another file used for a different task, given an id of their content. */
  renamed: number;
}

/** Which fields make two tasks the same task: all but the id and where it was mined or split. */
function contentKey(task: TaskRecord): string {
  const {
    id: _id,
    split: _split,
    project: _project,
    source_sessions: _sessions,
    trace_sessions: _traces,
    ...content
  } = task;
  return sha256Hex(sortedJson(content));
}

/** JSON with object keys sorted, so the same content hashes the same whatever wrote the file. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The union of several tasks files, in file order: a task whose content an earlier file already
 * holds counts once (two people who mined the same task), and when one id names different tasks in
 * different files, every one of them gets `<id>~<content hash>`, so the new ids depend on the
 * contents, never on the order the files were read.
 */
export function unionTeamTasks(files: readonly TeamTasksFile[]): TeamUnion {
  const seen = new Set<string>();
  const unique: Array<{ task: TaskRecord; key: string }> = [];
  let duplicates = 0;
  for (const { tasks } of files) {
    for (const task of tasks) {
      const key = contentKey(task);
      if (seen.has(key)) {
        duplicates++;
        continue;
      }
      seen.add(key);
      unique.push({ task, key });
    }
  }
  const contentsById = new Map<string, number>();
  for (const { task } of unique) contentsById.set(task.id, (contentsById.get(task.id) ?? 0) + 1);
  const taken = new Set(unique.map(({ task }) => task.id));
  let renamed = 0;
  const tasks = unique.map(({ task, key }) => {
    if ((contentsById.get(task.id) ?? 0) < 2) return task;
    renamed++;
    return { ...task, id: freshId(task.id, key, taken) };
  });
  return { tasks, duplicates, renamed };
}

/** `<id>~<hash>`, as short as keeps it unique among the ids in use. */
function freshId(id: string, key: string, taken: Set<string>): string {
  for (let length = 8; length < key.length; length += 4) {
    const candidate = `${id}~${key.slice(0, length)}`;
    if (!taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
  const last = `${id}~${key}`;
  taken.add(last);
  return last;
}
