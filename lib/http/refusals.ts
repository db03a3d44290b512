const UNREADABLE = 'Your request could not be read. Please try again.';

/**
 * What proxy.ts answers instead of letting Next's action handler fail with a 500: a status and the
 * words of the page. The words are fixed here, as app/global-error's are: only a cross-site post or a
 * body no form of the site sends gets this page, so editors have nothing to gain from editing it.
 */
export const REFUSALS = {
  crossSite: { status: 403, message: 'This form can only be sent from this website.' },
  unreadable: { status: 400, message: UNREADABLE },
  notAForm: { status: 415, message: UNREADABLE },
  tooLarge: { status: 413, message: 'Your request is too large. Please shorten it and try again.' },
} as const;

export type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];

/** The refusal page's one link. */
export const BACK_TO_SUPPORT = 'Back to the support page';
