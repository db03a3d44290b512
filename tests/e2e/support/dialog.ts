import type { Page } from '@playwright/test';

import { SUBMISSION_KEY_FIELD } from '../../../lib/forms/validation.ts';
import { SEED_FORM } from '../../../testkit/seed-copy.ts';

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
