import MarkdownIt from 'markdown-it';
import type { RenderStyles } from './render-styles.ts';

let parser: InstanceType<typeof MarkdownIt> | undefined;
const markdown = () => (parser ??= new MarkdownIt('commonmark', { html: false, linkify: false }).enable('strikethrough'));

/**
 * One line of Markdown's inline syntax (emphasis, code, links) as styled text. The text is
 * already made visible (no control characters); only the renderer's styles add escapes. A link
 * is its text and then its URL, as plain text: no OSC 8.
 */
export function renderInline(text: string, styles: RenderStyles): string {
  if (!/[*_`[~<&\\!]/.test(text)) return text;
  const tokens = markdown().parseInline(text, {})[0]?.children ?? [];
  const stack: Array<{ kind: string; text: string; href?: string }> = [{ kind: 'root', text: '' }];
  const append = (part: string) => {
    stack[stack.length - 1]!.text += part;
  };
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
        append(token.content);
        break;
      case 'code_inline':
        append(styles.code(token.content));
        break;
      case 'softbreak':
      case 'hardbreak':
        append(' ');
        break;
      case 'image':
        append(`[image: ${token.content || token.attrGet('src') || ''}]`);
        break;
      case 'strong_open':
      case 'em_open':
      case 's_open':
        stack.push({ kind: token.type, text: '' });
        break;
      case 'link_open':
        stack.push({ kind: token.type, text: '', href: String(token.attrGet('href') ?? '') });
        break;
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close': {
        const open = stack.length > 1 ? stack.pop()! : { kind: 'root', text: '' };
        if (open.kind === 'strong_open') append(styles.strong(open.text));
        else if (open.kind === 'em_open') append(styles.em(open.text));
        else if (open.kind === 's_open') append(styles.strike(open.text));
        else if (open.kind === 'link_open') {
          const href = open.href ?? '';
          append(href === '' || href === open.text || `mailto:${open.text}` === href ? styles.link(open.text) : `${styles.link(open.text)} (${styles.url(href)})`);
        } else append(open.text);
        break;
      }
      default:
        append(token.content ?? '');
    }
  }
  while (stack.length > 1) {
    const open = stack.pop()!;
    append(open.text);
  }
  return stack[0]!.text;
}
