import { readdirSync } from 'node:fs';

/**
 * Characters that may make an attachment a glob (ARCHITECTURE §4). A guess: the file handler
 * decides with tinyglobby's `isDynamicPattern` (file-target.ts), which this start-up path does not
 * load, and a wrong guess only starts or skips a reader ahead of time.
 */
const GLOB = /[*?[{]/;

/**
 * The values of one option among the arguments (`-a X`, `--attach X`, `--attach=X`), in order,
 * read before commander parses them: a guess, good enough to decide whether to start something
 * early.
 */
export function optionValues(args: readonly string[], short: string, long: string): string[] {
  const values: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const arg = args[k]!;
    if (arg === '--') break;
    if ((arg === short || arg === long) && k + 1 < args.length) values.push(args[++k]!);
    else if (arg.startsWith(`${long}=`)) values.push(arg.slice(long.length + 1));
  }
  return values;
}

/** The `--attach` values among the arguments. */
export function attachValues(args: readonly string[]): string[] {
  return optionValues(args, '-a', '--attach');
}

/** Entries in a directory without subdirectories from which it counts as a tree anyway. */
const MANY_ENTRIES = 64;

/**
 * Whether an attachment is likely to expand to many files: a glob, or a directory holding
 * subdirectories or many entries (one listing of it, no walk). A directory of a few files, the
 * common small case, starts nothing.
 */
function mayBeTree(value: string): boolean {
  if (value === '-' || /^[a-z][a-z0-9+.-]*:/i.test(value)) return false; // stdin, URLs, external:
  if (GLOB.test(value)) return true;
  let entries;
  try {
    entries = readdirSync(value, { withFileTypes: true });
  } catch {
    return false; // a file, or nothing: the command says what is wrong
  }
  return entries.length >= MANY_ENTRIES || entries.some((entry) => entry.isDirectory() && !entry.name.startsWith('.'));
}

/**
 * Starts the file reader thread at once when the command line attaches a directory or glob, so
 * it boots while the command's modules load, on a core that has nothing else to do then; the
 * walk hands it the files as it finds them (RFD 002). A wrong guess costs a thread that boots and
 * is ended with the process.
 */
export async function warmStart(args: readonly string[]): Promise<void> {
  const trees = attachValues(args).filter((value) => mayBeTree(value));
  if (trees.length === 0) return;
  // Loaded only now: a query attaching a few files loads no worker module at all.
  const { warmReaderThread } = await import('@jp/attachments/reader-threads');
  warmReaderThread();
  // A directory is walked, and its files given to that reader, while the command's modules load.
  const { beginEarlyTree } = await import('../resolution/early-tree-start.ts');
  await beginEarlyTree({
    attached: trees,
    // The last one wins, as in commander.
    workspace: optionValues(args, '-w', '--workspace').at(-1),
    persist: !args.includes('--no-persist') && !args.includes('--explain'),
  });
}
