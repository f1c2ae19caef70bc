// Writes the SpreadsheetBench test fixtures (test/fixtures/envs/spreadsheetbench/): a dataset.json in the
// release's format, tiny input and golden workbooks per test case, and a split manifest in the
// reference's id_split format. Run: node scripts/make-spreadsheetbench-fixtures.mjs
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import ExcelJS from 'exceljs';

const root = path.resolve(process.argv[2] ?? 'test/fixtures/envs/spreadsheetbench');
const data = path.join(root, 'data');
const FIXED = new Date(Date.UTC(2024, 0, 1));

/** Builds a workbook from {sheet: rows}; a cell is a value or {value, numFmt}. */
async function write(file, sheets) {
  const wb = new ExcelJS.Workbook();
  wb.created = FIXED;
  wb.modified = FIXED;
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    rows.forEach((row, r) =>
      row.forEach((cell, c) => {
        if (cell === null || cell === undefined) return;
        const target = ws.getCell(r + 1, c + 1);
        if (typeof cell === 'object' && !(cell instanceof Date) && 'value' in cell) {
          target.value = cell.value;
          if (cell.numFmt) target.numFmt = cell.numFmt;
        } else target.value = cell;
      }),
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  await wb.xlsx.writeFile(file);
}

const day = (y, m, d) => ({ value: new Date(Date.UTC(y, m - 1, d)), numFmt: 'yyyy-mm-dd' });

const orders = (rows) => [['Order', 'Qty', 'Price', 'Total'], ...rows.map(([o, q, p]) => [o, q, p])];
const ordersDone = (rows) => [
  ['Order', 'Qty', 'Price', 'Total'],
  ...rows.map(([o, q, p]) => [o, q, p, q * p]),
];

const tasks = [
  {
    item: {
      id: 'sb-101',
      instruction: 'Fill the Total column (D) of the Orders sheet with Qty times Price for every order row.',
      instruction_type: 'Cell-Level Manipulation',
      answer_position: 'Orders!D2:D4',
    },
    naming: ['input', 'answer'],
    cases: [
      [
        {
          Orders: orders([
            ['A-1', 2, 9.5],
            ['A-2', 1, 120],
            ['A-3', 4, 0.25],
          ]),
        },
        {
          Orders: ordersDone([
            ['A-1', 2, 9.5],
            ['A-2', 1, 120],
            ['A-3', 4, 0.25],
          ]),
        },
      ],
      [
        {
          Orders: orders([
            ['B-1', 3, 10],
            ['B-2', 5, 1.1],
            ['B-3', 7, 2],
          ]),
        },
        {
          Orders: ordersDone([
            ['B-1', 3, 10],
            ['B-2', 5, 1.1],
            ['B-3', 7, 2],
          ]),
        },
      ],
    ],
  },
  {
    item: {
      id: 'sb-102',
      instruction: 'Convert every name in column A of the Names sheet (below the header) to upper case.',
      instruction_type: 'Sheet-Level Manipulation',
      answer_position: "'Names'!A2:A4",
    },
    naming: ['init', 'golden'],
    cases: [
      [
        { Names: [['Name'], ['ada'], ['grace hopper'], ['Alan']] },
        { Names: [['Name'], ['ADA'], ['GRACE HOPPER'], ['ALAN']] },
      ],
    ],
  },
  {
    item: {
      id: 'sb-103',
      instruction: 'In cell B1 write the latest date found in column A (from A2 down), formatted as a date.',
      instruction_type: 'Cell-Level Manipulation',
      answer_position: 'B1',
    },
    naming: ['input', 'answer'],
    cases: [
      [
        { Log: [['Date'], [day(2024, 3, 1)], [day(2024, 5, 17)], [day(2023, 12, 31)]] },
        { Log: [['Date', day(2024, 5, 17)], [day(2024, 3, 1)], [day(2024, 5, 17)], [day(2023, 12, 31)]] },
      ],
    ],
  },
  {
    item: {
      id: 'sb-104',
      instruction:
        'In cell B1 of the Summary sheet, write how many tasks on the Tasks sheet have the status "done".',
      instruction_type: 'Cell-Level Manipulation',
      answer_position: 'Summary!B1',
    },
    naming: ['init', 'golden'],
    cases: [
      [
        {
          Tasks: [
            ['Task', 'Status'],
            ['t1', 'done'],
            ['t2', 'open'],
            ['t3', 'done'],
            ['t4', 'Done '],
          ],
          Summary: [['Done tasks']],
        },
        {
          Tasks: [
            ['Task', 'Status'],
            ['t1', 'done'],
            ['t2', 'open'],
            ['t3', 'done'],
            ['t4', 'Done '],
          ],
          Summary: [['Done tasks', 2]],
        },
      ],
    ],
  },
  {
    item: {
      id: 'sb-105',
      instruction:
        "In C2:C4 of the Sales sheet write each region's share of the total sales (a fraction, rounded to 2 decimals).",
      instruction_type: 'Cell-Level Manipulation',
      answer_position: 'Sales!C2:C4',
    },
    naming: ['input', 'answer'],
    cases: [
      [
        {
          Sales: [
            ['Region', 'Sales', 'Share'],
            ['North', 300],
            ['South', 500],
            ['West', 200],
          ],
        },
        {
          Sales: [
            ['Region', 'Sales', 'Share'],
            ['North', 300, 0.3],
            ['South', 500, 0.5],
            ['West', 200, 0.2],
          ],
        },
      ],
    ],
  },
  {
    item: {
      id: 'sb-106',
      instruction:
        'On the Data sheet, remove the rows whose Amount (column B) is 0, keeping the other rows in order with no gaps.',
      instruction_type: 'Sheet-Level Manipulation',
      answer_position: 'Data!A1:B5',
    },
    naming: ['input', 'answer'],
    cases: [
      [
        {
          Data: [
            ['Item', 'Amount'],
            ['pens', 4],
            ['ink', 0],
            ['paper', 12],
            ['clips', 0],
          ],
        },
        {
          Data: [
            ['Item', 'Amount'],
            ['pens', 4],
            ['paper', 12],
          ],
        },
      ],
    ],
  },
];

rmSync(root, { recursive: true, force: true });
const rows = [];
for (const t of tasks) {
  const rel = `spreadsheet/${t.item.id}`;
  rows.push({ ...t.item, spreadsheet_path: rel });
  for (const [i, [input, golden]] of t.cases.entries()) {
    const [inName, goldName] = t.naming;
    await write(path.join(data, rel, `${i + 1}_${t.item.id}_${inName}.xlsx`), input);
    await write(path.join(data, rel, `${i + 1}_${t.item.id}_${goldName}.xlsx`), golden);
  }
}
writeFileSync(path.join(data, 'dataset.json'), `${JSON.stringify(rows, null, 2)}\n`);
const split = { train: ['sb-101', 'sb-104', 'sb-106'], val: ['sb-102', 'sb-105'], test: ['sb-103'] };
for (const [name, ids] of Object.entries(split)) {
  const items = ids.map((id) => {
    const r = rows.find((x) => x.id === id);
    return { id, spreadsheet_path: r.spreadsheet_path, instruction_type: r.instruction_type };
  });
  mkdirSync(path.join(root, 'splits', name), { recursive: true });
  writeFileSync(path.join(root, 'splits', name, 'items.json'), `${JSON.stringify(items, null, 2)}\n`);
}
process.stdout.write(`wrote ${rows.length} tasks under ${root}\n`);
