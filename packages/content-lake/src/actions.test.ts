import { randomUUID } from 'node:crypto';

import { makePatches, stringifyPatches } from '@sanity/diff-match-patch';
import { afterEach, describe, expect, it } from 'vitest';

import type { Validate } from './actions';
import type { SanityDocument } from './documents';
import { createHandler } from './handler';
import { Lake } from './lake';
import { MAX_DOCUMENTS } from './transaction';

/**
 * The Actions API as the Studio uses it (../shared/STUDIO-API.md, "Editing" and "Publish"), through the
 * lake's handler: what each action does to the draft and the published document, and that a failing
 * action changes nothing at all.
 */

const POLICY: SanityDocument = {
  _id: 'policy',
  _type: 'policy',
  _rev: 'rev-0',
  _createdAt: '2026-01-01T00:00:00Z',
  _updatedAt: '2026-01-01T00:00:00Z',
  title: 'Privacy policy',
  body: 'We keep nothing.',
};
const NEWS: SanityDocument = { _id: 'drafts.news', _type: 'post', _rev: 'rev-n', title: 'Only a draft' };

const lakes: Lake[] = [];
afterEach(() => lakes.splice(0).forEach((lake) => lake.close()));

async function lakeWith(validate?: Validate) {
  const lake = await Lake.open({ documents: structuredClone([POLICY, NEWS]), access: { kind: 'local' }, validate });
  lakes.push(lake);
  const handle = createHandler(lake);
  const act = async (actions: unknown[], transactionId?: string) => {
    const request = new Request('http://localhost:3000/v2025-02-19/data/actions/production', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ actions, transactionId }),
    });
    const response = await handle(request, { internal: true });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** Every document, keyed by id: what a test compares before and after a refused transaction. */
  const snapshot = () => Object.fromEntries(lake.dataset.documents().map((doc) => [doc._id, doc]));
  return { lake, act, doc: (id: string) => lake.dataset.get(id), snapshot };
}

const edit = (patch: Record<string, unknown>) => ({
  actionType: 'sanity.action.document.edit',
  draftId: 'drafts.policy',
  publishedId: 'policy',
  patch,
});
const publish = (extra: Record<string, unknown> = {}) => ({
  actionType: 'sanity.action.document.publish',
  draftId: 'drafts.policy',
  publishedId: 'policy',
  ...extra,
});
const GUARD = { unset: ['_empty_action_guard_pseudo_field_'] };

describe('the Studio editing a published document', () => {
  it('answers a transaction sent twice (a browser retrying a POST) without applying it twice', async () => {
    const { act, doc } = await lakeWith();
    await act([edit(GUARD)]);
    const patch = stringifyPatches(makePatches('We keep nothing.', 'We keep nothing at all.'));
    const id = randomUUID();
    expect(await act([edit({ diffMatchPatch: { body: patch } })], id)).toEqual({ status: 200, body: { transactionId: id } });
    expect(await act([edit({ diffMatchPatch: { body: patch } })], id)).toEqual({ status: 200, body: { transactionId: id } });
    expect(doc('drafts.policy')?.body).toBe('We keep nothing at all.');
    expect(doc('drafts.policy')?._rev).toBe(id);
  });

  it('makes the draft on the first edit, applies diffMatchPatch, then publishes it and removes the draft', async () => {
    const { act, doc } = await lakeWith();
    const first = randomUUID();
    expect(await act([edit(GUARD)], first)).toEqual({ status: 200, body: { transactionId: first } });
    // A copy of the published document, revised by the Studio's own transaction id.
    expect(doc('drafts.policy')).toEqual({ ...POLICY, _id: 'drafts.policy', _rev: first, _updatedAt: expect.any(String) });
    expect(doc('policy')).toEqual(POLICY);

    const second = randomUUID();
    const patch = stringifyPatches(makePatches('Privacy policy', 'Privacy policy (2026)'));
    expect((await act([edit({ diffMatchPatch: { title: patch } })], second)).status).toBe(200);
    expect(doc('drafts.policy')).toMatchObject({ title: 'Privacy policy (2026)', body: 'We keep nothing.', _rev: second });

    const published = await act([publish({ ifPublishedRevisionId: 'rev-0' })]);
    expect(published.status).toBe(200);
    expect(doc('drafts.policy')).toBeUndefined();
    expect(doc('policy')).toEqual({
      ...POLICY,
      title: 'Privacy policy (2026)',
      _rev: published.body.transactionId,
      _updatedAt: expect.any(String),
    });
  });

  it('edits an existing draft rather than the published document', async () => {
    const { act, doc } = await lakeWith();
    await act([edit({ set: { title: 'Draft title' } })]);
    await act([edit({ set: { body: 'Draft body' } })]);
    expect(doc('drafts.policy')).toMatchObject({ title: 'Draft title', body: 'Draft body' });
    expect(doc('policy')).toEqual(POLICY);
  });

  it('refuses a publish over a published revision that is not the one named, changing nothing', async () => {
    const { act, snapshot } = await lakeWith();
    await act([edit({ set: { title: 'New' } })]);
    const before = snapshot();
    const stale = await act([publish({ ifPublishedRevisionId: 'rev-older' })]);
    expect(stale).toEqual({
      status: 409,
      body: {
        error: expect.objectContaining({
          type: 'actionError',
          items: [{ error: expect.objectContaining({ type: 'conflictError' }), index: 0 }],
        }),
      },
    });
    expect(snapshot()).toEqual(before);
  });

  it("refuses a publish the validate hook objects to with 409 and the hook's problems, changing nothing", async () => {
    const seen: SanityDocument[] = [];
    const { act, snapshot } = await lakeWith(async (doc) => {
      seen.push(doc);
      return doc.title === '' ? ['title: Required', 'body: Too short'] : [];
    });
    await act([edit({ set: { title: '' } })]);
    const before = snapshot();
    const refused = await act([publish()]);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      type: 'actionError',
      description: expect.stringContaining('title: Required; body: Too short'),
    });
    expect(snapshot()).toEqual(before);
    // The hook judged the document as it would be published: under the published id.
    expect(seen).toEqual([expect.objectContaining({ _id: 'policy', title: '' })]);
  });
});

describe('the other document actions', () => {
  it('discards a draft, and answers 409 when there is none', async () => {
    const { act, doc } = await lakeWith();
    await act([edit({ set: { title: 'Discard me' } })]);
    const discard = { actionType: 'sanity.action.document.discard', draftId: 'drafts.policy' };
    expect((await act([discard])).status).toBe(200);
    expect(doc('drafts.policy')).toBeUndefined();
    expect(doc('policy')).toEqual(POLICY);
    expect(await act([discard])).toMatchObject({ status: 409, body: { error: { items: [{ error: { type: 'documentNotFoundError' } }] } } });
  });

  it('unpublishes: the published document goes, a draft keeps its content (made from it when there was none)', async () => {
    const { act, doc } = await lakeWith();
    const unpublish = { actionType: 'sanity.action.document.unpublish', draftId: 'drafts.policy', publishedId: 'policy' };
    expect((await act([unpublish])).status).toBe(200);
    expect(doc('policy')).toBeUndefined();
    expect(doc('drafts.policy')).toMatchObject({ title: 'Privacy policy', body: 'We keep nothing.' });

    // With a draft already there, its edits survive.
    await act([publish()]);
    await act([edit({ set: { title: 'Edited draft' } })]);
    await act([unpublish]);
    expect(doc('policy')).toBeUndefined();
    expect(doc('drafts.policy')).toMatchObject({ title: 'Edited draft' });
  });

  it('deletes the published document and its drafts', async () => {
    const { act, doc } = await lakeWith();
    await act([edit({ set: { title: 'Draft' } })]);
    expect(
      (await act([{ actionType: 'sanity.action.document.delete', publishedId: 'policy', includeDrafts: ['drafts.policy'] }])).status,
    ).toBe(200);
    expect(doc('policy')).toBeUndefined();
    expect(doc('drafts.policy')).toBeUndefined();
    expect(doc('drafts.news')).toEqual(NEWS);
  });

  it('creates a draft, failing or ignoring an existing one as ifExists says', async () => {
    const { act, doc } = await lakeWith();
    const create = (title: string, ifExists?: string) => ({
      actionType: 'sanity.action.document.create',
      publishedId: 'faq',
      attributes: { _id: 'drafts.faq', _type: 'faq', title },
      ...(ifExists ? { ifExists } : {}),
    });
    const id = randomUUID();
    expect((await act([create('First')], id)).status).toBe(200);
    expect(doc('drafts.faq')).toMatchObject({ _type: 'faq', title: 'First', _rev: id });
    expect(doc('faq')).toBeUndefined();
    expect(await act([create('Second', 'fail')])).toMatchObject({
      status: 409,
      body: { error: { items: [{ error: { type: 'documentAlreadyExistsError' }, index: 0 }] } },
    });
    expect((await act([create('Third', 'ignore')])).status).toBe(200);
    expect(doc('drafts.faq')).toMatchObject({ title: 'First', _rev: id });
  });

  it.each(['sanity.action.release.frobnicate', 'sanity.action.document.version.frobnicate', 'sanity.action.document.frobnicate', 42])(
    'refuses the action type %s with 400 unsupportedActionError',
    async (actionType) => {
      const { act, snapshot } = await lakeWith();
      const before = snapshot();
      expect(await act([{ actionType, publishedId: 'policy' }])).toMatchObject({
        status: 400,
        body: { error: { type: 'actionError', items: [{ error: { type: 'unsupportedActionError' }, index: 0 }] } },
      });
      expect(snapshot()).toEqual(before);
    },
  );

  it('applies none of a transaction with one failing action, and names that action', async () => {
    const { act, snapshot } = await lakeWith();
    const before = snapshot();
    const answer = await act([
      edit({ set: { title: 'Would be applied' } }),
      { actionType: 'sanity.action.document.discard', draftId: 'drafts.news' },
      { actionType: 'sanity.action.document.publish', draftId: 'drafts.missing', publishedId: 'missing' },
    ]);
    expect(answer).toMatchObject({ status: 409, body: { error: { items: [{ error: { type: 'documentNotFoundError' }, index: 2 }] } } });
    expect(snapshot()).toEqual(before);
  });
});

describe('the bound on documents', () => {
  it('refuses a new document past MAX_DOCUMENTS, while edits and a create after a delete go on', async () => {
    const full = Array.from({ length: MAX_DOCUMENTS }, (_, i) => ({ _id: `doc-${i}`, _type: 'post' }));
    const lake = await Lake.open({ documents: full, access: { kind: 'local' } });
    lakes.push(lake);
    await expect(lake.mutate([{ create: { _id: 'one-more', _type: 'post' } }])).rejects.toMatchObject({
      status: 409,
      body: { error: { type: 'documentLimitExceededError' } },
    });
    await lake.mutate([{ patch: { id: 'doc-0', set: { title: 'Edited' } } }]);
    await lake.mutate([{ delete: { id: 'doc-1' } }, { create: { _id: 'one-more', _type: 'post' } }]);
    expect(lake.dataset.documents()).toHaveLength(MAX_DOCUMENTS);
    expect(lake.dataset.get('doc-0')?.title).toBe('Edited');
  });
});
