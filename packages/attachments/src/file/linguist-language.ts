import path from 'node:path';
import type { Language } from 'linguist-languages';

/** What jp needs of a GitHub Linguist language. */
export interface SourceLanguage {
  /** Linguist's name, e.g. `Rust`, `C++`. */
  name: string;
  /** `programming`, `markup`, `data` or `prose`. */
  type: string;
  /** A Markdown fence tag: lowercase, `[a-z0-9.-]` only (`rust`, `cpp`, `csharp`, `common-lisp`). */
  fence: string;
}

/**
 * Linguist lists many extensions under several languages and settles them with content heuristics
 * we do not run. These are the everyday answers for the collisions a programmer meets; any other
 * collision goes to the language whose primary extension it is, then to code over data and prose.
 */
const PREFERRED: Record<string, string> = {
  '.h': 'C',
  '.m': 'Objective-C',
  '.pl': 'Perl',
  '.pm': 'Perl',
  '.t': 'Perl',
  '.rs': 'Rust',
  '.md': 'Markdown',
  '.sql': 'SQL',
  '.yaml': 'YAML',
  '.yml': 'YAML',
  '.json': 'JSON',
  '.txt': 'Text',
  '.fs': 'F#',
  '.r': 'R',
  '.d': 'D',
  '.cs': 'C#',
  '.html': 'HTML',
  '.ml': 'OCaml',
  '.php': 'PHP',
  '.ex': 'Elixir',
  '.lisp': 'Common Lisp',
  '.sc': 'Scala',
  '.asm': 'Assembly',
  '.s': 'Assembly',
  '.gd': 'GDScript',
  '.v': 'Verilog',
  '.cl': 'OpenCL',
};

const TYPE_RANK: Record<string, number> = { programming: 0, markup: 1, data: 2, prose: 3 };
const FENCE_TOKEN = /^[a-z0-9][a-z0-9.-]*$/;

/** Linguist's default alias (lowercase name, spaces as `-`) when it is a clean token, else a clean alias. */
export function fenceName(language: Pick<Language, 'name' | 'aliases'>): string {
  const lowered = language.name.toLowerCase().replace(/\s+/g, '-');
  if (FENCE_TOKEN.test(lowered)) return lowered;
  const alias = language.aliases?.find((candidate) => FENCE_TOKEN.test(candidate));
  if (alias !== undefined) return alias;
  return lowered
    .replace(/\+/g, 'p')
    .replace(/#/g, 'sharp')
    .replace(/\*/g, 'star')
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface Candidate {
  language: SourceLanguage;
  primary: boolean;
  order: number;
}

interface LanguageIndex {
  byFilename: Map<string, SourceLanguage>;
  byExtension: Map<string, SourceLanguage>;
  longestExtension: number;
}

let index: Promise<LanguageIndex> | undefined;

/** Loads Linguist's data (about 1 700 small modules) on first use and indexes it once. */
function languageIndex(): Promise<LanguageIndex> {
  index ??= import('linguist-languages').then((all) => buildIndex(Object.values(all) as Language[]));
  return index;
}

function better(a: Candidate, b: Candidate): boolean {
  if (a.primary !== b.primary) return a.primary;
  const rankA = TYPE_RANK[a.language.type] ?? 4;
  const rankB = TYPE_RANK[b.language.type] ?? 4;
  if (rankA !== rankB) return rankA < rankB;
  return a.order < b.order;
}

function buildIndex(languages: readonly Language[]): LanguageIndex {
  const byExtension = new Map<string, Candidate>();
  const byFilename = new Map<string, SourceLanguage>();
  const named = new Map<string, SourceLanguage>();
  let longestExtension = 0;
  languages.forEach((language, order) => {
    const entry: SourceLanguage = { name: language.name, type: language.type, fence: fenceName(language) };
    named.set(language.name, entry);
    (language.extensions ?? []).forEach((extension, position) => {
      const key = extension.toLowerCase();
      longestExtension = Math.max(longestExtension, key.split('.').length - 1);
      const candidate = { language: entry, primary: position === 0, order };
      const current = byExtension.get(key);
      if (current === undefined || better(candidate, current)) byExtension.set(key, candidate);
    });
    for (const filename of language.filenames ?? []) {
      if (!byFilename.has(filename)) byFilename.set(filename, entry);
    }
  });
  const resolved = new Map<string, SourceLanguage>();
  for (const [extension, candidate] of byExtension) {
    const preferred = PREFERRED[extension];
    resolved.set(extension, (preferred !== undefined ? named.get(preferred) : undefined) ?? candidate.language);
  }
  return { byFilename, byExtension: resolved, longestExtension };
}

/** A lookup from a file name to its Linguist language, once the data is loaded. */
export type LanguageLookup = (filePath: string) => SourceLanguage | undefined;

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
    return (filePath: string): SourceLanguage | undefined => {
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
  });
  return lookup;
}

/** The Linguist language of a file from its name (see `loadLanguageLookup`). */
export async function languageForPath(filePath: string): Promise<SourceLanguage | undefined> {
  return (await loadLanguageLookup())(filePath);
}
