import type TurndownService from 'turndown';

/** What a model reads instead of raw HTML. */
export interface HtmlRendering {
  /** The page as Markdown; `undefined` when nothing readable is left (a page built by scripts). */
  markdown: string | undefined;
  /** The document's `<title>`, whitespace collapsed, if it has one. */
  title: string | undefined;
}

type TurndownNode = Parameters<TurndownService.ReplacementFunction>[1];

/** Markdown-escapes the parentheses of a link target, as turndown does. */
const linkTarget = (href: string): string => href.replace(/([()])/g, '\\$1');

/** An attribute on one line, as turndown's own rules clean it. */
const cleanAttribute = (value: string | null): string => (value ?? '').replace(/(\n+\s*)+/g, '\n');

function absolute(reference: string, base: string): string {
  try {
    return new URL(reference, base).href;
  } catch {
    return reference;
  }
}

function insideSvg(node: TurndownNode): boolean {
  for (let parent = node.parentNode; parent !== null; parent = parent.parentNode) {
    if (parent.nodeName.toLowerCase() === 'svg') return true;
  }
  return false;
}

/**
 * Renders HTML as Markdown with turndown (loaded on first use): ATX headings, fenced code, `-`
 * bullets. Scripts, styles, inline SVG and other non-content elements are dropped, the `<title>` is taken out
 * as `title` rather than left as a stray first line, and relative link and image targets are made
 * absolute against `baseUrl` (the URL the page was finally fetched from), so they still lead
 * somewhere once the page is read out of context.
 */
export async function htmlToMarkdown(html: string, baseUrl: string): Promise<HtmlRendering> {
  const { default: Turndown } = await import('turndown');
  const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  // Typed as HTML tag names once a DOM lib is in the program (highlight.js brings one); svg is not one.
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'svg'] as Parameters<typeof service.remove>[0]);

  let title: string | undefined;
  service.addRule('documentTitle', {
    filter: (node) => node.nodeName === 'TITLE' && !insideSvg(node),
    replacement: (_content, node) => {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (title === undefined && text !== '') title = text;
      return '';
    },
  });
  service.addRule('absoluteLink', {
    filter: (node, options) => options.linkStyle !== 'referenced' && node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const href = absolute(node.getAttribute('href') ?? '', baseUrl);
      const linkTitle = cleanAttribute(node.getAttribute('title'));
      return `[${content}](${linkTarget(href)}${linkTitle === '' ? '' : ` "${linkTitle.replace(/"/g, '\\"')}"`})`;
    },
  });
  service.addRule('absoluteImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const src = node.getAttribute('src') ?? '';
      if (src === '') return '';
      const alt = cleanAttribute(node.getAttribute('alt'));
      const imageTitle = cleanAttribute(node.getAttribute('title'));
      return `![${alt}](${linkTarget(absolute(src, baseUrl))}${imageTitle === '' ? '' : ` "${imageTitle}"`})`;
    },
  });

  const markdown = service.turndown(html).trim();
  return { markdown: markdown === '' ? undefined : markdown, title };
}
