// No zod here: shell completion reads declarations without loading it (the schema is in config-schema.ts).

/** How a declaration's files are watched between turns (RFD 020, "Freshness notices"). */
export type RefreshPolicy = 'notify' | 'manual';

/**
 * One entry of `conversation.attachments`: what to attach, as a string, or as a table that also
 * says how it is watched (`{ url = "src/", refresh = "manual" }`). A table without `refresh`
 * follows `conversation.attachment.refresh`.
 */
export type AttachmentDeclaration = string | { url: string; refresh?: RefreshPolicy | undefined };

/** What a declaration attaches. */
export function declarationUrl(declaration: AttachmentDeclaration): string {
  return typeof declaration === 'string' ? declaration : declaration.url;
}

/** What every declaration attaches, in order. */
export function declarationUrls(declarations: readonly AttachmentDeclaration[]): string[] {
  return declarations.map(declarationUrl);
}

/** A declaration's refresh policy: its own, else the global one. */
export function declarationRefresh(declaration: AttachmentDeclaration, global: RefreshPolicy): RefreshPolicy {
  return typeof declaration === 'string' ? global : (declaration.refresh ?? global);
}

/** Whether a value is a declaration's table form (a config delta may hold either form). */
export function isDeclarationTable(value: unknown): value is { url: string; refresh?: RefreshPolicy } {
  return typeof value === 'object' && value !== null && typeof (value as { url?: unknown }).url === 'string';
}
