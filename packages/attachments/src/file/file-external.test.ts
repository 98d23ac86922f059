import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBlobResource, isTextResource, loadedResource, loadSchemas, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createFileHandler } from './file-handler.ts';
import { attachmentError } from '../test-support/rejection.ts';
import { fileHandlerAsUnprivileged } from '../test-support/file-handler-as-unprivileged.ts';

const { resourceToJson } = await loadSchemas();

let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What a run does: validate the inputs, then resolve the declarations with the same handler. */
async function attach(inputs: string[], handler = createFileHandler()): Promise<{ declarations: string[]; resources: Resource[] }> {
  const ctx = ws.ctx();
  const declarations: string[] = [];
  for (const input of inputs) declarations.push(await handler.validate(input, ctx));
  return { declarations, resources: await handler.resolve(declarations, ctx) };
}

async function outsideFile(relative: string, content: string | Uint8Array): Promise<string> {
  const file = path.join(ws.outside, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
  return file;
}

const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n\u0000';

describe('files outside the workspace', () => {
  it('declares and names an absolute path as external:<sha256 of the real parent>/<name> and reads it at once', async () => {
    const file = await outsideFile('secret-dir/report.pdf', PDF);
    const uri = `external:${sha(path.join(ws.outside, 'secret-dir'))}/report.pdf`;
    const { declarations, resources } = await attach([file]);
    expect(declarations).toEqual([uri]);
    expect(resources).toHaveLength(1);
    const [resource] = resources;
    expect(resource).toMatchObject({ uri, name: 'report.pdf', mimeType: 'application/pdf' });
    expect(resource !== undefined && isBlobResource(resource) && Buffer.from(resource.blob).toString('latin1')).toBe(PDF);
    // Nothing that is stored carries the path or any directory of it.
    const stored = JSON.stringify({ declarations, resources: resources.map((resource) => resourceToJson(loadedResource(resource))) });
    expect(stored).not.toContain('secret-dir');
    expect(stored).not.toContain(path.basename(ws.outside));
  });

  it('gives ~/…, ../… and file:/// spellings of one file one URI', async () => {
    const file = await outsideFile('notes.txt', 'notes\n');
    const home = process.env.HOME;
    process.env.HOME = ws.outside; // os.homedir() reads it
    try {
      const inputs = ['~/notes.txt', `../${path.basename(ws.outside)}/notes.txt`, pathToFileURL(file).href, file];
      const { declarations, resources } = await attach(inputs);
      expect(new Set(declarations)).toEqual(new Set([`external:${sha(ws.outside)}/notes.txt`]));
      expect(resources.map((resource) => resource.uri)).toEqual([declarations[0]]);
      expect(resources[0] !== undefined && isTextResource(resources[0]) && resources[0].text).toBe('notes\n');
    } finally {
      process.env.HOME = home;
    }
  });

  it('keeps the name on disk in the URI and gives the NFC name', async () => {
    const file = await outsideFile('e\u0301t\u00e9.txt', 'x');
    const { declarations, resources } = await attach([file]);
    expect(declarations).toEqual([`external:${sha(ws.outside)}/e\u0301t\u00e9.txt`]);
    expect(resources[0]?.name).toBe('\u00e9t\u00e9.txt');
  });

  it('tells files of one name in two directories apart', async () => {
    const a = await outsideFile('a/config.yaml', 'a: 1\n');
    const b = await outsideFile('b/config.yaml', 'b: 2\n');
    const { declarations, resources } = await attach([a, b]);
    expect(declarations[0]).not.toBe(declarations[1]);
    expect(resources.map((resource) => resource.name)).toEqual(['config.yaml', 'config.yaml']);
    expect(resources.map((resource) => resource.mimeType)).toEqual(['text/yaml', 'text/yaml']);
  });

  it('makes a symlink inside the workspace that leads outside an external resource, naming only the link in errors', async () => {
    const secret = await outsideFile('private/key.txt', 'k');
    await fs.symlink(secret, path.join(ws.root, 'escape.txt'));
    const { declarations, resources } = await attach(['escape.txt']);
    expect(declarations).toEqual([`external:${sha(path.join(ws.outside, 'private'))}/key.txt`]);
    expect(resources[0]).toMatchObject({ uri: declarations[0], name: 'key.txt', text: 'k' });
    await fs.chmod(secret, 0o000);
    // As nobody when the tests run as root (root would read it anyway).
    const [outcome] = await fileHandlerAsUnprivileged({ root: ws.root, reachable: [ws.root, path.join(ws.root, '.jp'), ws.outside] }, [
      { op: 'validate', input: 'escape.txt' },
    ]);
    expect(outcome).toEqual({ ok: false, message: 'cannot read escape.txt: permission denied; fix its permissions or attach something else' });
  });

  it('applies the size policy, naming the file as the user typed it', async () => {
    const file = await outsideFile('big.log', 'x'.repeat(100));
    const handler = createFileHandler();
    const ctx = ws.ctx({ limits: { maxResourceBytes: 10, sizePolicy: 'reject' } });
    const declaration = await handler.validate(file, ctx);
    const error = await attachmentError(handler.resolve([declaration], ctx));
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is 100 bytes, over the limit of 10 bytes`));
    const truncated = await handler.resolve([declaration], ws.ctx({ limits: { maxResourceBytes: 10, sizePolicy: 'truncate' } }));
    expect(truncated[0]).toMatchObject({ text: 'x'.repeat(10), description: expect.stringMatching(/^truncated: the first 10 of 100 bytes/) });
  });
});

describe('external: declarations', () => {
  it('refuses external: typed by the user, or one this run did not produce', async () => {
    const file = await outsideFile('report.pdf', PDF);
    const [declaration] = (await attach([file])).declarations;
    const message = `${declaration} is a snapshot of a file outside the workspace and cannot be read again; attach the file by its path`;
    const fresh = createFileHandler(); // the next run
    expect((await attachmentError(fresh.validate(declaration!, ws.ctx()))).message).toBe(message);
    expect((await attachmentError(fresh.resolve([declaration!], ws.ctx()))).message).toBe(message);
    expect((await attachmentError(fresh.validate('external:whatever', ws.ctx()))).code).toBe('external_snapshot_only');
  });

  it('accepts its own external: declaration again in the same run', async () => {
    const handler = createFileHandler();
    const file = await outsideFile('report.pdf', PDF);
    const declaration = await handler.validate(file, ws.ctx());
    expect(await handler.validate(declaration, ws.ctx())).toBe(declaration);
  });

  it('refuses to refresh an external URI', async () => {
    const handler = createFileHandler();
    const file = await outsideFile('report.pdf', PDF);
    const declaration = await handler.validate(file, ws.ctx());
    const error = await attachmentError(handler.refresh(declaration, ws.ctx()));
    expect(error.message).toBe(
      `${declaration} is a snapshot of a file outside the workspace; external resources cannot be refreshed, so attach the file again by its path`,
    );
    expect(error.code).toBe('attachment_not_refreshable');
  });

  it('covers by equality, and never crosses with file declarations', async () => {
    const handler = createFileHandler();
    const uri = `external:${sha('/x')}/a.txt`;
    const ctx = ws.ctx();
    expect(handler.covers(uri, uri, ctx)).toBe(true);
    expect(handler.covers(uri, `external:${sha('/y')}/a.txt`, ctx)).toBe(false);
    expect(handler.covers('./', uri, ctx)).toBe(false);
    expect(handler.covers('**/*.txt', uri, ctx)).toBe(false);
    expect(handler.covers(uri, pathToFileURL(path.join(ws.root, 'a.txt')).href, ctx)).toBe(false);
  });
});
