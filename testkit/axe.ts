import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** axe-core's violations on `page` (or inside `include`), as short lines: rule, impact and the first offending elements. */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  // After a client-side navigation Next streams the page's metadata after its body: the title of a page
  // whose heading is already shown may still be on its way. One that never comes fails here, by name.
  await expect(page, 'the page has a title').toHaveTitle(/\S/);
  const builder = new AxeBuilder({ page });
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  );
}
