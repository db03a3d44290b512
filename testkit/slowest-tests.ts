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
    this.timings.push({ runner: 'browser', title, seconds: result.duration / 1000, limitSeconds: test.timeout / 1000 });
    // A beforeAll hook's time is not in the test's duration, and its limit is not the test's: the
    // config's, or what the hook sets with test.setTimeout (every hook that starts servers sets one).
    const hooks = result.steps.find((step) => step.category === 'hook' && step.title === 'Before Hooks');
    if (hooks && hooks.duration > 5000)
      this.timings.push({ runner: 'browser', title: `${title} (before hooks)`, seconds: hooks.duration / 1000, limitSeconds: null });
  }

  onEnd(): void {
    writeTimings('browser', this.timings);
  }
}
