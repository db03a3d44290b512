import { test as base } from '@playwright/test';

import { followProcessClock } from './browser-clock.ts';

export { expect } from '@playwright/test';

/**
 * Playwright's `test`, whose contexts (and so pages) read the same date as the servers and this process,
 * even when the suite runs with its clock moved ahead (testkit/browser-clock.ts). Every spec imports
 * `test` from here; a context a test makes itself goes through `followProcessClock` too.
 */
export const test = base.extend({
  context: async ({ context }, provide) => {
    await followProcessClock(context);
    await provide(context);
  },
});
