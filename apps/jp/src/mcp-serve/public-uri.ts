import { pathToFileURL } from 'node:url';

/*
 * Nothing `jp mcp serve` sends names an absolute path (RFD 021). The store already keeps external
 * files under their `external:` identity; what remains are the workspace's own `file:///<root>/…`
 * URIs, which leave as the workspace-relative form jp accepts for `--attach` (`file:src/a.ts`).
 */

/** How the server shows stored URIs and text about them, for one workspace root. */
export interface PathPrivacy {
  /** A stored resource URI as the server shows it. */
  uri(uri: string): string;
  /** A text jp wrote (a transcript's query, answer, tool arguments) with the workspace root taken out. */
  text(text: string): string;
}

export function pathPrivacy(root: string): PathPrivacy {
  const rootUrl = pathToFileURL(root).href.replace(/\/$/, '');
  const rootPath = root.replace(/\/$/, '');
  return {
    uri(uri) {
      if (!uri.startsWith('file://')) return uri;
      if (uri.startsWith(`${rootUrl}/`)) return `file:${uri.slice(rootUrl.length + 1)}`;
      if (uri === rootUrl) return 'file:.';
      // A file URI outside this root (the workspace moved since): only its name leaves.
      return `file:///…/${uri.slice(uri.lastIndexOf('/') + 1)}`;
    },
    text(text) {
      if (!text.includes(rootPath)) return text;
      return text.split(`${rootUrl}/`).join('file:').split(`${rootPath}/`).join('').split(rootPath).join('.');
    },
  };
}
