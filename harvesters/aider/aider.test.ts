import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IoError } from '../../src/core/errors.js';
import type { HarvestedSession, SourceFile, ToolAction } from '../../src/core/session.js';
import { aider, aiderSessionId } from './aider.js';
import { AIDER_FOLDERS_ENV } from './locations.js';
import { act } from '../shared/test-helpers.js';

const FIXTURE = path.resolve(import.meta.dirname, '../../test/fixtures/aider/shop');
const HISTORY = '.aider.chat.history.md';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'aider-harvest-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function sourceFile(filePath: string): SourceFile {
  const st = statSync(filePath);
  return { source: 'aider', path: filePath, size: st.size, mtimeMs: st.mtimeMs, inode: st.ino };
}

/** The fixture project copied to `<tmp>/shop`; returns its history file. */
function copyFixture(): string {
  const project = path.join(tmp, 'shop');
  cpSync(FIXTURE, project, { recursive: true });
  return path.join(project, HISTORY);
}

/** Byte offset where `needle` starts in the file. */
function offsetOf(file: string, needle: string): number {
  const at = readFileSync(file).indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in ${file}`);
  return at;
}

const local = (y: number, mo: number, d: number, h: number, mi: number, s = 0, ms = 0): number =>
  new Date(y, mo - 1, d, h, mi, s, ms).getTime();

/** Every session of the fixture as the parse must give it, in file order. */
function expectedSessions(file: string): Array<Omit<HarvestedSession, 'turns'> & { turns: unknown[] }> {
  const header = (stamp: string) => offsetOf(file, `# aider chat started at ${stamp}`);
  const base = (stamp: string) => ({
    source: 'aider' as const,
    sessionId: aiderSessionId(file, header(stamp)),
    cwd: path.dirname(file),
    branch: '',
    skillsUsed: [],
    sourcePath: file,
  });
  const turn = (role: 'user' | 'assistant', text: string, at: string, extra: object = {}) => ({
    role,
    text,
    ts: null,
    toolNames: [],
    actions: [],
    toolErrors: 0,
    interrupted: false,
    offset: offsetOf(file, at),
    ...extra,
  });
  const withActions = (actions: ToolAction[]) => ({ actions, toolNames: actions.map((a) => a.tool) });
  const slugify1 = act(
    'edit',
    'search_replace',
    'src/slugify.py',
    'import re\nimport unicodedata',
    'import re',
  );
  const slugify2 = act(
    'edit',
    'search_replace',
    'src/slugify.py',
    'def slugify(text):\n    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()\n    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")',
    'def slugify(text):\n    return re.sub(r"[^a-z0-9]+", "-", text.lower())',
  );
  const reply1 =
    readFileSync(FIXTURE + '/' + HISTORY, 'utf8')
      .split('\n\n#### make slugify strip accents  \n#### and collapse repeated dashes  \n\n')[1]
      ?.split('\n\n> Tokens: 3.1k')[0] ?? 'reply 1 not found in the fixture';
  const architect =
    'Store the insertion time with each entry in `PriceCache.put` and drop entries older than 600 seconds in `PriceCache.get`.';
  return [
    {
      ...base('2026-03-02 09:15:04'),
      model: 'anthropic/claude-sonnet-4-20250514',
      sourceVersion: '0.86.1',
      startedAt: local(2026, 3, 2, 9, 15, 4),
      endedAt: local(2026, 3, 2, 9, 22, 5),
      toolsUsed: ['/add', 'search_replace', 'shell', '/run', '!', '/drop'],
      filesTouched: ['src/slugify.py', 'tests/test_slugify.py'],
      turns: [
        turn('user', 'make slugify strip accents\nand collapse repeated dashes', '#### make slugify', {
          ts: local(2026, 3, 2, 9, 16, 2, 500),
        }),
        turn('assistant', reply1, "I'll normalise accents", {
          ...withActions([
            act('read', '/add', 'src/slugify.py'),
            act('read', '/add', 'tests/test_slugify.py'),
            slugify1,
            slugify2,
            act('run', 'shell', 'pytest -q tests/test_slugify.py'),
          ]),
        }),
        turn('user', 'the test for "Ünïcode" still fails, fix it', '#### the test for', {
          ts: local(2026, 3, 2, 9, 19, 45, 250),
        }),
        turn(
          'assistant',
          expect.stringMatching(/^The test expected a trailing dash;[\s\S]*REPLACE\n```$/),
          'The test expected',
          {
            ...withActions([
              act(
                'edit',
                'search_replace',
                'tests/test_slugify.py',
                '    assert slugify("Ünïcode") == "unicode"',
                '    assert slugify("Ünïcode") == "unicode-"',
              ),
            ]),
          },
        ),
        // Commands with no reply after them: a turn of their own, at the first of them.
        turn('assistant', '', '#### /run pytest -q', {
          ...withActions([
            act('run', '/run', 'pytest -q'),
            act('run', '!', 'git status --short'),
            act('other', '/drop'),
          ]),
        }),
      ],
    },
    {
      ...base('2026-03-02 14:40:31'),
      model: 'gpt-4o',
      sourceVersion: '0.86.1',
      startedAt: local(2026, 3, 2, 14, 40, 31),
      endedAt: local(2026, 3, 2, 14, 40, 31),
      toolsUsed: ['search_replace', 'whole', '/undo', '/test'],
      filesTouched: ['.editorconfig', 'CHANGELOG.md'],
      turns: [
        turn('user', 'add a CHANGELOG entry for the slug fix and a .editorconfig', '#### add a CHANGELOG'),
        turn(
          'assistant',
          expect.stringMatching(/^CHANGELOG\.md\n```\n# Changelog[\s\S]*root = true\n>>>>>>> REPLACE\n```$/),
          'CHANGELOG.md\n```',
          {
            ...withActions([
              act('write', 'search_replace', '.editorconfig', 'root = true'),
              act('write', 'whole', 'CHANGELOG.md', '# Changelog\n\n## 0.3.1\n- slugify strips accents'),
            ]),
          },
        ),
        turn('assistant', '', '#### /undo', {
          ...withActions([act('other', '/undo'), act('run', '/test', 'pytest -q')]),
        }),
      ],
    },
    {
      ...base('2026-03-03 08:02:10'),
      model: 'anthropic/claude-sonnet-4-20250514',
      sourceVersion: '0.86.1',
      startedAt: local(2026, 3, 3, 8, 2, 10),
      endedAt: local(2026, 3, 3, 8, 4, 0),
      toolsUsed: ['search_replace'],
      filesTouched: ['shop/cache.py'],
      turns: [
        // The message of `/ask …` has the command's time: aider kept only the command in its input history.
        turn('user', 'how is the price cache invalidated?', '#### how is the price cache', {
          ts: local(2026, 3, 3, 8, 2, 40),
        }),
        turn('assistant', 'It is never invalidated: `PriceCache.get` keeps entries forever.', 'It is never'),
        turn('user', 'add a 10 minute TTL to the price cache', '#### add a 10 minute TTL', {
          ts: local(2026, 3, 3, 8, 4, 0),
        }),
        turn('assistant', architect, architect),
        // The architect's reply handed to its editor model as an input is not the user's: no turn.
        turn('assistant', expect.stringMatching(/^shop\/cache\.py\n/), 'shop/cache.py\n```python', {
          ...withActions([
            act(
              'edit',
              'search_replace',
              'shop/cache.py',
              '        self.entries[key] = (time.monotonic(), value)',
              '        self.entries[key] = value',
            ),
          ]),
        }),
      ],
    },
    {
      ...base('2026-03-03 08:30:00'),
      model: '',
      sourceVersion: '0.86.1',
      startedAt: local(2026, 3, 3, 8, 30, 0),
      endedAt: local(2026, 3, 3, 8, 30, 0),
      toolsUsed: [],
      filesTouched: [],
      turns: [
        turn(
          'user',
          '<!-- skillopt-sleep:replay -->\n# Task\nWrite the commit message',
          '#### <!-- skillopt',
        ),
        turn('assistant', 'fix: expire cached prices after ten minutes', 'fix: expire'),
      ],
    },
    // 09:00:00 holds no turn: no session.
    {
      ...base('2026-02-30 10:00:00'),
      model: '',
      sourceVersion: '0.86.1',
      startedAt: null,
      endedAt: null,
      toolsUsed: ['/help'],
      filesTouched: [],
      turns: [
        turn('assistant', 'Use `/model <name>` to switch the main model.', 'Use `/model', {
          ...withActions([act('other', '/help')]),
        }),
        turn('user', 'rename PriceCache to Prices', '#### rename', { toolErrors: 1, interrupted: true }),
        // A quote and a heading of the reply stay in it; the unfinished block is no edit.
        turn(
          'assistant',
          expect.stringMatching(/^> Note: this touches every import\.\n\n#### Plan\n[\s\S]*=======$/),
          '> Note:',
        ),
        turn('user', 'never mind', '#### never mind'),
        turn('assistant', 'OK.', 'OK.'),
      ],
    },
  ].map((s) => ({ ...s, turns: s.turns.map((t, seq) => ({ seq, ...t })) }));
}

describe('aider.roots and discover', () => {
  it('looks in each known folder and those above it, up to the home folder', () => {
    const ctx = {
      home: '/home/u',
      env: { [AIDER_FOLDERS_ENV]: '~/extra, ' },
      projectFolders: () => ['/home/u/code/app/packages/web', '/srv/site', '/home/u/code/app'],
    };
    expect(aider.roots(ctx)).toEqual([
      `/home/u/extra/${HISTORY}`,
      `/home/u/code/app/packages/web/${HISTORY}`,
      `/home/u/code/app/packages/${HISTORY}`,
      `/home/u/code/app/${HISTORY}`,
      `/home/u/code/${HISTORY}`,
      `/srv/site/${HISTORY}`,
      `/srv/${HISTORY}`,
    ]);
  });

  it('honours AIDER_CHAT_HISTORY_FILE: an absolute file, or another name in every folder', () => {
    const folders = () => ['/w/app'];
    const abs = { home: '/h', env: { AIDER_CHAT_HISTORY_FILE: '~/notes/aider.md' }, projectFolders: folders };
    expect(aider.roots(abs)).toEqual(['/h/notes/aider.md', `/w/app/${HISTORY}`, `/w/${HISTORY}`]);
    const rel = { home: '/h', env: { AIDER_CHAT_HISTORY_FILE: 'chat.md' }, projectFolders: folders };
    expect(aider.roots(rel)).toEqual([`/w/app/${HISTORY}`, '/w/app/chat.md', `/w/${HISTORY}`, '/w/chat.md']);
  });

  it('is an incremental source whose files append sessions', () => {
    expect(aider.id).toBe('aider');
    expect(aider.incremental).toBe(true);
    expect(aider.appendsSessions).toBe(true);
  });

  it('finds each existing history once, by its real path, and nothing without folders', async () => {
    const file = copyFixture();
    const project = path.dirname(file);
    mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
    symlinkSync(project, path.join(tmp, 'link'));
    mkdirSync(path.join(tmp, 'dir-named-like-it', HISTORY), { recursive: true });
    const found = await aider.discover({
      home: '/nonexistent-home',
      env: {},
      projectFolders: () => [
        path.join(project, 'src', 'deep'),
        path.join(tmp, 'link'),
        path.join(tmp, 'dir-named-like-it'),
      ],
    });
    expect(found).toEqual([sourceFile(realpathSync(file))]);
    expect(await aider.discover({ home: tmp, env: {} })).toEqual([]);
  });
});

describe('aider.parse', () => {
  it('reads every session of the file exactly', async () => {
    const file = copyFixture();
    const { sessions, badLines, endOffset, readWhole } = await aider.parse(sourceFile(file), 0);
    expect(sessions).toEqual(expectedSessions(file));
    expect(badLines).toBe(1); // the stray line before the first session
    expect(endOffset).toBe(offsetOf(file, '# aider chat started at 2026-02-30'));
    expect(readWhole).toBe(true);
  });

  it('drops what is not the user: tool output, confirmations, /help questions, blank inputs', async () => {
    const { sessions } = await aider.parse(sourceFile(copyFixture()), 0);
    const texts = sessions.flatMap((s) => s.turns.map((t) => t.text)).join('\n');
    for (const leaked of [
      'Tokens:',
      'Applied edit',
      '(Y)es/(N)o',
      '# Question:',
      '<blank>',
      'Aider v0',
      '/ask',
    ]) {
      expect(texts).not.toContain(leaked);
    }
  });

  it('resumes at the last session: it is read whole, new sessions after it too', async () => {
    const file = copyFixture();
    const first = await aider.parse(sourceFile(file), 0);
    const last = first.sessions.at(-1);
    appendFileSync(file, '#### and the docs?  \n\nDocs updated.\n\n');
    appendFileSync(
      file,
      '\n# aider chat started at 2026-03-04 07:00:00\n\n> Aider v0.86.2  \n\n#### hello  \n\nHi.\n\n',
    );
    const next = await aider.parse(sourceFile(file), first.endOffset);
    expect(next.sessions.map((s) => s.sessionId)).toEqual([
      last?.sessionId,
      aiderSessionId(file, offsetOf(file, '# aider chat started at 2026-03-04')),
    ]);
    expect(next.sessions[0]?.turns.map((t) => t.text).slice(-2)).toEqual(['and the docs?', 'Docs updated.']);
    expect(next.sessions[0]?.turns).toHaveLength((last?.turns.length ?? 0) + 2);
    expect(next.sessions[1]).toMatchObject({ sourceVersion: '0.86.2', startedAt: local(2026, 3, 4, 7, 0) });
    expect(next.endOffset).toBe(offsetOf(file, '# aider chat started at 2026-03-04'));
    expect(next.badLines).toBe(0);
  });

  it('leaves a last line without a newline for later unless told the writer is done', async () => {
    const file = path.join(tmp, HISTORY);
    writeFileSync(file, '\n# aider chat started at 2026-03-04 07:00:00\n\n#### fix the bug  \n\nDone, half');
    const open = await aider.parse(sourceFile(file), 0);
    expect(open.readWhole).toBe(false);
    expect(open.sessions[0]?.turns.map((t) => t.text)).toEqual(['fix the bug']);
    const settled = await aider.parse(sourceFile(file), 0, { includeOpenLastLine: true });
    expect(settled.readWhole).toBe(true);
    expect(settled.sessions[0]?.turns.map((t) => t.text)).toEqual(['fix the bug', 'Done, half']);
  });

  it('reads Windows line ends like Unix ones', async () => {
    const unix = copyFixture();
    const crlf = path.join(tmp, 'crlf', HISTORY);
    mkdirSync(path.dirname(crlf));
    writeFileSync(crlf, readFileSync(unix, 'utf8').replace(/\n/g, '\r\n'));
    const a = (await aider.parse(sourceFile(unix), 0)).sessions.map((s) =>
      s.turns.map((t) => [t.text, t.actions]),
    );
    const b = (await aider.parse(sourceFile(crlf), 0)).sessions.map((s) =>
      s.turns.map((t) => [t.text, t.actions]),
    );
    expect(b).toEqual(a);
  });

  it('rejects with an IoError naming an unreadable file', async () => {
    const missing: SourceFile = {
      source: 'aider',
      path: path.join(tmp, 'gone', HISTORY),
      size: 1,
      mtimeMs: 0,
      inode: 1,
    };
    await expect(aider.parse(missing, 0)).rejects.toThrow(IoError);
    await expect(aider.parse(missing, 0)).rejects.toThrow(missing.path);
  });
});
