import type { MessageCode } from '@/lib/support/messages';

/** What proxy.ts answers instead of letting Next's action handler fail with a 500: a status and the message's code. */
export const REFUSALS = {
  crossSite: { status: 403, code: 'crossSite' },
  unreadable: { status: 400, code: 'unreadable' },
  notAForm: { status: 415, code: 'unreadable' },
  tooLarge: { status: 413, code: 'tooLarge' },
} as const satisfies Record<string, { status: number; code: MessageCode }>;

export type Refusal = (typeof REFUSALS)[keyof typeof REFUSALS];
