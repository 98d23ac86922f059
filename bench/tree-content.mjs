// The generated tree, shared by attach-tree.mjs and freshness.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The extensions the generated files cycle through (every tenth file is a .log instead). */
const EXTENSIONS = ['ts', 'rs', 'py', 'md', 'json', 'go', 'txt', 'c', 'yaml'];

/** Deterministic text of about `size` bytes, different for every file. */
function content(index, size) {
  const lines = [`// file ${index}`];
  let length = lines[0].length + 1;
  for (let line = 0; length < size; line++) {
    const text = `const value_${index}_${line} = ${(index * 7919 + line * 104729) % 1_000_003}; // some ordinary source text`;
    lines.push(text);
    length += text.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes `files` files of about `megabytes` MB in all into `tree`, in 100 directories, with a
 * .gitignore that leaves out every tenth file (`*.log`) and `.jp/`. Returns the first file's path.
 */
export function writeTree(tree, files, megabytes) {
  const size = Math.round((megabytes * 1024 * 1024) / files);
  mkdirSync(tree, { recursive: true });
  writeFileSync(path.join(tree, '.gitignore'), '*.log\n.jp/\n');
  const made = new Set();
  for (let i = 0; i < files; i++) {
    const directory = path.join(tree, `pkg${String(i % 100).padStart(2, '0')}`, `mod${Math.floor(i / 1000)}`);
    if (!made.has(directory)) mkdirSync(directory, { recursive: true });
    made.add(directory);
    const extension = i % 10 === 9 ? 'log' : EXTENSIONS[i % EXTENSIONS.length];
    writeFileSync(path.join(directory, `file${i}.${extension}`), content(i, size));
  }
  return path.join(tree, 'pkg00', 'mod0', `file0.${EXTENSIONS[0]}`);
}
