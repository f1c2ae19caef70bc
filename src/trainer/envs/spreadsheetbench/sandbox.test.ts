import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxDir, permissionFlag, removeSandboxDir, runSandboxed } from './sandbox.js';

let input = '';
const boxes: string[] = [];
const limits = { timeoutMs: 20_000, memoryMb: 128 };
const box = () => {
  const b = makeSandboxDir(input);
  boxes.push(b.dir);
  return b;
};

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sos-sandbox-test-'));
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Data');
  ws.getCell('A1').value = 3;
  ws.getCell('A2').value = 4;
  input = path.join(dir, 'in.xlsx');
  await wb.xlsx.writeFile(input);
});
afterEach(() => {
  for (const d of boxes.splice(0)) removeSandboxDir(d);
});

describe('the spreadsheet sandbox', () => {
  it("takes each Node's permission flag: experimental before 22.13 (and 23.5), stable after", () => {
    expect(permissionFlag('20.19.0')).toBe('--experimental-permission');
    expect(permissionFlag('22.12.0')).toBe('--experimental-permission');
    expect(permissionFlag('22.13.0')).toBe('--permission');
    expect(permissionFlag('23.4.0')).toBe('--experimental-permission');
    expect(permissionFlag('24.1.0')).toBe('--permission');
    expect(permissionFlag('18.20.0')).toBeUndefined();
  });

  it('runs code that edits a copy of the workbook with exceljs and saves the output', async () => {
    const b = box();
    const run = await runSandboxed(
      `const wb = new ExcelJS.Workbook(); await wb.xlsx.readFile(INPUT_PATH);
       const ws = wb.getWorksheet('Data'); ws.getCell('B1').value = ws.getCell('A1').value * ws.getCell('A2').value;
       await wb.xlsx.writeFile(OUTPUT_PATH); console.log('saved');`,
      b,
      limits,
    );
    expect(run).toMatchObject({ ok: true, timedOut: false, exitCode: 0 });
    expect(run.output).toContain('saved');
    const out = new ExcelJS.Workbook();
    await out.xlsx.readFile(b.output);
    expect(out.getWorksheet('Data')?.getCell('B1').value).toBe(12);
  });

  it('reports a thrown error with a non-zero exit', async () => {
    const run = await runSandboxed(`throw new Error('boom')`, box(), limits);
    expect(run.ok).toBe(false);
    expect(run.exitCode).toBe(1);
    expect(run.output).toContain('boom');
  });

  it('refuses files outside its folder, child processes and modules other than exceljs', async () => {
    const outside = await runSandboxed(
      `const fs = await import('node:fs'); fs.readFileSync('/etc/hostname');`,
      box(),
      limits,
    );
    expect(outside.ok).toBe(false);
    expect(outside.output).toMatch(/ERR_ACCESS_DENIED|Access to this API has been restricted/);
    const write = await runSandboxed(
      `const fs = await import('node:fs'); fs.writeFileSync(${JSON.stringify(path.join(os.tmpdir(), 'sos-escape.txt'))}, 'x');`,
      box(),
      limits,
    );
    expect(write.ok).toBe(false);
    expect(existsSync(path.join(os.tmpdir(), 'sos-escape.txt'))).toBe(false);
    const spawnIt = await runSandboxed(
      `const cp = await import('node:child_process'); cp.execSync('true');`,
      box(),
      limits,
    );
    expect(spawnIt.ok).toBe(false);
    const req = await runSandboxed(`require('node:fs')`, box(), limits);
    expect(req.output).toContain('only exceljs can be required here');
  });

  it('has no network: sockets and fetch fail even to a server on this machine', async () => {
    let connections = 0;
    const server = createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const net = await runSandboxed(
        `const net = await import('node:net'); net.connect(${port}, '127.0.0.1');`,
        box(),
        limits,
      );
      expect(net.output).toContain('network access is disabled');
      const http = await runSandboxed(
        `const http = await import('node:http'); await new Promise((res, rej) => http.get('http://127.0.0.1:${port}/', res).on('error', rej));`,
        box(),
        limits,
      );
      expect(http.ok).toBe(false);
      const f = await runSandboxed(`await fetch('http://127.0.0.1:${port}/')`, box(), limits);
      expect(f.ok).toBe(false);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('kills code past its time limit and code past its heap limit', async () => {
    const slow = await runSandboxed(`while (true) {}`, box(), { timeoutMs: 1500, memoryMb: 128 });
    expect(slow).toMatchObject({ ok: false, timedOut: true });
    const hungry = await runSandboxed(
      `const keep = []; while (true) keep.push(new Array(1e6).fill(Math.random()));`,
      box(),
      { timeoutMs: 20_000, memoryMb: 48 },
    );
    expect(hungry.ok).toBe(false);
    expect(hungry.timedOut).toBe(false);
  });

  it('leaves nothing behind once the folder is removed', () => {
    const b = makeSandboxDir(input);
    expect(readdirSync(b.dir)).toEqual([path.basename(input)]);
    removeSandboxDir(b.dir);
    expect(existsSync(b.dir)).toBe(false);
  });
});
