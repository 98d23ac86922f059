import { localDir } from '../workspace/local-state.ts';
import { spawn } from 'node:child_process';
import { isJpError, JpError } from '@jp/core';
import path from 'node:path';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readConfigFiles, resolveConfig } from '../config/load-config.ts';
import { conversationConfig, conversationLayers } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import type { ModelPrice } from '../html-view/model-prices.ts';
import { turnModels } from '../html-view/turn-models.ts';
import { catalogModel } from '../models/model-catalog.ts';
import type { Config } from '../config/config-schema.ts';
import { parseModelId } from '@jp/providers';
import { BlobPrefixReader } from '../store/blob-prefix-reader.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';

export interface HtmlOptions {
  output?: string | undefined;
  open?: boolean | undefined;
}

/** The price of each model the conversation used, by `provider/model`, as the model catalog knows it (RFD 031). */
function catalogPrices(config: Config, models: ReadonlyArray<string | undefined>): Record<string, ModelPrice> {
  const prices: Record<string, ModelPrice> = {};
  for (const id of new Set(models)) {
    if (id === undefined) continue;
    let parsed: { provider: string; model: string };
    try {
      parsed = parseModelId(id);
    } catch {
      continue;
    }
    const price = catalogModel(config, parsed.provider, parsed.model)?.price;
    if (price !== undefined) prices[id] = { input: price.input, output: price.output, cacheRead: price.cacheRead ?? price.input, cacheWrite: price.cacheWrite ?? price.input };
  }
  return prices;
}

/**
 * `jp conversation show --html`: the conversation as one self-contained HTML file (RFD 022),
 * written atomically to `-o FILE` (default `.jp/local/html/<id>.html`, which git ignores; `-` is
 * stdout); its path is printed.
 * Only the content the page shows is read.
 */
export async function conversationShowHtml(globals: GlobalOptions, idArg: string | undefined, hint: string, options: HtmlOptions): Promise<void> {
  const { store, output, cwd } = workspaceContext(globals);
  const id = selectConversation(store, idArg, hint, { titles: true });
  const metadata = store.metadata(id);
  const { events, warnings } = await store.eventsWithoutContent(id);
  for (const warning of warnings) output.warn(warning);
  const baseConfig = store.baseConfig(id);
  const config = resolveConfig([...conversationLayers(readConfigFiles(store.jpDir), conversationConfig(id, baseConfig, events, metadata)), readCfgArgs(globals.cfg)]);
  const { renderConversationHtml } = await import('../html-view/render-conversation-html.ts');
  const html = renderConversationHtml({
    id,
    metadata,
    events,
    baseConfig,
    currentModel: config.assistant.model,
    prices: catalogPrices(config, turnModels(baseConfig, events, config.assistant.model)),
    reader: new BlobPrefixReader(store.blobs, id),
    generatedAt: new Date().toISOString(),
  });
  if (options.output === '-') {
    process.stdout.write(html);
    return;
  }
  // By default the page goes where git does not look: this machine's part of .jp/ (RFD 022).
  const file = options.output === undefined ? path.join(localDir(store.jpDir, 'html'), `${id}.html`) : path.resolve(cwd, options.output);
  writePage(file, options.output ?? path.relative(cwd, file), html);
  const shown = path.relative(cwd, file);
  if (output.json) output.data({ id, path: file });
  else output.line(shown !== '' && !shown.startsWith('..') && !path.isAbsolute(shown) ? shown : file);
  if (options.open) openInBrowser(file, (note) => output.note(note));
}

/** Writes the page atomically: a reader never sees half a page, and a failed write leaves no file. */
function writePage(file: string, given: string, html: string): void {
  try {
    writeFileAtomic(file, html);
  } catch (error) {
    // A full disk is already a one-line error naming the file and the cure (writeFailure).
    if (isJpError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such directory' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (code ?? (error as Error).message);
    throw new JpError(`cannot write ${given}: ${why}; pass -o with a file in a directory you can write to`, { code: 'write_failed', cause: error });
  }
}

/**
 * Opens the file in the system browser without waiting for it. On Linux and the BSDs a browser
 * needs a display: without DISPLAY or WAYLAND_DISPLAY nothing is started, and a note says so.
 * A failure to start the opener is a note too; the file is written either way.
 */
export function openInBrowser(file: string, note: (message: string) => void, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): void {
  let command: string;
  let args: string[];
  if (platform === 'darwin') [command, args] = ['open', [file]];
  else if (platform === 'win32') [command, args] = ['cmd', ['/c', 'start', '', file]];
  else {
    if (!env.DISPLAY && !env.WAYLAND_DISPLAY) {
      note(`jp: not opening ${file}: no display (DISPLAY and WAYLAND_DISPLAY are unset); open it in a browser yourself`);
      return;
    }
    [command, args] = ['xdg-open', [file]];
  }
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', env });
    child.on('error', (error: NodeJS.ErrnoException) => note(`jp: could not open ${file} with ${command} (${error.code ?? error.message}); open it in a browser yourself`));
    child.unref();
  } catch (error) {
    note(`jp: could not open ${file} with ${command} (${(error as Error).message}); open it in a browser yourself`);
  }
}
