import type { SanityClient, SanityDocument } from '@sanity/client';
import { expect } from '@playwright/test';

import { postWebhook, resetContent, resetLake, type Doc } from './dataset';
import { E2E_SERVERS } from './e2e-servers';
import { lakeClient, LAKE_PROJECT, LAKE_TOKEN } from './hosted';
import { signInWithToken, type StudioSite } from './studio';

/**
 * The two builds an editor's Studio runs on, as the browser tests drive them: the embedded default (no
 * account: the Studio edits the site's dataset through the local lake in the site's own server) and the
 * hosted build signed in with a token, whose API is the local lake playing Sanity's.
 */
export type StudioTarget = {
  name: string;
  server: (typeof E2E_SERVERS)[keyof typeof E2E_SERVERS];
  /** A document as the Content Lake holds it, or undefined. */
  read(id: string): Promise<Doc | undefined>;
  /** Deletes the documents, as another editor or a script would. */
  remove(ids: string[]): Promise<void>;
  /** What follows a publish before visitors see it: nothing on the embedded default; Sanity's webhook for a project. */
  published(type: string): Promise<void>;
  /** Sends actions to the Content Lake's actions API, as the Studio does (a release, its schedule). */
  act(actions: object[]): Promise<void>;
  /** Publishes `doc` as a script does: its draft, then the publish action; on a project, then Sanity's webhook. */
  publish(doc: Doc): Promise<void>;
  /** Its Studio, for studioContext: the embedded default's watched for foreign hosts, the hosted one signed in. */
  site: StudioSite;
  reset(): Promise<void>;
  /** Whether the whole life of a policy runs here, or only what this build adds (see below). */
  wholeLife: boolean;
};

const LAKE_API = `${E2E_SERVERS.main.url}/api/lake/v2025-02-19/data`;

/** A draft of `doc`, then its publish: what the Studio, a script and @sanity/client send alike. */
async function publishThrough(target: Pick<StudioTarget, 'act'>, write: (draft: Doc) => Promise<unknown>, doc: Doc) {
  await write({ ...doc, _id: `drafts.${doc._id}` });
  await target.act([{ actionType: 'sanity.action.document.publish', draftId: `drafts.${doc._id}`, publishedId: doc._id }]);
}

const embedded: StudioTarget = {
  name: 'embedded default',
  server: E2E_SERVERS.main,
  read: async (id) => ((await (await fetch(`${LAKE_API}/doc/production/${id}`)).json()) as { documents: Doc[] }).documents[0],
  remove: async (ids) => {
    const answer = await fetch(`${LAKE_API}/mutate/production`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mutations: ids.map((id) => ({ delete: { id } })) }),
    });
    expect(answer.status).toBe(200);
  },
  published: async () => {},
  act: async (actions) => {
    const answer = await fetch(`${LAKE_API}/actions/production`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ actions }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
  },
  publish: (doc) =>
    publishThrough(
      embedded,
      async (draft) =>
        expect(
          (
            await fetch(`${LAKE_API}/mutate/production`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ mutations: [{ createOrReplace: draft }] }),
            })
          ).status,
        ).toBe(200),
      doc,
    ),
  site: { local: true, origin: E2E_SERVERS.main.url },
  reset: () => resetContent(E2E_SERVERS.main.url),
  wholeLife: true,
};

const hosted: StudioTarget = {
  name: 'hosted build',
  server: E2E_SERVERS.hosted,
  read: async (id) => (await lakeClient().getDocument<Doc>(id)) ?? undefined,
  remove: async (ids) => void (await ids.reduce((tx, id) => tx.delete(id), lakeClient().transaction()).commit()),
  published: async (type) => {
    expect((await postWebhook(E2E_SERVERS.hosted.url, { _type: type, _id: type })).status).toBe(200);
  },
  act: async (actions) => void (await lakeClient().action(actions as Parameters<SanityClient['action']>[0])),
  publish: async (doc) => {
    await publishThrough(hosted, (draft) => lakeClient().createOrReplace(draft as SanityDocument), doc);
    await hosted.published(doc._type);
  },
  site: { local: false, signIn: (context) => signInWithToken(context, LAKE_PROJECT.projectId, LAKE_TOKEN) },
  reset: () => resetLake(E2E_SERVERS.hosted.url),
  wholeLife: false,
};

export const STUDIO_TARGETS = [embedded, hosted] as const;
