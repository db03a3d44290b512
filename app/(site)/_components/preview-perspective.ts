'use server';

import type { ClientPerspective } from '@sanity/client';
import { perspectiveCookieName } from '@sanity/preview-url-secret/constants';
import { cookies, draftMode } from 'next/headers';
import { perspectiveChangeAction } from 'next-sanity/visual-editing/server-actions';

/**
 * What the preview does when Presentation names its perspective. next-sanity's own action writes the
 * cookie and re-renders the page every time in a production build, even when the perspective is the one
 * the page was rendered with, and Presentation names it as soon as it connects: the preview then loaded a
 * second time, and an edit typed meanwhile waited behind that render. Only a change goes through here.
 */
export async function changePreviewPerspective(perspective: ClientPerspective): Promise<void> {
  if (!(await draftMode()).isEnabled) return;
  const next = Array.isArray(perspective) ? perspective.join(',') : perspective;
  if (next === (await cookies()).get(perspectiveCookieName)?.value) return;
  await perspectiveChangeAction(perspective);
}
