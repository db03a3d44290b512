import 'server-only';

import { AsyncLocalStorage } from 'node:async_hooks';

import { MAX_TIMER_MS } from '@school-site/content-lake';

import { expireAndRefresh } from '@/lib/cache/cache-refresh';

import { POLICY_ID } from './policy-record';
import { policyState, todayOf, type PolicyClock } from './policy-schedule';
import { pagesShowing } from '@/lib/shared/public-pages';
import { startOfDay } from '@/lib/shared/site-time';

/**
 * The moment a version announced ahead takes effect, the pages show it, with no deploy, webhook
 * or job: one timer per process, for the start of the next such day in the site's time zone, which then
 * expires the policy's pages by the lake's one path (revalidate.ts), on both content paths. Armed at the
 * server's start and whenever the record or the settings change (policy-follow.ts). The pages' own
 * lifetime ends then too (policy-schedule.ts secondsTrue), for a cache in front and for a server that slept.
 */

type Day = Parameters<typeof policyState>[0][number];
type State = { timer?: NodeJS.Timeout; root?: <R>(work: () => R) => R };

// One clock per process, whichever bundle arms it: the webhook's, the lake's, the server's start.
const KEY = Symbol.for('hallway.policyClock');
const state = (): State => ((globalThis as typeof globalThis & { [KEY]?: State })[KEY] ??= {});

/** At the server's start: the timer's work then runs in the start's context, not in a finished request's. */
export function startPolicyClock(): void {
  state().root ??= AsyncLocalStorage.snapshot();
}

/** Sets the one timer for the next day a version of `record` takes effect (none: no timer). */
export function armPolicyClock(record: readonly Day[], clock: PolicyClock): void {
  const current = state();
  clearTimeout(current.timer);
  const next = policyState(record, todayOf(clock)).upcoming[0];
  if (!next) return;
  const at = startOfDay(next.date, clock.timeZone);
  const fire = () => {
    // A delay past what setTimeout holds (MAX_TIMER_MS) is waited out in steps.
    if (Date.now() >= at)
      expireAndRefresh([POLICY_ID], [{ pages: pagesShowing(POLICY_ID), language: null }], `the version of ${next.date} took effect`);
    armPolicyClock(record, { ...clock, now: Date.now() });
  };
  const run = current.root ?? ((work) => work());
  current.timer = setTimeout(() => run(fire), Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS)).unref();
}
