import { toRetention } from '@/lib/shared/retention';
import type { Tokens } from '@/lib/shared/tokens';
import type { SETTINGS_QUERY_RESULT } from '@/sanity.types';

/**
 * The {tokens} pages' texts take from Site settings, defined here alone: {radius}, and the days support
 * requests are kept, {answeredDays} and {unansweredDays}. Those are the numbers the sweep applies (defaults
 * included), so the policy names what the store does.
 */
export const settingsTokens = (settings: NonNullable<SETTINGS_QUERY_RESULT>): Tokens => ({
  radius: settings.radiusMiles,
  ...toRetention(settings),
});
