/**
 * The bundled demo: a small project and Claude Code transcripts written for it, whose sessions repeat
 * three tasks and carry the user's corrections. It never touches the user's cwd: `run --demo` keeps its
 * copy under the state home (so `adopt --demo` can apply it), `dry-run --demo` uses a temporary copy.
 */
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { systemTempDir, templatesDir } from '../config/paths.js';

/** The cwd the demo transcripts were recorded in. */
export const DEMO_RECORDED_CWD = '/home/dev/acme-web';

export interface DemoSetup {
  project: string;
  harvestEnv: Record<string, string>;
  mapCwd: (cwd: string) => string;
  /** Removes a temporary copy (no-op for the persistent one). */
  cleanup: () => void;
}

export const demoProjectDir = (home: string): string => path.join(home, 'demo', 'acme-web');

export function prepareDemo(home: string, persistent: boolean): DemoSetup {
  const source = path.join(templatesDir(), 'demo', 'project');
  let project: string;
  let cleanup = (): void => {};
  if (persistent) {
    project = demoProjectDir(home);
    if (!existsSync(project)) cpSync(source, project, { recursive: true });
  } else {
    const tmp = mkdtempSync(path.join(systemTempDir(), 'skillopt-sleep-demo-'));
    project = path.join(tmp, 'acme-web');
    cpSync(source, project, { recursive: true });
    cleanup = () => rmSync(tmp, { recursive: true, force: true });
  }
  // The store compares resolved paths (a temp folder may sit behind a symlink, as on macOS).
  project = realpathSync(project);
  return {
    project,
    harvestEnv: { CLAUDE_CONFIG_DIR: path.join(templatesDir(), 'demo', 'claude') },
    mapCwd: (cwd) =>
      cwd === DEMO_RECORDED_CWD || cwd.startsWith(`${DEMO_RECORDED_CWD}/`)
        ? project + cwd.slice(DEMO_RECORDED_CWD.length)
        : cwd,
    cleanup,
  };
}
