import { describe, expect, it } from 'vitest';
import { anthropicSchemaProblem } from './anthropic-schema-limits.ts';

describe('anthropicSchemaProblem', () => {
  it('takes a plain object schema, and names the first keyword Anthropic refuses, with its path', () => {
    expect(anthropicSchemaProblem({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false })).toBeUndefined();
    expect(anthropicSchemaProblem({ type: 'object', properties: { a: { type: 'integer', minimum: 0 } } })).toBe('$.a: minimum');
    expect(anthropicSchemaProblem({ type: 'object', properties: { list: { type: 'array', items: { type: 'string', maxLength: 3 } } } })).toBe('$.list[]: maxLength');
    expect(anthropicSchemaProblem({ type: 'array', minItems: 2 })).toBe('$: minItems above 1');
    expect(anthropicSchemaProblem({ type: 'object', additionalProperties: true })).toBe('$: additionalProperties other than false');
    expect(anthropicSchemaProblem({ $ref: 'https://example.com/s.json' })).toBe('$: an external $ref');
    expect(anthropicSchemaProblem({ $defs: { x: { type: 'number', multipleOf: 2 } }, $ref: '#/$defs/x' })).toBe('$.$defs.x: multipleOf');
  });
});
