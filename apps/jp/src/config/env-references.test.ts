import { describe, expect, it } from 'vitest';
import { configSchema } from './config-schema.ts';
import { expandReferences, isReferenceOnly, referenceError } from './env-references.ts';
import { checkLayer } from './load-config.ts';

const environment: Record<string, string> = { A: 'alpha', B_2: 'beta', EMPTY: '' };
const lookup = (name: string) => {
  const value = environment[name];
  if (value === undefined) throw new Error(`${name} unset`);
  return value;
};

describe('${NAME} references', () => {
  it('are replaced from the environment; $${ is a literal ${ and any other $ is itself', () => {
    expect(expandReferences('${A}', lookup)).toBe('alpha');
    expect(expandReferences('Bearer ${A}:${B_2}!', lookup)).toBe('Bearer alpha:beta!');
    expect(expandReferences('x${EMPTY}y', lookup)).toBe('xy');
    expect(expandReferences('$${A} costs $5, $A', lookup)).toBe('${A} costs $5, $A');
    expect(() => expandReferences('${MISSING}', lookup)).toThrow('MISSING unset');
  });

  it('name only variables: anything else after ${ is an error the schema reports', () => {
    expect(referenceError('${A}')).toBeUndefined();
    expect(referenceError('plain')).toBeUndefined();
    expect(referenceError('${not a name}')).toMatch(/"\$\{not a name\}" is not a reference/);
    expect(referenceError('${A')).toMatch(/"\$\{A" is not a reference/);
    expect(() => checkLayer({ mcp: { s: { command: 'x', env: { T: '${1X}' } } } }, '.jp/config.toml')).toThrow(
      /invalid configuration in \.jp\/config\.toml: mcp\.s\.env\.T: "\$\{1X\}" is not a reference/,
    );
    expect(() => checkLayer({ mcp: { s: { command: 'x', env_from: { T: 'not-a-var' } } } }, 'x')).toThrow(/mcp\.s\.env_from\.T: must be an environment variable name/);
  });

  it('a value made only of references holds no secret', () => {
    expect(isReferenceOnly('${A}')).toBe(true);
    expect(isReferenceOnly('${A}${B_2}')).toBe(true);
    expect(isReferenceOnly('${A}:${B_2}')).toBe(false);
    expect(isReferenceOnly('')).toBe(false);
    expect(isReferenceOnly('$${A}')).toBe(false);
    expect(isReferenceOnly(3)).toBe(false);
  });

  it('env_from defaults to empty and keeps the names as written', () => {
    const config = configSchema().parse({ mcp: { gh: { command: 'gh', env: { X: '${A}' }, env_from: { GITHUB_TOKEN: 'MY_GH_TOKEN' } }, plain: { command: 'p' } } });
    expect(config.mcp.gh).toMatchObject({ env: { X: '${A}' }, env_from: { GITHUB_TOKEN: 'MY_GH_TOKEN' } });
    expect(config.mcp.plain!.env_from).toEqual({});
  });
});
