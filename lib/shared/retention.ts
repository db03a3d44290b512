/**
 * How long the store keeps support requests, as Site settings set it: answered requests for `answeredDays`
 * after they were answered, requests never answered for `unansweredDays` after they were sent. The Studio's
 * rule, the policy's {answeredDays} and {unansweredDays}, and the sweep that deletes requests all read
 * these, so the policy names what the sweep does.
 */

export type Retention = { answeredDays: number; unansweredDays: number };

/** Until the settings name them (a dataset from before this setting): a month once answered, a year if never. */
export const RETENTION_DEFAULTS: Readonly<Retention> = { answeredDays: 30, unansweredDays: 365 };

/** Whole days: at least one (a request is never deleted the day it is answered), at most ten years. */
export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;

/** The Site settings fields that hold them. */
export const RETENTION_FIELDS: Readonly<Record<keyof Retention, string>> = {
  answeredDays: 'answeredRequestDays',
  unansweredDays: 'unansweredRequestDays',
};

type Settings = Readonly<Record<string, unknown>> | null | undefined;

const own = (settings: Settings, field: string) => (settings && Object.hasOwn(settings, field) ? settings[field] : undefined);

const isDays = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= RETENTION_MIN_DAYS && value <= RETENTION_MAX_DAYS;

/**
 * The retention `settings` give (Site settings, or what a query read of them), each from its default where
 * it is absent or not a whole number of days within bounds: the Studio refuses those, so only a dataset
 * written around it holds one, and a zero there must not empty the store.
 */
export function toRetention(settings: Settings): Retention {
  const answered = own(settings, RETENTION_FIELDS.answeredDays);
  const unanswered = own(settings, RETENTION_FIELDS.unansweredDays);
  return {
    answeredDays: isDays(answered) ? answered : RETENTION_DEFAULTS.answeredDays,
    unansweredDays: isDays(unanswered) ? unanswered : RETENTION_DEFAULTS.unansweredDays,
  };
}
