import { defineConfig } from 'tsup';

// One ESM entry with split chunks: start-up loads only the entry and commander; every command,
// zod, the provider SDKs and the MCP client arrive as chunks imported when a command needs them.
export default defineConfig({
  entry: { jp: 'src/jp.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: true,
  bundle: true,
  noExternal: [/.*/],
  clean: true,
  sourcemap: false,
  minify: false,
  treeshake: true,
  // Bundled CommonJS dependencies call require(); ESM chunks need one defined.
  banner: { js: "import { createRequire as __jpCreateRequire } from 'node:module'; const require = __jpCreateRequire(import.meta.url);" },
});
