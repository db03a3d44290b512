import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { queryDocuments } from '@school-site/content-lake';
import { RETENTION_DEFAULTS } from '@/lib/shared/retention';

import { readDataset, SEED_FILE, type Doc } from '../../testkit/dataset';
import { readRetention } from './read-retention';

/** The site's client, standing in: the local lake's query engine over `documents`, or a failure. */
const lake = vi.hoisted(() => ({ documents: [] as Doc[], fails: false, configs: [] as unknown[] }));
vi.mock('./client', () => ({
  createSanityClient: () => ({
    withConfig: (config: unknown) => {
      lake.configs.push(config);
      return {
        fetch: async (query: string) => {
          if (lake.fails) throw new Error('the lake is away');
          return queryDocuments(lake.documents, query, {}, 'published');
        },
      };
    },
  }),
}));

let seed: Doc[];

beforeAll(async () => {
  seed = await readDataset(SEED_FILE);
});

beforeEach(() => {
  lake.documents = structuredClone(seed);
  lake.fails = false;
  lake.configs.splice(0);
});

const editSettings = (id: string, edit: (doc: Doc) => void) => edit(lake.documents.find((doc) => doc._id === id) as Doc);

describe('readRetention: how long support requests are kept, as the published settings say now', () => {
  it('reads the seed’s days, published and past any CDN', async () => {
    expect(await readRetention()).toEqual({ answeredDays: 30, unansweredDays: 365 });
    expect(lake.configs).toEqual([expect.objectContaining({ perspective: 'published', useCdn: false })]);
  });

  it('reads the days an editor set, from the default language’s settings alone', async () => {
    editSettings('siteSettings', (doc) => Object.assign(doc, { answeredRequestDays: 7, unansweredRequestDays: 90 }));
    editSettings('siteSettings-es', (doc) => Object.assign(doc, { answeredRequestDays: 1, unansweredRequestDays: 1 }));
    expect(await readRetention()).toEqual({ answeredDays: 7, unansweredDays: 90 });
  });

  it('gives the defaults for settings from before the setting', async () => {
    editSettings('siteSettings', (doc) => {
      delete doc.answeredRequestDays;
      delete doc.unansweredRequestDays;
    });
    expect(await readRetention()).toEqual(RETENTION_DEFAULTS);
  });

  it('gives the defaults with no settings at all', async () => {
    lake.documents = lake.documents.filter((doc) => !doc._id.startsWith('siteSettings'));
    expect(await readRetention()).toEqual(RETENTION_DEFAULTS);
  });

  it('throws when the settings cannot be read, rather than guess', async () => {
    lake.fails = true;
    await expect(readRetention()).rejects.toThrow('the lake is away');
  });
});
