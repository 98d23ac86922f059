/**
 * The Markdown fence language for a MIME type. `text/x-<lang>` and `application/x-<lang>` name the
 * language themselves (jp's file handler writes source files that way); the table covers the
 * registered types whose subtype is not the language's fence name.
 */
const REGISTERED: Record<string, string> = {
  'application/json': 'json',
  'application/ld+json': 'json',
  'application/manifest+json': 'json',
  'application/schema+json': 'json',
  'application/javascript': 'javascript',
  'text/javascript': 'javascript',
  'application/typescript': 'typescript',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'image/svg+xml': 'xml',
  'application/xhtml+xml': 'html',
  'text/html': 'html',
  'text/css': 'css',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/toml': 'toml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'text/csv': 'csv',
  'application/sql': 'sql',
  'application/graphql': 'graphql',
  'application/x-sh': 'sh',
  'application/x-shellscript': 'sh',
  'text/x-shellscript': 'sh',
  'text/x-diff': 'diff',
  'text/x-patch': 'diff',
  'application/x-python': 'python',
  'text/x-c++src': 'cpp',
  'text/x-csrc': 'c',
  'text/x-chdr': 'c',
  'text/x-c++hdr': 'cpp',
  'text/x-java-source': 'java',
};

export function fenceLanguage(mimeType: string | undefined): string {
  if (!mimeType) return '';
  const essence = mimeType.split(';', 1)[0]!.trim().toLowerCase();
  const known = REGISTERED[essence];
  if (known !== undefined) return known;
  const custom = /^(?:text|application)\/x-([a-z0-9+#.-]+)$/.exec(essence);
  if (custom) return custom[1]!;
  if (essence.endsWith('+json')) return 'json';
  if (essence.endsWith('+xml')) return 'xml';
  return '';
}
