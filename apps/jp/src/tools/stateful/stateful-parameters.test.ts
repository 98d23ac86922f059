import { describe, expect, it } from 'vitest';
import { configSchema } from '../../config/config-schema.ts';
import { checkToolArguments } from '../check-tool-arguments.ts';
import { selectTools } from '../select-tools.ts';
import { statefulParameters } from './stateful-parameters.ts';

const own = { type: 'object', properties: { port: { type: 'integer' } }, required: ['port'] };

function toolsOf(tools: Record<string, unknown>) {
  const config = configSchema().parse({ tools });
  // refresh_resource comes first, always (issue V); the configured tools follow.
  return selectTools({ config, events: [], mcpTools: [], only: [], without: [] }).offered.filter((tool) => tool.definition.name !== 'refresh_resource');
}

describe('the schema offered for a stateful tool', () => {
  it('is an object whose action is a oneOf of the declared actions only; spawn brings the own parameters', () => {
    const schema = statefulParameters(['spawn', 'fetch'], own) as { type: string; properties: Record<string, any>; required: string[] };
    expect(schema.type).toBe('object');
    expect(schema.properties.action.oneOf.map((variant: { const: string }) => variant.const)).toEqual(['spawn', 'fetch']);
    expect(Object.keys(schema.properties)).toEqual(['action', 'id', 'wait_ms', 'port']);
    expect(schema.required).toEqual(['action', 'id']);
    expect(JSON.stringify(schema)).not.toMatch(/"(anyOf|allOf)"/);
    // No top-level oneOf: Anthropic and OpenAI refuse one.
    expect(Object.keys(schema)).not.toContain('oneOf');
  });

  it('is the same bytes every time it is built', () => {
    expect(JSON.stringify(statefulParameters(['spawn', 'fetch', 'apply', 'abort'], own))).toBe(
      JSON.stringify(statefulParameters(['spawn', 'fetch', 'apply', 'abort'], own)),
    );
  });

  it('rejects an undeclared action and a wait_ms above 30000 before the tool runs', async () => {
    const definition = { name: 't', description: 'd', parameters: statefulParameters(['spawn', 'abort'], own) };
    expect(await checkToolArguments(definition, { action: 'spawn', id: 'a', port: 1 })).toBeUndefined();
    expect(await checkToolArguments(definition, { action: 'fetch', id: 'a' })).toMatch(/action/);
    const withFetch = { ...definition, parameters: statefulParameters(['spawn', 'fetch'], own) };
    expect(await checkToolArguments(withFetch, { action: 'fetch', id: 'a', wait_ms: 30_001 })).toMatch(/wait_ms/);
  });
});

describe('stateful tools in config', () => {
  const base = { command: 'prog', description: 'd' };
  it('a process tool is offered with the stateful schema; a one-shot tool keeps its own', () => {
    const [stateful, oneShot] = toolsOf({ dev: { ...base, stateful: 'process', actions: ['spawn', 'abort'] }, plain: { ...base } });
    expect((stateful!.definition.parameters as any).properties.action.oneOf).toHaveLength(2);
    expect(oneShot!.definition.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('a protocol tool is offered with the same stateful schema as a process tool', () => {
    const [protocol, processTool] = toolsOf({ stage: { ...base, stateful: 'protocol' }, dev: { ...base, stateful: 'process' } });
    expect(protocol!.definition.name).toBe('stage');
    expect(protocol!.definition.parameters).toEqual(processTool!.definition.parameters);
    expect((protocol!.definition.parameters as any).properties.action.oneOf.map((entry: { const: string }) => entry.const)).toEqual(['spawn', 'fetch', 'apply', 'abort']);
  });

  it('actions without spawn, actions on a one-shot tool and a parameter named like an action field are config errors', () => {
    expect(() => toolsOf({ dev: { ...base, stateful: 'process', actions: ['fetch'] } })).toThrow(/must include "spawn"/);
    expect(() => toolsOf({ dev: { ...base, actions: ['spawn'] } })).toThrow(/only for stateful tools/);
    expect(() => toolsOf({ dev: { ...base, stateful: 'process', parameters: { type: 'object', properties: { input: {} } } } })).toThrow(/may not define "input"/);
    expect(() => configSchema().parse({ tools: { dev: { ...base, stateful: 'process', actions: ['spawn', 'spawn'] } } })).toThrow(/at most once/);
  });
});
