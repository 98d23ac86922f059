import { describe, expect, it } from 'vitest';
import { BadCursor, listPage } from './list-page.ts';

const ids = Array.from({ length: 7 }, (_, i) => `0${i}`);

describe('listPage', () => {
  it('pages newest first and ends without a cursor', () => {
    const first = listPage(ids, undefined, 3);
    expect(first.ids).toEqual(['06', '05', '04']);
    const second = listPage(ids, first.nextCursor, 3);
    expect(second.ids).toEqual(['03', '02', '01']);
    const last = listPage(ids, second.nextCursor, 3);
    expect(last).toEqual({ ids: ['00'] });
  });

  it('neither repeats nor skips when conversations come and go between pages', () => {
    const first = listPage(ids, undefined, 3);
    const changed = [...ids.filter((id) => id !== '03'), '07'];
    expect(listPage(changed, first.nextCursor, 3).ids).toEqual(['02', '01', '00']);
  });

  it('gives one page when all fit, and refuses a cursor it did not make', () => {
    expect(listPage(ids, undefined, 10)).toEqual({ ids: [...ids].reverse() });
    expect(() => listPage(ids, 'garbage', 3)).toThrow(BadCursor);
  });
});
