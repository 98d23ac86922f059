import type { Ajv as AjvClass } from 'ajv';

/**
 * Loads Ajv (a JSON Schema validator) on first use. Ajv is CommonJS; depending on who loads it —
 * Node's ESM interop under tests, the bundler's in the built binary — the class arrives as the
 * named export, as `default`, or as `default.default`, so all three are tried.
 */
export async function loadAjv(): Promise<typeof AjvClass> {
  const mod = (await import('ajv')) as unknown as Record<string, unknown> & { default?: Record<string, unknown> };
  const candidates = [mod.Ajv, mod.default?.Ajv, mod.default?.default, mod.default];
  const found = candidates.find((candidate) => typeof candidate === 'function');
  if (found === undefined) throw new Error('the JSON Schema validator (ajv) could not be loaded');
  return found as typeof AjvClass;
}

/**
 * A validator as jp uses one: every error reported, unknown keywords allowed, and `format` taken as
 * an annotation, as JSON Schema 2020-12 does by default — so a schema naming formats Ajv does not
 * know (`uri`, `email`, …) compiles without Ajv printing "unknown format … ignored" on stderr.
 * Its logger is silent all the same: the errors that matter are thrown or returned (RFD 010).
 */
export async function createAjv(): Promise<InstanceType<typeof AjvClass>> {
  const Ajv = await loadAjv();
  return new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false });
}
