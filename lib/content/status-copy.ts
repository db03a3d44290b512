/**
 * The words of the 404 and error pages for when the dataset cannot be read at all: those pages must
 * still render then. Otherwise they come from Site settings (the same words, in the seed). Client-safe:
 * app/global-error.tsx, which replaces the whole document, can only use these.
 */
export const NOT_FOUND_DEFAULTS = {
  label: '404',
  heading: 'Page not found',
  text: 'This page does not exist. It may have moved, or the address may be mistyped.',
  description: 'The page you are looking for does not exist.',
  homeLink: 'Go to the home page',
  supportLink: 'Get support',
} as const;

export const ERROR_DEFAULTS = {
  label: 'Error',
  heading: 'Something went wrong',
  text: 'This page could not be shown just now. Please try again in a moment; if it keeps happening, the home page still works.',
  retry: 'Try again',
  homeLink: 'Go to the home page',
} as const;

export type NotFoundCopy = Record<keyof typeof NOT_FOUND_DEFAULTS, string>;
export type ErrorCopy = Record<keyof typeof ERROR_DEFAULTS, string>;
