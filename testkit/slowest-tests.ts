/**
 * A Playwright reporter that ends the run with its ten slowest tests, each beside its limit (the one it
 * ran under: the config's, its describe block's or its own test.setTimeout), and names every test that
 * used more than half its limit: on a machine half as fast it would fail. It reports; it fails nothing,
 * as a number measured on one machine is no verdict on another.
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

type Run = { title: string; seconds: number; limit: number };

const SHOWN = 10;
const HEADROOM = 2;

export default class SlowestTests implements Reporter {
  private readonly runs: Run[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') return;
    const [, file, ...titles] = test.titlePath();
    this.runs.push({ title: `${file} › ${titles.join(' › ')}`, seconds: result.duration / 1000, limit: test.timeout / 1000 });
  }

  onEnd(): void {
    if (this.runs.length === 0) return;
    const slowest = [...this.runs].sort((a, b) => b.seconds - a.seconds).slice(0, SHOWN);
    const tight = this.runs.filter((run) => run.limit > 0 && run.seconds * HEADROOM > run.limit);
    const line = ({ title, seconds, limit }: Run) =>
      `  ${seconds.toFixed(1).padStart(6)} s  of ${String(limit).padStart(4)} s  (${Math.round((100 * seconds) / limit)}%)  ${title}`;
    const lines = [
      '',
      `The ${slowest.length} slowest tests, and their limits:`,
      ...slowest.map(line),
      tight.length === 0
        ? `Every test used at most 1/${HEADROOM} of its limit.`
        : `${tight.length} test(s) used more than 1/${HEADROOM} of the limit, with too little headroom for a slower machine:`,
      ...tight.map(line),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
