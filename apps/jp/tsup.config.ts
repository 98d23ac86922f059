import path from 'node:path';
import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * zod re-exports all of its ~60 message locales as `z.locales` and `core.locales`; a namespace
 * re-export cannot be tree-shaken, so they would be half of zod's bundled code (~360 KB), parsed on
 * every start of `jp query`. jp uses only English, which zod installs itself (classic/schemas.js
 * imports locales/en.js directly): the namespace becomes one holding `en` alone.
 */
const zodEnglishOnly: EsbuildPlugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)) return undefined;
      return { path: path.join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-english-only' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

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
  esbuildPlugins: [zodEnglishOnly],
  // Bundled CommonJS dependencies call require(); ESM chunks need one defined.
  banner: { js: "import { createRequire as __jpCreateRequire } from 'node:module'; const require = __jpCreateRequire(import.meta.url);" },
});
