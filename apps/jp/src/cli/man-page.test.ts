import { describe, expect, it } from 'vitest';
import { buildProgram } from './main.ts';
import { renderManPage } from './man-page.ts';

describe('renderManPage', () => {
  const page = renderManPage(buildProgram(), '1.2.3');

  it('is made from the command tree: every command with its options, hidden ones left out', () => {
    for (const command of ['jp init', 'jp query', 'jp chat', 'jp attachment add', 'jp conversation fork', 'jp mcp serve', 'jp config set', 'jp gc', 'jp completion']) {
      expect(page).toContain(`\\fB${command}\\fR`);
    }
    expect(page).toContain('.B \\-e, \\-\\-edit');
    expect(page).not.toContain('__complete');
    expect(page).toContain('.TH JP 1 "" "jp 1.2.3" "User Commands"');
  });

  it('has the exit status, environment and files sections', () => {
    for (const section of ['.SH EXIT STATUS', '.SH ENVIRONMENT', '.SH FILES']) expect(page).toContain(section);
    for (const code of [0, 1, 2, 3, 4, 5, 130]) expect(page).toContain(`.B ${code}\n`);
  });

  it('names where every configuration key is described', () => {
    expect(page).toMatch(/\.SH SEE ALSO\n[^\n]*docs\/config\.md/);
  });

  it('is plain ASCII roff: typography by name, no line a roff request by accident', () => {
    expect(page).toMatch(/^[\x00-\x7f]*$/);
    const lines = page.split('\n');
    const requests = lines.filter((line) => /^[.']/.test(line));
    expect(requests.every((line) => /^\.(\\"|TH|SH|TP|B|I|RS|RE)( |$)/.test(line)), requests.join('\n')).toBe(true);
  });
});
