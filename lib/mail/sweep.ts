import 'server-only';

import { readRetention } from '@/lib/content/read-retention';
import { sweepRequests } from '@/lib/store/back-office';
import { forgetUnconfirmed } from '@/lib/store/outbox';

import { SWEEP_ROWS } from './pace';

/** Whether the last read of the retention settings failed: its error is logged once, not every round. */
let settingsFailing = false;

/**
 * What the store forgets by itself, SWEEP_ROWS at most of each at a time (a backlog clears over rounds,
 * never in one long transaction): unconfirmed addresses past their week, and support requests past the
 * days Site settings keep them. Settings that cannot be read skip the requests this round and never the
 * addresses: neither a guess nor the defaults may delete a request the settings keep longer.
 */
export async function sweepStore(): Promise<void> {
  await forgetUnconfirmed(SWEEP_ROWS);
  const retention = await readRetention().then(
    (read) => ((settingsFailing = false), read),
    (error: unknown) => {
      if (!settingsFailing) console.error('mail: the sweep cannot read how long Site settings keep support requests; it keeps them', error);
      settingsFailing = true;
      return null;
    },
  );
  if (retention) await sweepRequests(retention.answeredDays, retention.unansweredDays, SWEEP_ROWS);
}
