/**
 * This process's mail sender as every bundle sees it (kept on globalThis): whoever queues work wakes it.
 * Apart from the sender itself, which reads the emails' words through the site's content client, so
 * that queuing mail (a sign-up, a policy announced from the lake's commit) depends on no content module.
 */
export type MailSender = { nudge(): void; stop(): Promise<void> };

const running = globalThis as typeof globalThis & { mailSender?: MailSender };

export const currentMailSender = (): MailSender | undefined => running.mailSender;

export function setMailSender(sender: MailSender | undefined): void {
  running.mailSender = sender;
}

/** Wakes this process's sender, if it runs: work was just queued here. */
export const nudgeMailSender = (): void => running.mailSender?.nudge();
