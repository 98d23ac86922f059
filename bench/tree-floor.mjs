#!/usr/bin/env node
// The floor of a content-addressed first attach in Node (issue 35, "Budgets that hold on any
// machine"): walk the tree, read each file, hash it with sha256 and append it to one pack file,
// single-threaded — the least jp's first attach must do, on the same machine in the same run.
// Skips what jp's attach skips in bench/attach-tree.mjs's tree: `.git/`, `.jp/`, hidden names and
// the `*.log` files its .gitignore leaves out.
//
//   node bench/tree-floor.mjs <tree> <pack file>
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

const [tree, packFile] = process.argv.slice(2);
const pack = openSync(packFile, 'w');
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name.endsWith('.log')) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (entry.isFile()) {
      const bytes = readFileSync(file);
      createHash('sha256').update(bytes).digest('hex');
      writeSync(pack, bytes);
    }
  }
};
walk(tree);
closeSync(pack);
