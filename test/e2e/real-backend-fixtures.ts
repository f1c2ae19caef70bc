/** Tasks files and Claude Code transcripts with planted secrets, for the real-backend end-to-end tests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One secret of each kind the redactor must catch before anything is sent. */
export const PLANTED_SECRETS = [
  'sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6',
  'ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6',
  'AKIAZ3QX7RTY2PLM4KDW',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'Sup3rS3cretPw',
  'MIIEowIBAAKCAQEA7yQ9bX2mLp4TzR8vWq3NcHs6JdKf1Ye0Ua5Gi7Oj',
  'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9876543210',
  'abcd1234efgh5678ijkl',
  'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx',
] as const;

const [openaiKey, github, aws, jwt, dbPassword, pemBody, anthropicKey, urlToken, slack] = PLANTED_SECRETS;

/** Context lines that carry every planted secret. */
export const SECRET_CONTEXT = [
  `our key is ${openaiKey} and the CI token ${github}`,
  `aws ${aws}, session ${jwt}`,
  `staging db postgres://admin:${dbPassword}@db.internal:5432/app`,
  `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`,
  `fallback ${anthropicKey}; webhook https://api.example.com/v1/hook?access_token=${urlToken}&x=1; slack ${slack}`,
].join('\n');

const PACKAGES = ['zod', 'dayjs', 'lodash', 'axios', 'chalk', 'ky'];

/** Six "add a dependency" tasks checked for pnpm (not npm): three train, three val, reviewed. */
export function writeTasksFile(dir: string): string {
  const file = path.join(dir, 'tasks.json');
  const tasks = PACKAGES.map((pkg, i) => ({
    id: `add-${pkg}`,
    intent: `Add \`${pkg}\` to the web app`,
    context_excerpt: SECRET_CONTEXT,
    reference_kind: 'rule',
    judge: {
      kind: 'rule',
      checks: [
        { op: 'contains', arg: 'pnpm' },
        { op: 'regex', arg: String.raw`(?i)^(?![\s\S]*\bnpm\b)` },
      ],
    },
    split: i < 3 ? 'train' : 'val',
  }));
  writeFileSync(file, JSON.stringify({ format: 'skillopt_sleep.tasks.v1', reviewed: true, tasks }));
  return file;
}

/** Claude Code sessions in `home` for `project`: the user asks for a dependency, then corrects npm to pnpm. */
export function writeClaudeTranscripts(home: string, project: string): void {
  const dir = path.join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const base = Date.UTC(2026, 10, 20, 9);
  PACKAGES.forEach((pkg, i) => {
    const sessionId = `5b1f7c2e-1d3a-4c6b-9e8f-0000000000${String(i).padStart(2, '0')}`;
    const turns: Array<['user' | 'assistant', string]> = [
      ['user', `Add \`${pkg}\` to the web app. ${SECRET_CONTEXT}`],
      ['assistant', `I'll add it with npm:\n\n\`\`\`\nnpm install ${pkg}\n\`\`\``],
      ['user', `also keep the lockfile tidy; deploy key ${PLANTED_SECRETS[1]}`],
      ['assistant', 'Sure.'],
      ['user', 'use pnpm instead of npm'],
      ['assistant', `Done:\n\n\`\`\`\npnpm add ${pkg}\n\`\`\``],
      ['user', 'thanks, works now'],
    ];
    const lines = turns.map(([role, text], j) =>
      JSON.stringify({
        parentUuid: j === 0 ? null : `00000000-0000-4000-8000-0000000${i}${String(j - 1).padStart(4, '0')}`,
        isSidechain: false,
        userType: 'external',
        cwd: project,
        sessionId,
        version: '1.0.89',
        gitBranch: 'main',
        type: role,
        message:
          role === 'user'
            ? { role, content: text }
            : {
                id: `msg_${i}_${j}`,
                type: 'message',
                role,
                model: 'claude-sonnet-4',
                content: [{ type: 'text', text }],
              },
        uuid: `00000000-0000-4000-8000-0000000${i}${String(j).padStart(4, '0')}`,
        timestamp: new Date(base + i * 3_600_000 + j * 1000).toISOString(),
      }),
    );
    writeFileSync(path.join(dir, `${sessionId}.jsonl`), `${lines.join('\n')}\n`);
  });
}
