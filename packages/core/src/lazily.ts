/**
 * A value built on first use and kept. The core's zod schemas are built so: a schema built when
 * its module loads costs every command's start-up (zod's constructors run cold there, ~0.3 ms
 * each, and the core has about ninety), though a query needs none of them before it has read its
 * attachments (RFD 002, "Where it stands").
 */
export function lazily<T>(build: () => T): () => T {
  let value: { built: T } | undefined;
  return () => (value ??= { built: build() }).built;
}
