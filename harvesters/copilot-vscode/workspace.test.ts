import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeWorkspaceFolder, parseJsonc, uriToPath, workspaceProject } from './workspace.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'copilot-workspace-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('uriToPath', () => {
  it('decodes file URIs', () => {
    expect(uriToPath('file:///tmp/copilot%20project')).toBe('/tmp/copilot project');
    expect(uriToPath('file:///home/u/caf%C3%A9#frag')).toBe('/home/u/café');
    expect(uriToPath('FILE:///x')).toBe('/x');
    expect(uriToPath('file://localhost/srv/app')).toBe('/srv/app');
  });

  it('drops the slash before a drive letter and keeps a host as //host', () => {
    expect(uriToPath('file:///c%3A/Users/me/app')).toBe('c:/Users/me/app');
    expect(uriToPath('file:///D:/work')).toBe('D:/work');
    expect(uriToPath('file://server/share/app')).toBe('//server/share/app');
  });

  it('reads serialized URI objects', () => {
    expect(uriToPath({ $mid: 1, scheme: 'file', path: '/srv/app' })).toBe('/srv/app');
    expect(uriToPath({ scheme: 'file', path: '/c:/w', external: 'file:///c%3A/w' })).toBe('c:/w');
    expect(uriToPath({ scheme: 'vscode-remote', authority: 'ssh-remote+box', path: '/home/u' })).toBe('');
  });

  it('gives no path for other schemes and malformed input', () => {
    expect(uriToPath('vscode-remote://ssh-remote%2Bbox/home/u/app')).toBe('');
    expect(uriToPath('vscode-vfs://github/owner/repo')).toBe('');
    expect(uriToPath('file:///bad%E0%A4%A')).toBe('');
    expect(uriToPath('file://')).toBe('');
    expect(uriToPath(42)).toBe('');
    expect(uriToPath(undefined)).toBe('');
  });
});

describe('parseJsonc', () => {
  it('accepts comments and trailing commas but leaves strings alone', () => {
    const text = '\uFEFF// head\n{ /* a */ "a": "x // not a comment", "b": [1, 2,], "c": ",}", }';
    expect(parseJsonc(text)).toEqual({ a: 'x // not a comment', b: [1, 2], c: ',}' });
    expect(parseJsonc('{"q": "say \\"hi\\", //"}')).toEqual({ q: 'say "hi", //' });
  });

  it('still rejects what is not JSON', () => {
    expect(() => parseJsonc('{ "a": ')).toThrow();
  });
});

describe('workspaceProject', () => {
  it('reads a folder workspace', async () => {
    const file = write('ws/workspace.json', '{"folder":"file:///tmp/copilot%20project"}');
    expect(await workspaceProject(file)).toBe('/tmp/copilot project');
  });

  it('gives no project for a missing, invalid, remote or folderless workspace.json', async () => {
    expect(await workspaceProject(path.join(tmp, 'missing.json'))).toBe('');
    expect(await workspaceProject(write('bad.json', '{"folder":'))).toBe('');
    expect(
      await workspaceProject(write('remote.json', '{"folder":"vscode-remote://wsl%2Bubuntu/home/u"}')),
    ).toBe('');
    expect(await workspaceProject(write('none.json', '{}'))).toBe('');
  });

  it('resolves a .code-workspace file to its first folder, relative to the file', async () => {
    const workspaceFile = write(
      'repos/team.code-workspace',
      '{\n  // folders\n  "folders": [{ "path": "../app" }, { "path": "lib" },],\n}\n',
    );
    const file = write('ws/workspace.json', JSON.stringify({ workspace: pathToFileURL(workspaceFile).href }));
    expect(await workspaceProject(file)).toBe(path.join(tmp, 'app'));
  });

  it('reads the older `configuration` key and folder URIs', async () => {
    const workspaceFile = write('multi.code-workspace', '{"folders":[{"uri":"file:///srv/first"}]}');
    const file = write(
      'ws/workspace.json',
      JSON.stringify({ configuration: { external: pathToFileURL(workspaceFile).href } }),
    );
    expect(await workspaceProject(file)).toBe('/srv/first');
  });

  it('falls back to the folder holding the workspace file', async () => {
    expect(await codeWorkspaceFolder(path.join(tmp, 'gone', 'x.code-workspace'))).toBe(
      path.join(tmp, 'gone'),
    );
    const noFolders = write('empty.code-workspace', '{"folders": []}');
    expect(await codeWorkspaceFolder(noFolders)).toBe(tmp);
    const remoteOnly = write('remote.code-workspace', '{"folders": [{"uri": "vscode-remote://x/y"}]}');
    expect(await codeWorkspaceFolder(remoteOnly)).toBe(tmp);
  });

  it('keeps an absolute first folder as it is', async () => {
    const workspaceFile = write('abs.code-workspace', '{"folders": [{"path": "/srv/abs"}]}');
    expect(await codeWorkspaceFolder(workspaceFile)).toBe('/srv/abs');
  });
});
