import { createColors } from 'picocolors';

/**
 * Every style the Markdown renderer paints with: jp's own SGR codes (picocolors'), and nothing
 * else. With colour off each is the identity: the layout stays, the escapes go.
 */
export interface RenderStyles {
  heading(text: string, level: number): string;
  strong(text: string): string;
  em(text: string): string;
  strike(text: string): string;
  code(text: string): string;
  link(text: string): string;
  url(text: string): string;
  quote(text: string): string;
  rule(text: string): string;
  marker(text: string): string;
  /** Reasoning shown with --show-reasoning. */
  dim(text: string): string;
  /** A highlighter token class (`keyword`, `string`, …); unknown classes stay plain. */
  token(kind: string, text: string): string;
}

const same = (text: string) => text;

export const PLAIN_RENDER: RenderStyles = {
  heading: same,
  strong: same,
  em: same,
  strike: same,
  code: same,
  link: same,
  url: same,
  quote: same,
  rule: same,
  marker: same,
  dim: same,
  token: (_kind, text) => text,
};

export function renderStyles(color: boolean): RenderStyles {
  if (!color) return PLAIN_RENDER;
  const c = createColors(true);
  const tokens: Record<string, (text: string) => string> = {
    keyword: c.magenta,
    built_in: c.cyan,
    type: c.cyan,
    literal: c.blue,
    number: c.yellow,
    string: c.green,
    regexp: c.red,
    comment: c.dim,
    doctag: c.dim,
    meta: c.dim,
    title: c.blue,
    'title.function': c.blue,
    'title.class': c.cyan,
    attr: c.yellow,
    attribute: c.yellow,
    variable: c.red,
    'template-variable': c.red,
    params: same,
    addition: c.green,
    deletion: c.red,
    section: c.bold,
    tag: c.blue,
    name: c.blue,
    symbol: c.yellow,
    property: c.cyan,
  };
  return {
    heading: (text, level) => (level <= 2 ? c.bold(c.magenta(text)) : c.bold(text)),
    strong: c.bold,
    em: c.italic,
    strike: c.strikethrough,
    code: c.cyan,
    link: c.underline,
    url: c.blue,
    quote: c.dim,
    rule: c.dim,
    marker: c.dim,
    dim: c.dim,
    token: (kind, text) => (tokens[kind] ?? tokens[kind.split('.')[0]!] ?? same)(text),
  };
}
