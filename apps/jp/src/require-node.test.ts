import { describe, expect, it } from 'vitest';
import { nodeTooOld } from './require-node.ts';

describe('nodeTooOld', () => {
  it('accepts 20.19 and newer', () => {
    for (const version of ['20.19.0', 'v20.20.2', '21.0.0', '22.13.1', '24.1.0']) expect(nodeTooOld(version)).toBeUndefined();
  });

  it('names the version needed and the one found, in one line', () => {
    expect(nodeTooOld('v18.20.4')).toBe('jp: jp needs Node.js 20.19 or newer, and this is Node.js 18.20.4; install a newer Node.js (nodejs.org, or nvm install 20)');
    expect(nodeTooOld('20.18.3')).toMatch(/needs Node\.js 20\.19 or newer, and this is Node\.js 20\.18\.3/);
  });
});
