/** The SpreadsheetBench target's prompts, the code it replies with, and the initial skill. */

export const INITIAL_SKILL = `# Spreadsheet Manipulation Skill (xlsx, JavaScript + exceljs)

## Workflow
1. Read the instruction, the answer position and the workbook preview; find the header row and where
   the data starts and ends.
2. Load INPUT_PATH with exceljs, change only what the instruction asks, save to OUTPUT_PATH.
3. Write computed values into the answer cells: a formula written by exceljs has no cached value, and
   the checker reads values, not formulas.

## Rules
- Iterate over the rows actually present (worksheet.rowCount, getRow) instead of hard-coding counts.
- Keep every sheet and cell the instruction does not mention.

(No learned rules yet: reflection adds them.)
`;

export const systemPrompt = (skill: string): string => {
  const section = skill.trim() === '' ? '' : `## Skill\n${skill.trim()}\n\n`;
  return `You are an expert at manipulating Excel workbooks with code.

${section}## How your code runs
Reply with one JavaScript code block (\`\`\`javascript ... \`\`\`). It is the body of an async function
that is run with these in scope:
- \`ExcelJS\`: the exceljs library (also returned by \`require('exceljs')\`); no other module is available,
  and there is no network.
- \`INPUT_PATH\`: the input workbook; \`OUTPUT_PATH\`: where to save the result.
Load the input (\`const wb = new ExcelJS.Workbook(); await wb.xlsx.readFile(INPUT_PATH);\`), make the
change, and \`await wb.xlsx.writeFile(OUTPUT_PATH);\`. The same code also runs on other workbooks of the
same layout with different data, so compute from the cells; never copy numbers from the preview.
The cells at the answer position are compared by value with the expected workbook.
`;
};

/** The code of a reply: its last fenced block marked js/javascript, else its last fenced block, else ''. */
export function extractCode(reply: string): string {
  const blocks = [...reply.matchAll(/```([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g)];
  const js = blocks.filter((b) => /^(?:js|javascript|mjs|node)$/i.test(b[1] ?? ''));
  const chosen = (js.length > 0 ? js : blocks).at(-1);
  return chosen?.[2]?.trim() ?? '';
}

export const userPrompt = (p: {
  instruction: string;
  instructionType: string;
  answerPosition: string;
  preview: string;
}): string =>
  [
    `## Instruction\n${p.instruction}`,
    p.instructionType === '' ? '' : `## Instruction type\n${p.instructionType}`,
    `## Answer position\n${p.answerPosition}`,
    `## Input workbook\n${p.preview}`,
  ]
    .filter((s) => s !== '')
    .join('\n\n');

export const retryPrompt = (problem: string): string =>
  `Running your code failed:\n${problem}\n\nReply with the corrected code block.`;
