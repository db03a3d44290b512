import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SEED_FILE } from '@/testkit/seed-copy';

/** The proxy's refusal pages read their words from the dataset, escaped, with defaults when it cannot be read. */

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'refusal-copy-'));
  vi.resetModules();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

async function datasetWith(messages: Record<string, string>): Promise<string> {
  const lines = (await readFile(SEED_FILE, 'utf8')).split('\n').filter((line) => line.trim() !== '');
  const edited = lines.map((line) => {
    const doc = JSON.parse(line) as { _id: string; formMessages?: Record<string, string> };
    return doc._id === 'siteSettings' ? JSON.stringify({ ...doc, formMessages: { ...doc.formMessages, ...messages } }) : line;
  });
  const file = join(dir, 'production.ndjson');
  await writeFile(file, edited.join('\n') + '\n');
  return file;
}

async function refusal(name: 'crossSite' | 'tooLarge' | 'notAForm') {
  const { refusalPage } = await import('./refusal-page');
  const { REFUSALS } = await import('./refusals');
  const response = await refusalPage(REFUSALS[name]);
  return { status: response.status, html: await response.text() };
}

describe('refusal pages', () => {
  it("show the editor's words, HTML-escaped", async () => {
    vi.stubEnv('CONTENT_FILE', await datasetWith({ crossSite: 'Not from <b>here</b> & "there"', backToSupport: 'Back <i>now</i>' }));
    const { status, html } = await refusal('crossSite');
    expect(status).toBe(403);
    expect(html).toContain('<h1>Not from &lt;b&gt;here&lt;/b&gt; &amp; &quot;there&quot;</h1>');
    expect(html).toContain('<a href="/support">Back &lt;i&gt;now&lt;/i&gt;</a>');
    expect(html).not.toContain('<b>');
  });

  it('415 and 400 share the "could not be read" message', async () => {
    vi.stubEnv('CONTENT_FILE', await datasetWith({ unreadable: 'Edited: unreadable.' }));
    const { status, html } = await refusal('notAForm');
    expect(status).toBe(415);
    expect(html).toContain('<h1>Edited: unreadable.</h1>');
  });

  it('fall back to the defaults in code when the dataset cannot be read', async () => {
    vi.stubEnv('CONTENT_FILE', join(dir, 'missing.ndjson'));
    const { REFUSAL_DEFAULTS } = await import('./refusal-copy');
    const { status, html } = await refusal('tooLarge');
    expect(status).toBe(413);
    expect(html).toContain(`<h1>${REFUSAL_DEFAULTS.tooLarge}</h1>`);
  });
});
