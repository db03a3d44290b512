import type { Me } from '@/lib/shared/back-office';

/** Who is asking, once admitted (access.ts): the officer, and how the store's records name them. */
export type Office = Me & { actor: string };

/** An officer as the access log and a request's "answered by" name them: their name and, to tell two apart, their id. */
export const officeOf = (me: Me): Office => ({ ...me, actor: `${me.officer.name} (${me.officer.id})` });
