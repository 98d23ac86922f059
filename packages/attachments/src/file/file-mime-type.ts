import path from 'node:path';
import { fenceLanguage, TEXTUAL_APPLICATION_TYPES } from '@jp/core';
import { REGISTERED_MIME_TYPES_JSON } from './generated/registered-mime-types.ts';
import { loadLanguageLookup, type LanguageLookup, type SourceLanguage } from './linguist-language.ts';

const STRUCTURED_APPLICATION = /^application\/[^/]+\+(?:json|xml|yaml)$/;

function isCode(language: SourceLanguage | undefined): language is SourceLanguage {
  return language !== undefined && (language.type === 'programming' || language.type === 'markup');
}

const sourceType = (language: SourceLanguage): string => `text/x-${language.fence}`;

let registeredByExtension: Record<string, string> | undefined;

/**
 * mime-types' answers by extension, parsed from the generated table on first use. The table
 * (`pnpm --filter @jp/attachments generate`) spares every run loading mime-db's 180 KB of JSON and
 * indexing its types; it is JSON text because a string costs next to nothing until parsed and
 * V8 parses JSON faster than the same object literal.
 */
function registeredTypes(): Record<string, string> {
  registeredByExtension ??= JSON.parse(REGISTERED_MIME_TYPES_JSON) as Record<string, string>;
  return registeredByExtension;
}

/**
 * The registered type for a file name (mime-types' database), if any. Like mime-types' `lookup`,
 * this decides by the lowercased extension alone (`extname('x.' + path)`), so a bare extension
 * (`json`), a dotfile (`.json`) and a path (`a/b.JSON`) all give `application/json`.
 */
export function registeredMimeType(filePath: string): string | undefined {
  const extension = path.extname(`x.${filePath}`).toLowerCase().slice(1);
  const types = registeredTypes();
  // Own keys only: `x.constructor` has no registered type.
  return Object.hasOwn(types, extension) ? types[extension] : undefined;
}

/**
 * The MIME type of a file whose content is text. mime-types alone gets source code wrong (`.ts` is
 * `video/mp2t`, `.rs` is `application/rls-services+xml`), so GitHub Linguist's language for the
 * name decides whenever the registered type is not a text type that already names the language:
 * 1. a registered textual `application/` type (json, xml, javascript, yaml, toml, sql, sh) wins;
 * 2. a registered `text/` type wins unless the file is code and the type is vague about it
 *    (`text/x-c` for `.cpp`, `text/jsx`): then `text/x-<linguist fence name>` (`text/x-cpp`);
 * 3. code of any other registered type (or none) → `text/x-<language>` (`.rs` → `text/x-rust`);
 * 4. a structured `application/*+json|xml|yaml` type → itself;
 * 5. data or prose Linguist knows → `text/x-<language>`; anything else → `text/plain`.
 */
export async function textMimeType(filePath: string): Promise<string> {
  return (await loadFileMimeTypes()).of(filePath).text;
}

/** Registered types of binary formats: a file of one keeps it even when its bytes decode as text. */
const BINARY_MEDIA = /^(?:application\/pdf|image\/(?!svg\+xml$)[^/]+|audio\/[^/]+|video\/[^/]+|font\/[^/]+)$/;

/** How the file handler types one file's content, by its name. */
export interface FileTypes {
  /** `textMimeType`: the type when the content is text. */
  text: string;
  /**
   * The registered type of a binary format (PDF, images but SVG, audio, video, fonts) when
   * Linguist knows no language by the name, else `undefined`. Such a file stays a blob even when
   * its bytes happen to be valid UTF-8, as a hand-written PDF's are; `.ts` (`video/mp2t`) is
   * TypeScript because Linguist knows it.
   */
  media: string | undefined;
}

/** The file handler's types, once Linguist's data is loaded (synchronous, for many files). */
export interface FileMimeTypes {
  of(filePath: string): FileTypes;
}

let loaded: Promise<FileMimeTypes> | undefined;

export function loadFileMimeTypes(): Promise<FileMimeTypes> {
  loaded ??= loadLanguageLookup().then((languageOf) => {
    // A tree repeats a handful of extensions thousands of times: both answers depend only on the
    // name's key (`LanguageLookup.key`), so they are worked out once per key.
    const known = new Map<string, FileTypes>();
    const of = (filePath: string): FileTypes => {
      const key = languageOf.key(filePath);
      let types = known.get(key);
      if (types === undefined) {
        const registered = registeredMimeType(filePath);
        const media = registered !== undefined && BINARY_MEDIA.test(registered) && languageOf(filePath) === undefined ? registered : undefined;
        types = { text: textMimeTypeWith(languageOf, filePath), media };
        if (known.size < 1000) known.set(key, types);
      }
      return types;
    };
    return { of };
  });
  return loaded;
}

function textMimeTypeWith(languageOf: LanguageLookup, filePath: string): string {
  const registered = registeredMimeType(filePath);
  if (registered !== undefined && TEXTUAL_APPLICATION_TYPES.has(registered)) return registered;
  const language = languageOf(filePath);
  if (registered?.startsWith('text/')) {
    if (!isCode(language)) return registered;
    const vague = registered.startsWith('text/x-') || fenceLanguage(registered) === '';
    return vague ? sourceType(language) : registered;
  }
  if (isCode(language)) return sourceType(language);
  if (registered !== undefined && STRUCTURED_APPLICATION.test(registered)) return registered;
  return language !== undefined ? sourceType(language) : 'text/plain';
}

/** The MIME type of a file whose content is binary: the registered type or `application/octet-stream`. */
export function binaryMimeType(filePath: string): string {
  return registeredMimeType(filePath) ?? 'application/octet-stream';
}
