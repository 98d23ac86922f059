// The generated trees' file contents, shared by attach-tree.mjs and freshness.mjs.

/** The extensions the generated files cycle through (every tenth file is a .log instead). */
export const EXTENSIONS = ['ts', 'rs', 'py', 'md', 'json', 'go', 'txt', 'c', 'yaml'];

/** Deterministic text of about `size` bytes, different for every file. */
export function content(index, size) {
  const lines = [`// file ${index}`];
  let length = lines[0].length + 1;
  for (let line = 0; length < size; line++) {
    const text = `const value_${index}_${line} = ${(index * 7919 + line * 104729) % 1_000_003}; // some ordinary source text`;
    lines.push(text);
    length += text.length + 1;
  }
  return `${lines.join('\n')}\n`;
}
