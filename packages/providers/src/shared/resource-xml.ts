import { isTextResource, type LoadedResource } from '@jp/core';

/** Escapes a value for a double-quoted XML attribute. */
export function escapeXmlAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Wraps text in CDATA. The one sequence CDATA cannot hold, `]]>`, is split across two sections,
 * so any text survives byte for byte for a reader that joins the sections.
 */
export function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/**
 * A text resource as one XML element for providers that take resources as text (OpenAI, Gemini,
 * OpenAI-compatible chat): the identity in attributes (`uri`, `name`, `title`, `mimeType`), the
 * content — `formatted` when the producer supplied it, else the raw text — in CDATA.
 *
 * ```xml
 * <resource uri="file:///w/src/main.rs" name="src/main.rs" mimeType="text/x-rust"><![CDATA[fn main() {}]]></resource>
 * ```
 */
export function resourceToXml(resource: LoadedResource): string {
  const attributes: Array<[string, string | undefined]> = [
    ['uri', resource.uri],
    ['name', resource.name],
    ['title', resource.title],
    ['mimeType', resource.mimeType],
    ['description', resource.description],
  ];
  const attrs = attributes
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXmlAttribute(value)}"`)
    .join('');
  const body = resource.formatted ?? (isTextResource(resource) ? resource.text : '');
  return `<resource${attrs}>${cdata(body)}</resource>`;
}
