import { actorName, type Me } from '@/lib/shared/back-office';

/** Who is asking, once admitted (access.ts): the officer, and how the store's records name them. */
export type Office = Me & { actor: string };

export const officeOf = (me: Me): Office => ({ ...me, actor: actorName(me.officer) });
