/**
 * A Vitest reporter that keeps each test's time beside its limit (its own timeout, else the config's
 * testTimeout), for `npm test`'s list of the slowest tests (test-timings.ts).
 */
import type { Reporter, TestCase, Vitest } from 'vitest/node';

import { writeTimings, type Timing } from './test-timings.ts';

export default class VitestTimings implements Reporter {
  private readonly timings: Timing[] = [];
  private defaultTimeout = 5000;

  onInit(vitest: Vitest): void {
    this.defaultTimeout = vitest.config.testTimeout;
  }

  onTestCaseResult(test: TestCase): void {
    const duration = test.diagnostic()?.duration;
    if (duration === undefined || test.result().state === 'skipped') return;
    this.timings.push({
      runner: 'unit',
      title: `${test.module.moduleId.replace(`${process.cwd()}/`, '')} › ${test.fullName}`,
      seconds: duration / 1000,
      limitSeconds: (test.options.timeout ?? this.defaultTimeout) / 1000,
    });
  }

  onTestRunEnd(): void {
    writeTimings('unit', this.timings);
  }
}
