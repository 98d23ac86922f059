import path from 'node:path';
// How the table is built; re-exported for the tests that check every language's fence tag.
export { fenceName } from './linguist-index.ts';

/** What jp needs of a GitHub Linguist language. */
export interface SourceLanguage {
  /** Linguist's name, e.g. `Rust`, `C++`. */
  name: string;
  /** `programming`, `markup`, `data` or `prose`. */
  type: string;
  /** A Markdown fence tag: lowercase, `[a-z0-9.-]` only (`rust`, `cpp`, `csharp`, `common-lisp`). */
  fence: string;
}

/** One of the index's tables: a key's language, if any (a `Map` is one). */
export interface LanguageTable {
  get(key: string): SourceLanguage | undefined;
}

/** The language tables at run time, already settled (see `linguist-index.ts` for how). */
export interface LanguageIndex {
  /** Exact file names (`Makefile`, `Dockerfile`), case-sensitive. */
  byFilename: LanguageTable;
  /** Lowercased extensions with their dot (`.rs`, `.blade.php`, `.bashrc`). */
  byExtension: LanguageTable;
  /** The most dot-separated parts any extension has (`.blade.php` has 2). */
  longestExtension: number;
}

/** The generated module's exports (`generated/linguist-table.ts`). */
export interface LinguistTable {
  LONGEST_EXTENSION: number;
  LANGUAGES_JSON: string;
  EXTENSIONS_JSON: string;
  FILENAMES_JSON: string;
}

/**
 * Reads the generated table. Its JSON parses straight into plain objects whose own keys are the
 * table's (hence `Object.hasOwn`: `constructor` is no file name), with no map to fill: cold code
 * filling a few thousand map entries took longer than parsing.
 */
export function languageIndexFromTable(table: LinguistTable): LanguageIndex {
  const languages = JSON.parse(table.LANGUAGES_JSON) as SourceLanguage[];
  const tableOf = (json: string): LanguageTable => {
    const positions = JSON.parse(json) as Record<string, number>;
    return {
      get: (key) => {
        const at = Object.hasOwn(positions, key) ? positions[key] : undefined;
        return at === undefined ? undefined : languages[at];
      },
    };
  };
  return {
    byFilename: tableOf(table.FILENAMES_JSON),
    byExtension: tableOf(table.EXTENSIONS_JSON),
    longestExtension: table.LONGEST_EXTENSION,
  };
}

let index: Promise<LanguageIndex> | undefined;

/**
 * Loads the language table on first use. It is generated from Linguist's data
 * (`pnpm --filter @jp/attachments generate`) so that a run neither loads Linguist's ~800
 * languages nor settles their collisions: commands that attach no file never load it at all.
 */
function languageIndex(): Promise<LanguageIndex> {
  index ??= import('./generated/linguist-table.ts').then(languageIndexFromTable);
  return index;
}

/** A lookup from a file name to its Linguist language, once the data is loaded. */
export type LanguageLookup = ((filePath: string) => SourceLanguage | undefined) & {
  /**
   * The part of a file's name its language and registered type depend on: the name itself when
   * Linguist knows it exactly (`Makefile`), else its lowercased part from the first dot on (or
   * the whole lowercased name, without a dot; a dotfile's is marked apart, as its first dot starts
   * no extension). Files with the same key are typed alike.
   */
  key: (filePath: string) => string;
};

let lookup: Promise<LanguageLookup> | undefined;

/**
 * Loads the language data once and returns a synchronous lookup: an exact filename (`Makefile`,
 * `Dockerfile`), then the file's longest known extension (`.blade.php` before `.php`),
 * case-insensitively.
 */
export function loadLanguageLookup(): Promise<LanguageLookup> {
  lookup ??= languageIndex().then(({ byFilename, byExtension, longestExtension }) => {
    const byTail = (tail: string): SourceLanguage | undefined => {
      const parts = tail.split('.');
      // parts[0] is the stem (empty for dotfiles such as `.bashrc`, which count as an extension).
      for (let take = Math.min(longestExtension, parts.length - 1); take >= 1; take--) {
        const language = byExtension.get(`.${parts.slice(parts.length - take).join('.')}`);
        if (language !== undefined) return language;
      }
      return undefined;
    };
    // A tree repeats a handful of extensions thousands of times: the answer for a name without an
    // exact match depends only on its lowercased part from the first dot on.
    const tails = new Map<string, SourceLanguage | undefined>();
    const key = (filePath: string): string => {
      const base = path.basename(filePath);
      if (byFilename.get(base) !== undefined) return `=${base}`;
      const dot = base.indexOf('.');
      if (dot === -1) return `-${base.toLowerCase()}`;
      // A dotfile's first dot starts no extension (`path.extname('.json')` is ''): `.json` is not typed as `a.json`.
      return dot === 0 ? `.${base.toLowerCase()}` : base.slice(dot).toLowerCase();
    };
    const languageOf = (filePath: string): SourceLanguage | undefined => {
      const base = path.basename(filePath);
      const exact = byFilename.get(base);
      if (exact !== undefined) return exact;
      const dot = base.indexOf('.');
      if (dot === -1) return undefined;
      const tail = base.slice(dot).toLowerCase();
      if (tails.has(tail)) return tails.get(tail);
      const language = byTail(tail);
      if (tails.size < 1000) tails.set(tail, language);
      return language;
    };
    return Object.assign(languageOf, { key });
  });
  return lookup;
}

/** The Linguist language of a file from its name (see `loadLanguageLookup`). */
export async function languageForPath(filePath: string): Promise<SourceLanguage | undefined> {
  return (await loadLanguageLookup())(filePath);
}
