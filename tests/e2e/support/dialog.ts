import type { Page } from '@playwright/test';

import { SUBMISSION_KEY_FIELD } from '../../../lib/forms/validation.ts';
import { SEED_FORM, SEED_SUPPORT_ES } from '../../../testkit/seed-copy.ts';
import { expect } from '../../../testkit/test.ts';

/** The parts of one request dialog (`type`: issue, feedback or feature) the browser tests use. */
export function dialogParts(page: Page, type: string) {
  const dialog = page.locator(`dialog#request-${type}`);
  return {
    dialog,
    email: dialog.getByLabel(SEED_FORM.emailLabel),
    subject: dialog.getByLabel(SEED_FORM.subjectLabel),
    message: dialog.getByLabel(SEED_FORM.messageLabel),
    submit: dialog.locator('button[type="submit"]'),
    cancel: dialog.getByRole('button', { name: SEED_FORM.cancel }),
    status: dialog.getByRole('status'),
    /** The form's submission key, minted in the browser (absent without JavaScript). */
    key: dialog.locator(`input[name="${SUBMISSION_KEY_FIELD}"]`),
  };
}

/** A parent's request sent from the Spanish support page (`origin`/es/support), through its first card's form. */
export async function sendSpanishRequest(page: Page, origin: string, fields: { email: string; subject: string; message: string }) {
  const { heading, card, form } = SEED_SUPPORT_ES;
  await page.goto(`${origin}/es/support`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await page.getByRole('link', { name: new RegExp(`^${card.title}`) }).click();
  const dialog = page.locator(`dialog#request-${card.requestType}`);
  await dialog.getByLabel(form.emailLabel).fill(fields.email);
  await dialog.getByLabel(form.subjectLabel).fill(fields.subject);
  await dialog.getByLabel(form.messageLabel).fill(fields.message);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog.getByRole('status')).toContainText(form.success);
}
