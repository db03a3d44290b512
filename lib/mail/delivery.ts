import 'server-only';

import { createRefusalLog } from '@/lib/http/refusal-log';

import type { MailCopy } from '@/lib/content/mail-copy-cache';
import { composeMail, UndeliverableError } from './message';
import { recordFailure, recordSent, type ClaimedMail } from '@/lib/store/outbox';
import { MAX_ATTEMPTS, retryDelaySeconds } from './pace';
import type { Transport } from './transport';

/** Why a message failed, as the log counts it: never the address or the server's words, which may quote it. */
type Reason = 'the address is not one the forms accept' | 'refused by the mail server' | 'not accepted in time' | 'the mail server failed';

/** One line for the first failure, then one summary a minute, however many fail (a mail server down). */
export const logFailure = createRefusalLog<Reason | 'the store failed'>('mail', { verb: 'failed', write: (line) => console.warn(line) });

const responseCode = (error: unknown) => (error as { responseCode?: unknown } | null)?.responseCode;

function reasonOf(error: unknown): Reason {
  if (error instanceof UndeliverableError) return 'the address is not one the forms accept';
  const code = responseCode(error);
  if (typeof code === 'number' && code >= 500) return 'refused by the mail server';
  if ((error as Error | null)?.name === 'AbortError' || (error as Error | null)?.name === 'TimeoutError') return 'not accepted in time';
  return 'the mail server failed';
}

/** A 5xx answer and an address that will never do are final; anything else (4xx, a timeout, no connection) may pass later. */
const isFinal = (reason: Reason) => reason === 'the address is not one the forms accept' || reason === 'refused by the mail server';

/** The outbox's record of a send the server accepted: tried a few times, since a lost record means the message goes again. */
async function recordAccepted(mail: ClaimedMail, messageId: string, response: string) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await recordSent(mail.id, messageId, response);
    } catch (error) {
      if (attempt === 3) {
        logFailure('the store failed');
        console.error(`mail: message ${mail.id} was accepted but not recorded; it is sent again when its lease runs out`, error);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * Writes and sends one claimed message within `deadlineMs`, and records what happened: sent (with its
 * Message-ID and the server's answer), or failed, to be tried again after a backoff or, when final or
 * out of attempts, never again.
 */
export async function deliver(mail: ClaimedMail, copy: MailCopy, from: string, transport: Transport, deadlineMs: number): Promise<void> {
  let sent: { messageId: string; response: string };
  try {
    const composed = composeMail(mail, copy, from);
    sent = { messageId: composed.messageId, ...(await transport.send(composed, deadlineMs)) };
  } catch (error) {
    const reason = reasonOf(error);
    logFailure(reason);
    const giveUp = isFinal(reason) || mail.attempt >= MAX_ATTEMPTS;
    const detail = `${reason}: ${error instanceof Error ? error.message : String(error)}`;
    await recordFailure(mail.id, mail.attempt, detail, { retrySeconds: giveUp ? 0 : retryDelaySeconds(mail.attempt), giveUp }).catch(() =>
      logFailure('the store failed'),
    );
    return;
  }
  await recordAccepted(mail, sent.messageId, sent.response);
}
