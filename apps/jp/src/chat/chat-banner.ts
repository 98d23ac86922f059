import type { CommandContext } from '../cli/command-context.ts';
import type { GlobalOptions } from '../cli/global-options.ts';
import { fileLayers, readCfgArgs, readConfigFiles, resolveConfig } from '../config/load-config.ts';
import { conversationConfig, conversationLayers } from '../conversation/conversation-config.ts';
import { defaultModel } from '../turn/default-model.ts';

/** The chat's first line: who answers, where, and how to go on. */
export interface BannerFacts {
  id: string | undefined;
  title: string | undefined;
  /** The model the next message goes to; `none` when none is configured yet, `unknown` when the configuration did not load. */
  model: string | 'none' | 'unknown';
}

/**
 * The model the chat's next message goes to, as its turn would settle it: `-m`/`/model`, else the
 * conversation's configuration (the files now, its own keys, `-c`), else the default a single
 * provider key picks. `none` when none would be chosen (the turn then says what to do).
 */
export async function nextModel(ctx: CommandContext, globals: GlobalOptions, id: string | undefined, chosen: string | undefined): Promise<string | 'none'> {
  if (chosen !== undefined) return chosen;
  const files = readConfigFiles(ctx.workspace.jpDir);
  let layers = fileLayers(files);
  if (id !== undefined) {
    // Warnings about the stream are the turn's to give, once.
    const scanned = await ctx.store.scan(id);
    layers = conversationLayers(files, conversationConfig(id, ctx.store.baseConfig(id), scanned.configEvents, ctx.store.readableMetadata(id)));
  }
  const config = resolveConfig([...layers, readCfgArgs(globals.cfg)]);
  if (config.assistant.model !== undefined) return config.assistant.model;
  try {
    return defaultModel(config, process.env).model;
  } catch {
    return 'none';
  }
}

/** `jp: chatting with MODEL in ID ("TITLE"); …`: untrusted parts (the title) are made visible by the note that prints it. */
export function chatBanner(facts: BannerFacts): string {
  const who = facts.model === 'unknown' ? '' : facts.model === 'none' ? ' with no model configured yet (/model ID picks one)' : ` with ${facts.model}`;
  const where = facts.id === undefined ? 'a new conversation' : facts.title === undefined ? facts.id : `${facts.id} (“${facts.title}”)`;
  return `jp: chatting${who} in ${where}; /help lists the commands, Ctrl-D leaves`;
}
