import { afterEach, describe, expect, it } from 'vitest';

import type { Validate } from './actions';
import type { SanityDocument } from './documents';
import { createHandler } from './handler';
import { Lake } from './lake';
import { MAX_ACTIVE_RELEASES, MAX_RELEASE_DOCUMENTS } from './releases';
import type { Transaction } from './transaction';

/**
 * Content releases as Studio 5.31.2 drives them (../shared/STUDIO-HISTORY.md §2), through the lake's
 * handler: the release and version actions, dry runs that write nothing, a publish of every version in one
 * transaction or none, the states a release goes through, and the bounds.
 */

const POLICY: SanityDocument = {
  _id: 'policy',
  _type: 'policy',
  _rev: 'rev-0',
  _createdAt: '2026-01-01T00:00:00Z',
  title: 'Privacy policy',
  sections: 7,
};
const FAQ: SanityDocument = { _id: 'faq', _type: 'faq', _rev: 'rev-f', title: 'Questions' };
const RELEASE = 'rPolicy01';
const RELEASE_ID = `_.releases.${RELEASE}`;
const VERSION = `versions.${RELEASE}.policy`;
const API = 'http://localhost:3000/v2025-02-19';

const lakes: Lake[] = [];
afterEach(() => lakes.splice(0).forEach((lake) => lake.close()));

async function lakeWith(validate?: Validate, documents: SanityDocument[] = [POLICY, FAQ]) {
  const lake = await Lake.open({ documents: structuredClone(documents), access: { kind: 'local' }, validate });
  lakes.push(lake);
  const handle = createHandler(lake);
  const send = async (path: string, body?: unknown) => {
    const request = new Request(`${API}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const response = await handle(request, { internal: true });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const act = (actions: unknown[], extra: Record<string, unknown> = {}) => send('/data/actions/production', { actions, ...extra });
  const query = async (text: string, perspective = 'raw') =>
    (await send(`/data/query/production?query=${encodeURIComponent(text)}&perspective=${perspective}`)).body.result;
  const snapshot = () => Object.fromEntries(lake.dataset.documents().map((doc) => [doc._id, doc]));
  const transactions: Transaction[] = [];
  lake.dataset.subscribe((transaction) => transactions.push(transaction));
  return { lake, act, send, query, snapshot, transactions, doc: (id: string) => lake.dataset.get(id) };
}

const release = (name: string, action: string, extra: Record<string, unknown> = {}) => ({
  actionType: `sanity.action.release.${action}`,
  releaseId: name,
  ...extra,
});
const createRelease = (name = RELEASE, title = 'Policy effective 1 January') =>
  release(name, 'create', { metadata: { title, description: '', releaseType: 'asap', cardinality: 'many' } });
const addToRelease = (publishedId = 'policy', name = RELEASE) => ({
  actionType: 'sanity.action.document.version.create',
  publishedId,
  baseId: publishedId,
  versionId: `versions.${name}.${publishedId}`,
});
const editVersion = (patch: Record<string, unknown>, name = RELEASE) => ({
  actionType: 'sanity.action.document.edit',
  draftId: `versions.${name}.policy`,
  publishedId: 'policy',
  patch,
});

/** A release holding the policy, edited to `sections`. */
async function prepared(validate?: Validate, sections = 8) {
  const lake = await lakeWith(validate);
  expect((await lake.act([createRelease(), addToRelease()])).status).toBe(200);
  expect((await lake.act([editVersion({ set: { sections } })])).status).toBe(200);
  return lake;
}

describe('a release and its documents', () => {
  it('creates the release document the Studio lists, and adds and edits a version apart from the draft', async () => {
    const { act, doc, query } = await lakeWith();
    const created = await act([createRelease()], { transactionId: 'tx-create' });
    expect(created).toEqual({ status: 200, body: { transactionId: 'tx-create' } });
    expect(doc(RELEASE_ID)).toEqual({
      _id: RELEASE_ID,
      _type: 'system.release',
      name: RELEASE,
      state: 'active',
      metadata: { title: 'Policy effective 1 January', description: '', releaseType: 'asap', cardinality: 'many' },
      userId: undefined,
      _createdAt: expect.any(String),
      _updatedAt: expect.any(String),
      _rev: 'tx-create',
    });
    // The Studio's release list (createReleaseStore.ts).
    expect(await query('*[_type=="system.release" && _id in path("_.releases.*")]{_id, state, "title": metadata.title}')).toEqual([
      { _id: RELEASE_ID, state: 'active', title: 'Policy effective 1 January' },
    ]);

    await act([addToRelease(), editVersion({ set: { title: 'Privacy policy 2027' } })]);
    expect(doc(VERSION)).toMatchObject({ _type: 'policy', title: 'Privacy policy 2027', sections: 7 });
    expect(doc('drafts.policy')).toBeUndefined();
    expect(doc('policy')).toEqual(POLICY);
    expect(await query(`*[sanity::partOfRelease("${RELEASE}")]._id`)).toEqual([VERSION]);
    expect(await query('*[sanity::versionOf("policy")]._id')).toEqual(['policy', VERSION]);
    // The release over drafts over published, as Presentation previews it.
    expect(await query('*[_id == "policy"][0]{_id, _originalId, title}', `${RELEASE},drafts`)).toEqual({
      _id: 'policy',
      _originalId: VERSION,
      title: 'Privacy policy 2027',
    });
    expect(await query('*[_id == "policy"][0].title', 'drafts')).toBe('Privacy policy');
  });

  it('removes a version, marks one to unpublish the document, and copies one back to the draft', async () => {
    const { act, doc } = await prepared();
    const unpublish = { actionType: 'sanity.action.document.version.unpublish', versionId: VERSION, publishedId: 'policy' };
    expect((await act([unpublish])).status).toBe(200);
    expect(doc(VERSION)?._system).toEqual({ delete: true });
    // The Studio's "revert unpublish".
    await act([editVersion({ unset: ['_system.delete'] })]);
    expect(doc(VERSION)?._system).toEqual({});
    const copy = {
      actionType: 'sanity.action.document.version.create',
      publishedId: 'policy',
      baseId: VERSION,
      versionId: 'drafts.policy',
    };
    expect((await act([copy])).status).toBe(200);
    expect(doc('drafts.policy')).toMatchObject({ sections: 8 });
    expect(doc('drafts.policy')).not.toHaveProperty('_system');
    const discard = { actionType: 'sanity.action.document.version.discard', versionId: VERSION, purge: false };
    expect((await act([discard])).status).toBe(200);
    expect(doc(VERSION)).toBeUndefined();
    expect(await act([discard])).toMatchObject({ status: 409, body: { error: { items: [{ error: { type: 'documentNotFoundError' } }] } } });
  });
});

describe('publishing a release', () => {
  it('writes every version to its published id in one transaction, removes the versions, and marks the release published', async () => {
    const { act, doc, transactions } = await prepared();
    await act([
      addToRelease('faq'),
      { actionType: 'sanity.action.document.version.unpublish', versionId: `versions.${RELEASE}.faq`, publishedId: 'faq' },
    ]);
    transactions.length = 0;
    const published = await act([release(RELEASE, 'publish')], { transactionId: 'tx-publish' });
    expect(published).toEqual({ status: 200, body: { transactionId: 'tx-publish' } });
    expect(doc('policy')).toEqual({ ...POLICY, sections: 8, _rev: 'tx-publish', _updatedAt: expect.any(String) });
    expect(doc('faq')).toBeUndefined();
    expect(doc(VERSION)).toBeUndefined();
    expect(doc(RELEASE_ID)).toMatchObject({
      state: 'published',
      publishedAt: expect.any(String),
      finalDocumentStates: [{ id: `versions.${RELEASE}.faq` }, { id: VERSION }],
      _rev: 'tx-publish',
    });
    expect(transactions).toHaveLength(1);
    expect(transactions[0]!.changes.map((change) => change.id).sort()).toEqual(
      ['_.releases.rPolicy01', 'faq', 'policy', VERSION, `versions.${RELEASE}.faq`].sort(),
    );
  });

  it("tells the document's history it was published by the release", async () => {
    const { act, send, doc } = await prepared();
    const versionRev = doc(VERSION)!._rev;
    await act([release(RELEASE, 'publish')], { transactionId: 'tx-release' });
    const { body } = await send('/data/history/production/events/documents/policy');
    expect((body.events as Record<string, unknown[]>).policy![0]).toMatchObject({
      type: 'publishDocumentVersion',
      documentId: 'policy',
      revisionId: 'tx-release',
      versionId: VERSION,
      releaseId: RELEASE,
      versionRevisionId: versionRev,
      publishCause: 'release.publish',
    });
  });

  it('publishes nothing when one version breaks the schema, and the release stays active showing why', async () => {
    const validate: Validate = async (doc) => (doc.sections === 7 ? [] : [`sections: must be 7, not ${String(doc.sections)}`]);
    const { act, doc } = await prepared(validate, 6);
    const refused = await act([release(RELEASE, 'publish')]);
    expect(refused).toMatchObject({ status: 409, body: { error: { items: [{ error: { type: 'validationError' } }] } } });
    expect(doc('policy')).toEqual(POLICY);
    expect(doc(VERSION)).toMatchObject({ sections: 6 });
    expect(doc(RELEASE_ID)).toMatchObject({
      state: 'active',
      error: { message: expect.stringContaining('policy: sections: must be 7, not 6') },
    });
    // Fixed, it publishes, and the error is gone.
    await act([editVersion({ set: { sections: 7 } })]);
    expect((await act([release(RELEASE, 'publish')])).status).toBe(200);
    expect(doc(RELEASE_ID)).not.toHaveProperty('error');
  });
});

describe('dry runs', () => {
  it.each([
    ['publish', []],
    ['archive', []],
    ['schedule', [], { publishAt: new Date().toISOString() }],
    ['delete', [['archive']]],
  ] as [string, string[][], Record<string, unknown>?][])(
    'answer a dry-run %s as the real one would, and change nothing',
    async (action, before, extra) => {
      const { act, snapshot } = await prepared();
      for (const [step] of before) await act([release(RELEASE, step!)]);
      const kept = snapshot();
      const dry = await act([release(RELEASE, action, extra)], { dryRun: true, transactionId: 'tx-dry' });
      expect(dry).toEqual({ status: 200, body: { transactionId: 'tx-dry' } });
      expect(snapshot()).toEqual(kept);
      // The same action for real succeeds, so the dry run said the truth.
      expect((await act([release(RELEASE, action, extra)])).status).toBe(200);
      expect(snapshot()).not.toEqual(kept);
    },
  );

  it('answers a dry run that would fail with the same error, and a failed dry-run publish leaves no error on the release', async () => {
    const { act, snapshot } = await prepared(async () => ['broken']);
    const kept = snapshot();
    const dry = await act([release(RELEASE, 'publish')], { dryRun: true });
    expect(dry).toMatchObject({ status: 409, body: { error: { items: [{ error: { type: 'validationError' } }] } } });
    expect(await act([release(RELEASE, 'delete')], { dryRun: true })).toMatchObject({ status: 409 });
    expect(snapshot()).toEqual(kept);
  });
});

describe('the states of a release', () => {
  it('schedules, refusing edits to its documents until unscheduled', async () => {
    const { act, doc, snapshot } = await prepared();
    const publishAt = '2027-01-01T00:00:00.000Z';
    expect((await act([release(RELEASE, 'schedule', { publishAt })])).status).toBe(200);
    expect(doc(RELEASE_ID)).toMatchObject({ state: 'scheduled', publishAt });
    const kept = snapshot();
    for (const attempt of [
      [editVersion({ set: { sections: 9 } })],
      [{ actionType: 'sanity.action.document.version.discard', versionId: VERSION }],
      [addToRelease('faq')],
      [release(RELEASE, 'unschedule'), release(RELEASE, 'schedule', { publishAt }), editVersion({ set: { sections: 9 } })],
    ])
      expect(await act(attempt)).toMatchObject({ status: 409, body: { error: { type: 'releaseStateError' } } });
    expect(snapshot()).toEqual(kept);
    expect(await act([release(RELEASE, 'archive')])).toMatchObject({
      status: 409,
      body: { error: { items: [{ error: { type: 'releaseStateError' } }] } },
    });

    expect((await act([release(RELEASE, 'unschedule')])).status).toBe(200);
    expect(doc(RELEASE_ID)).toMatchObject({ state: 'active' });
    expect(doc(RELEASE_ID)).not.toHaveProperty('publishAt');
    expect((await act([editVersion({ set: { sections: 9 } })])).status).toBe(200);
  });

  it('archives (the versions leave the dataset), unarchives (they come back from the history), and deletes only an archived or published release', async () => {
    const { act, doc } = await prepared();
    expect(await act([release(RELEASE, 'delete')])).toMatchObject({ status: 409 });
    expect((await act([release(RELEASE, 'archive')])).status).toBe(200);
    expect(doc(VERSION)).toBeUndefined();
    expect(doc(RELEASE_ID)).toMatchObject({ state: 'archived', finalDocumentStates: [{ id: VERSION }] });
    expect((await act([release(RELEASE, 'unarchive')])).status).toBe(200);
    expect(doc(VERSION)).toMatchObject({ sections: 8 });
    expect(doc(RELEASE_ID)).toMatchObject({ state: 'active' });
    await act([release(RELEASE, 'archive')]);
    expect((await act([release(RELEASE, 'delete')])).status).toBe(200);
    expect(doc(RELEASE_ID)).toBeUndefined();
  });

  it('edits the metadata only', async () => {
    const { act, doc } = await prepared();
    const metadata = { title: 'Policy effective 1 February', releaseType: 'scheduled', intendedPublishAt: '2027-02-01T00:00:00.000Z' };
    expect((await act([release(RELEASE, 'edit', { patch: { set: { metadata }, unset: ['metadata.description'] } })])).status).toBe(200);
    // The Studio sets the whole metadata each time.
    expect(doc(RELEASE_ID)?.metadata).toEqual(metadata);
    for (const patch of [
      { set: { state: 'published' } },
      { unset: ['publishAt'] },
      { set: { 'metadata.releaseType': 'soon' } },
      { inc: { x: 1 } },
    ])
      expect(await act([release(RELEASE, 'edit', { patch })])).toMatchObject({ status: 400 });
  });
});

describe('crafted release actions', () => {
  it.each([
    ['a release id with a dot', [release('r1.x', 'create', { metadata: {} })], 400],
    ['a perspective name as release id', [release('drafts', 'create', { metadata: {} })], 400],
    ['a release id of 65 characters', [release('r'.repeat(65), 'create', { metadata: {} })], 400],
    ['no metadata', [release('rX', 'create')], 400],
    ['a title that is not text', [release('rX', 'create', { metadata: { title: 5 } })], 400],
    ['an unknown release type', [release('rX', 'create', { metadata: { releaseType: 'now' } })], 400],
    ['metadata of 100 KB', [release('rX', 'create', { metadata: { extra: 'x'.repeat(100_000) } })], 400],
    ['an unknown release', [release('rMissing', 'publish')], 409],
    ['a release made twice', [createRelease(), createRelease()], 409],
    ['a date that is not one', [createRelease(), release(RELEASE, 'schedule', { publishAt: 'tomorrow' })], 400],
    ['a date of another shape', [createRelease(), release(RELEASE, 'schedule', { publishAt: 1767225600000 })], 400],
    ['an unschedule of an active release', [createRelease(), release(RELEASE, 'unschedule')], 409],
    ['a version of another document', [{ ...addToRelease(), versionId: `versions.${RELEASE}.faq` }], 400],
    ['a version id with a bad release', [{ ...addToRelease(), versionId: 'versions.r-1.policy' }], 400],
    ['a version to publish twice', [createRelease(), addToRelease(), addToRelease()], 409],
  ])('refuses %s with a 4xx, changing nothing', async (_, actions, status) => {
    const { act, snapshot } = await lakeWith();
    const kept = snapshot();
    expect((await act(actions)).status).toBe(status);
    expect(snapshot()).toEqual(kept);
  });

  it('refuses raw mutations of a release document', async () => {
    const { send, snapshot } = await lakeWith();
    const kept = snapshot();
    const mutation = { createOrReplace: { _id: RELEASE_ID, _type: 'system.release', state: 'published' } };
    expect(await send('/data/mutate/production', { mutations: [mutation] })).toMatchObject({ status: 409 });
    expect(snapshot()).toEqual(kept);
  });
});

describe('the bounds', () => {
  it(`refuses release number ${MAX_ACTIVE_RELEASES + 1} as Sanity does, and the limits endpoint says so; a published one makes room`, async () => {
    const { act, send } = await lakeWith();
    expect(await send('/projects/local/new-content-release-allowed')).toEqual({
      status: 200,
      body: {
        data: {
          orgActiveReleaseCount: 0,
          orgMeteredActiveReleaseCount: 0,
          datasetReleaseLimit: MAX_ACTIVE_RELEASES,
          orgActiveReleaseLimit: null,
        },
      },
    });
    const names = Array.from({ length: MAX_ACTIVE_RELEASES }, (_, i) => `r${i}`);
    expect((await act(names.map((name) => createRelease(name)))).status).toBe(200);
    const past = await act([createRelease('rOneMore')]);
    expect(past).toEqual({
      status: 403,
      body: { error: { type: 'releaseLimitExceededError', description: expect.any(String), limit: MAX_ACTIVE_RELEASES } },
    });
    expect(await send('/projects/local/new-content-release-allowed')).toMatchObject({
      status: 403,
      body: { data: { orgActiveReleaseCount: MAX_ACTIVE_RELEASES, datasetReleaseLimit: MAX_ACTIVE_RELEASES } },
    });
    expect((await act([release('r0', 'publish'), createRelease('rOneMore')])).status).toBe(200);
  });

  it(`holds at most ${MAX_RELEASE_DOCUMENTS} documents in one release`, async () => {
    const documents = Array.from({ length: MAX_RELEASE_DOCUMENTS + 1 }, (_, i) => ({ _id: `doc-${i}`, _type: 'post' }));
    const { lake, doc } = await lakeWith(undefined, documents);
    await lake.act([createRelease(), ...documents.slice(0, MAX_RELEASE_DOCUMENTS).map((d) => addToRelease(d._id))]);
    await expect(lake.act([addToRelease(`doc-${MAX_RELEASE_DOCUMENTS}`)])).rejects.toMatchObject({
      status: 409,
      body: { error: { type: 'releaseDocumentLimitExceededError', limit: MAX_RELEASE_DOCUMENTS } },
    });
    expect(doc(`versions.${RELEASE}.doc-${MAX_RELEASE_DOCUMENTS}`)).toBeUndefined();
  });

  it('answers the features the Studio gates releases and scheduled drafts on', async () => {
    const { send } = await lakeWith();
    expect(await send('/features')).toEqual({ status: 200, body: ['contentReleases', 'singleDocRelease'] });
    // A release's page reads the plan's history retention, and crashes without it.
    expect(await send('/subscriptions/project/local')).toMatchObject({
      status: 200,
      body: { featureTypes: { retention: { features: [{ attributes: { maxRetentionDays: 0 } }] } } },
    });
  });
});
