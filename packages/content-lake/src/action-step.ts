/**
 * What every action of the Actions API is given (the transaction, the action, how to fail it, and the
 * lake's context), and the id rules the document, version and release actions share.
 */
import { draftIdOf, isReleaseName, isValidId, releaseOfVersion, versionIdOf, type SanityDocument } from './documents.ts';
import type { TransactionBuilder } from './transaction.ts';

/** What keeps a document from being published (the schema's rules); empty when it may be. */
/** What a publish must pass, the document as it would be published and its transaction: the problems, if any. */
export type Validate = (doc: SanityDocument, tx: TransactionBuilder) => Promise<string[]>;

/** What actions need beyond the transaction: the schema's rules, the history (to bring back archived versions), who acts. */
export type ActionContext = {
  validate?: Validate;
  lastState?: (id: string) => Promise<SanityDocument | null>;
  userId?: string;
};
export type Action = Record<string, unknown> & { actionType?: unknown };
export type Fail = (type: string, description: string, status?: number) => never;
export type Step = ActionContext & { tx: TransactionBuilder; action: Action; fail: Fail };

/** Whether `id` is the draft of `publishedId`, or its version in a release. */
export function isVariantOf(id: string, publishedId: string): boolean {
  if (id === draftIdOf(publishedId)) return true;
  const release = releaseOfVersion(id);
  return release !== undefined && isReleaseName(release) && id === versionIdOf(release, publishedId);
}

/** A document as it is published: under the published id, without what the release machinery keeps on a version. */
export function publishable(variant: SanityDocument, publishedId: string, published: SanityDocument | undefined): SanityDocument {
  const { _system: _, ...content } = variant;
  return { ...content, _id: publishedId, _createdAt: published?._createdAt ?? variant._createdAt };
}

/** The published id an action names, valid and on the root path. */
export function publishedIdIn({ action, fail }: Step, field = 'publishedId'): string {
  const id = action[field];
  if (typeof id !== 'string' || !isValidId(id) || id.includes('.'))
    fail('validationError', `${String(action.actionType)} needs ${field}: a document id without a "."`, 400);
  return id as string;
}
