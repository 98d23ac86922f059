const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text as HTML character data or an attribute value: markup characters become entities. C0
 * controls other than tab and newline (and DEL) are dropped: HTML cannot carry most of them, and
 * untrusted text gets no say in what the page shows beyond its characters.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}
