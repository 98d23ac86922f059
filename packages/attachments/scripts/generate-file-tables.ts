// Rewrites the generated tables under src/file/generated/ from the installed mime-types and
// linguist-languages. Run it with `pnpm --filter @jp/attachments generate` after updating either
// library, and commit the result: src/file/generate-file-tables.test.ts fails until you do.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateFileTables } from '../src/file/generate-file-tables.ts';

const directory = new URL('../src/file/', import.meta.url);
for (const file of generateFileTables()) {
  const target = new URL(file.path, directory);
  await mkdir(new URL('.', target), { recursive: true });
  await writeFile(target, file.text);
  console.log(`wrote ${fileURLToPath(target)} (${Buffer.byteLength(file.text)} bytes)`);
}
