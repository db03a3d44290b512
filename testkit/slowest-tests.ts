/**
 * A Playwright reporter that keeps each test's time beside the limit it ran under (the config's, its
 * describe block's or its own test.setTimeout), for `npm test`'s list of the slowest tests (test-timings.ts).
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

import { writeTimings, type Timing } from './test-timings.ts';

export default class SlowestTests implements Reporter {
  private readonly timings: Timing[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') return;
    const [, , file, ...titles] = test.titlePath();
    const title = `${file} › ${titles.join(' › ')}`;
    const limitSeconds = test.timeout / 1000;
    this.timings.push({ runner: 'browser', title, seconds: result.duration / 1000, limitSeconds });
    // A beforeAll hook's time is not in the test's duration: listed on its own (with the describe's
    // limit, which a hook that takes long sets on itself with test.setTimeout).
    const hooks = result.steps.find((step) => step.category === 'hook' && step.title === 'Before Hooks');
    if (hooks && hooks.duration > 5000)
      this.timings.push({ runner: 'browser', title: `${title} (before hooks)`, seconds: hooks.duration / 1000, limitSeconds });
  }

  onEnd(): void {
    writeTimings('browser', this.timings);
  }
}
