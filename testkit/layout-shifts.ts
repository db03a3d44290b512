import type { Page } from '@playwright/test';

/** Every layout shift of `page` since its navigation (buffered), as Lighthouse's CLS sums them; none, an empty list. */
export function layoutShifts(page: Page): Promise<number[]> {
  return page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        new PerformanceObserver((list) =>
          resolve(list.getEntries().map((entry) => (entry as PerformanceEntry & { value: number }).value)),
        ).observe({
          type: 'layout-shift',
          buffered: true,
        });
        // The observer reports nothing when there was no shift: answer after two frames.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve([])));
      }),
  );
}
