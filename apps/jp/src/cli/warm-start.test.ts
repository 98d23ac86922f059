import { describe, expect, it } from 'vitest';
import { attachValues, optionValues } from './warm-start.ts';

describe('attachValues', () => {
  it('finds the values of -a, --attach and --attach=, and stops at --', () => {
    expect(attachValues(['query', '-a', 'src/', '--attach', '*.ts', '--attach=docs', 'why?'])).toEqual(['src/', '*.ts', 'docs']);
    expect(attachValues(['query', '--new', 'text', '--', '-a', 'x'])).toEqual([]);
    // A trailing flag without its value is commander's error to report, not a value.
    expect(attachValues(['query', '-a'])).toEqual([]);
  });

  it('finds any option the same way, in order: a workspace given twice is the last one', () => {
    expect(optionValues(['-w', 'a', 'query', '--workspace=b', '-a', 'src/'], '-w', '--workspace')).toEqual(['a', 'b']);
  });
});
