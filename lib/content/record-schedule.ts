import 'server-only';

import { cacheLife, cacheTag } from 'next/cache';
import { cache } from 'react';

import { policyState, secondsTrue } from '@/lib/policy/policy-schedule';
import { dayIn, timeZoneOf } from '@/lib/shared/site-time';

import { fetchRecord } from './fetch';
import { POLICY_VERSIONS_QUERY, TIME_ZONE_QUERY } from './queries';

/** The policy's record as the pages read it: its versions, today in the site's time zone, and which is in effect. */

/** The record of the policy's versions without their text, newest first (policy-record.ts). */
const versionList = () => fetchRecord(POLICY_VERSIONS_QUERY);

/**
 * Today in the site's time zone, true until the next of the record's `days` begins (policy-schedule.ts), under the
 * policy's tag, which the policy clock expires as a version takes effect (policy-clock.ts); a page's lifetime follows.
 */
async function siteToday(timeZone: string, days: readonly string[]): Promise<string> {
  'use cache';
  cacheTag('privacyPolicy');
  const now = Date.now();
  cacheLife({ revalidate: secondsTrue(days, timeZone, now), expire: DAY_S });
  return dayIn(now, timeZone);
}

const DAY_S = 86_400;

/** The record, today, and which versions are in effect and announced then (policy-schedule.ts). */
export const getPolicySchedule = cache(async () => {
  // Published, in draft mode too, and read without the request (generateStaticParams has none).
  const [list, zone] = await Promise.all([versionList(), fetchRecord(TIME_ZONE_QUERY)]);
  const timeZone = timeZoneOf(zone);
  const versions = list.flatMap(({ date, publishedAt, ...rest }) => (date && publishedAt ? [{ ...rest, date, publishedAt }] : []));
  const today = await siteToday(
    timeZone,
    versions.filter(({ withdrawnAt }) => !withdrawnAt).map(({ date }) => date),
  );
  const { current, upcoming } = policyState(versions, today);
  return { versions, today, timeZone, current, next: upcoming[0], dates: versions.map(({ date }) => date) };
});
