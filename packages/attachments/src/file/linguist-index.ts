import type { Language } from 'linguist-languages';
import type { SourceLanguage } from './linguist-language.ts';

/**
 * How jp settles Linguist's data into one language per file name. Only the table generator
 * (`generate-file-tables.ts`) and tests import this module: at run time jp reads the result from
 * `generated/linguist-table.ts` instead of loading and indexing all of Linguist's languages.
 */

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

/** The index as built: the tables a run reads (`LanguageIndex`), as maps the generator can walk. */
export interface BuiltIndex {
  byFilename: Map<string, SourceLanguage>;
  byExtension: Map<string, SourceLanguage>;
  longestExtension: number;
}

interface Candidate {
  language: SourceLanguage;
  primary: boolean;
  order: number;
}

function better(a: Candidate, b: Candidate): boolean {
  if (a.primary !== b.primary) return a.primary;
  const rankA = TYPE_RANK[a.language.type] ?? 4;
  const rankB = TYPE_RANK[b.language.type] ?? 4;
  if (rankA !== rankB) return rankA < rankB;
  return a.order < b.order;
}

/**
 * Indexes Linguist's languages, in the order `Object.values(await import('linguist-languages'))`
 * gives them (the order breaks the last ties): exact filenames (the first language to list one
 * keeps it) and lowercased extensions, with collisions settled as `PREFERRED` describes.
 */
export function buildIndex(languages: readonly Language[]): BuiltIndex {
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
