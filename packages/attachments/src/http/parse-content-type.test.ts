import { describe, expect, it } from 'vitest';
import { parseContentType } from './parse-content-type.ts';

describe('parseContentType', () => {
  it.each([
    ['text/html', { essence: 'text/html' }],
    ['Text/HTML; Charset=ISO-8859-1', { essence: 'text/html', charset: 'ISO-8859-1' }],
    ['text/plain; format=flowed; charset="utf-8"', { essence: 'text/plain', charset: 'utf-8' }],
    ['application/json;charset=', { essence: 'application/json' }],
    ['  image/png  ', { essence: 'image/png' }],
  ])('%s', (header, expected) => {
    expect(parseContentType(header)).toEqual(expected);
  });

  it.each([null, undefined, '', '   ', 'garbage', 'text/', '/html'])('%s is no content type', (header) => {
    expect(parseContentType(header)).toBeUndefined();
  });
});
