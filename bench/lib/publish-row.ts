/** The row of a publish timing (testkit/publish-timing.ts): the same in every measurement that publishes. */
import type { Row } from '../report.ts';

/** How long a publish may take to show, at worst. */
export const PUBLISH_WORST_MS = 2000;

type Publishes = { median: number; worst: number; missed: number };

/** Median and worst of `edits` publishes, Node fetch polling the page; met when every one showed in time. */
export const publishRow = (measure: string, { median, worst, missed }: Publishes, edits: number): Row => ({
  measure,
  client: 'Node fetch',
  result: `median ${median} ms, worst ${worst} ms (${edits} edits, ${missed} not seen)`,
  target: `worst <= ${PUBLISH_WORST_MS} ms`,
  met: missed === 0 && worst <= PUBLISH_WORST_MS,
});
