import { describe, expect, it } from 'vitest';
import { TEMPLATE as INIT_CONFIG } from '../commands/init.ts';
import { parseKey } from './parse-cfg-arg.ts';
import { unsetToml } from './unset-toml.ts';

const unset = (text: string, key: string) => unsetToml(text, parseKey(key, 'test'), 'test.toml');

describe('jp config unset edits the file in place', () => {
  it('takes out the line that sets the key, its trailing comment with it, and nothing else', () => {
    const text = '# mine\n[assistant]  # the model\nmodel = "echo"   # for now\nmax_tokens = 1_000\n\n[style]\nrender = false\n';
    expect(unset(text, 'assistant.model')).toBe('# mine\n[assistant]  # the model\nmax_tokens = 1_000\n\n[style]\nrender = false\n');
  });

  it('takes out a value written over several lines, a dotted key at the top, and a quoted key', () => {
    expect(unset('[conversation]\nattachments = [\n  "a",\n  "b",\n]\nlock_timeout_secs = 3\n', 'conversation.attachments')).toBe('[conversation]\nlock_timeout_secs = 3\n');
    expect(unset('assistant.model = "echo"\nstyle.render = false\n', 'assistant.model')).toBe('style.render = false\n');
    const quoted = '[providers.openai.models."gpt-4.1"]\ncontext_window = 400\n\n[providers.openai.models."gpt-4o"]\ncontext_window = 500\n';
    expect(unset(quoted, 'providers.openai.models."gpt-4.1".context_window')).toBe('[providers.openai.models."gpt-4o"]\ncontext_window = 500\n');
    expect(unset('[a]\nb = 1\n\n[providers.openai]\nmodels."gpt-4.1".context_window = 5\n', 'providers.openai.models."gpt-4.1".context_window')).toBe('[a]\nb = 1\n\n');
  });

  it('takes a whole table out with its section, or a key out of an inline table', () => {
    const text = '[mcp.a]\ncommand = "x"\nenv = { A = "1", B = "2" }\n\n[mcp.a.env_from]\nT = "V"\n\n[mcp.b]\ncommand = "y"\n';
    expect(unset(text, 'mcp.a')).toBe('[mcp.b]\ncommand = "y"\n');
    expect(unset(text, 'mcp.a.env.A')).toBe(text.replace('{ A = "1", B = "2" }', '{ B = "2" }'));
  });

  it('says when the file does not set the key, and refuses arrays of tables', () => {
    expect(unset('[assistant]\nmodel = "echo"\n', 'assistant.max_tokens')).toBeUndefined();
    expect(unset('', 'assistant.model')).toBeUndefined();
    expect(() => unset('[[x]]\na = 1\n', 'x')).toThrow(/array of tables/);
  });

  it("keeps every comment of jp init's file after a set key is unset", () => {
    const withModel = INIT_CONFIG.replace(/^(\[assistant\].*)$/m, '$1\nmax_tokens = 5');
    if (withModel === INIT_CONFIG) return expect.unreachable('the template has no [assistant] table');
    expect(unset(withModel, 'assistant.max_tokens')).toBe(INIT_CONFIG);
  });
});
