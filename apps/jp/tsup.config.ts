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

/**
 * `jp q` with no text opens the editor before the CLI loads (src/query/editor-first.ts). Node 20
 * pays for each module it loads (resolve, read, compile, link; no compile cache for ESM), and
 * the split build would load that path as some 45 chunks, most of its time before the editor. It
 * is built on its own as one file, `editor-first.js`, which jp.ts imports by that name.
 */
const editorFirstApart: EsbuildPlugin = {
  name: 'editor-first-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]editor-first\.ts$/ }, (args) => (args.kind === 'dynamic-import' ? { path: './editor-first.js', external: true } : undefined));
  },
};

/**
 * In the editor-first file, the modules its code imports lazily (the events' schemas, writing a
 * turn) are not there: the path before the editor reads what it needs without them, and one taken
 * anyway rejects, which leaves the query to the CLI (`editorFirst` returns `undefined`).
 */
const noLazyModules: EsbuildPlugin = {
  name: 'editor-first-no-lazy-modules',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'not-before-the-editor' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'not-before-the-editor' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not loaded before the editor (apps/jp/tsup.config.ts)`)});`,
      loader: 'js',
    }));
  },
};

const shared = {
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  bundle: true,
  noExternal: [/.*/],
  sourcemap: false,
  minify: false,
  treeshake: true,
  // Bundled CommonJS dependencies call require(); ESM chunks need one defined.
  banner: { js: "import { createRequire as __jpCreateRequire } from 'node:module'; const require = __jpCreateRequire(import.meta.url);" },
} satisfies Options;

export default defineConfig([
  // One ESM entry with split chunks: start-up loads only the entry and commander; every command,
  // zod, the provider SDKs and the MCP client arrive as chunks imported when a command needs them.
  // The two builds run side by side: this one's cleaning leaves the other's file alone.
  { ...shared, entry: { jp: 'src/jp.ts' }, splitting: true, clean: ['!editor-first.js'], esbuildPlugins: [zodEnglishOnly, editorFirstApart] },
  { ...shared, entry: { 'editor-first': 'src/query/editor-first.ts' }, splitting: false, clean: false, esbuildPlugins: [noLazyModules] },
]);
