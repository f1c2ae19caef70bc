/**
 * The test cases of a SpreadsheetBench task folder (`spreadsheet/<id>/`), in the naming of each release:
 * `N_<id>_input.xlsx` + `N_<id>_answer.xlsx` (the original 912), `N_<id>_init.xlsx` + `N_<id>_golden.xlsx`
 * (Verified 400), or a bare `initial.xlsx` + `golden.xlsx`. The same code runs on every case's input.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface TestCase {
  /** The case number (the file name's prefix). */
  no: string;
  input: string;
  golden: string;
}

const PAIRS: ReadonlyArray<[string, string]> = [
  ['_input.xlsx', '_answer.xlsx'],
  ['_init.xlsx', '_golden.xlsx'],
];

export function findTestCases(taskDir: string): TestCase[] {
  let names: string[];
  try {
    names = readdirSync(taskDir).sort();
  } catch {
    return [];
  }
  const cases: TestCase[] = [];
  for (const [inSuffix, goldSuffix] of PAIRS) {
    for (const name of names) {
      if (!name.endsWith(inSuffix)) continue;
      const golden = path.join(taskDir, name.slice(0, -inSuffix.length) + goldSuffix);
      if (!existsSync(golden)) continue;
      cases.push({ no: name.split('_')[0] ?? '1', input: path.join(taskDir, name), golden });
    }
  }
  if (cases.length === 0) {
    const input = path.join(taskDir, 'initial.xlsx');
    const golden = path.join(taskDir, 'golden.xlsx');
    if (existsSync(input) && existsSync(golden)) cases.push({ no: '1', input, golden });
  }
  return cases.sort((a, b) => Number(a.no) - Number(b.no) || a.no.localeCompare(b.no));
}
