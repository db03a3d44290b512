import 'server-only';

import { erasePerson, logAccess, personData, type Erasure, type PersonData } from '@/lib/store/back-office';
import type { AccessAction, Erased, NothingHeld, PersonData as WirePerson } from '@/lib/shared/back-office';

import { addressHmac } from './address-hmac';
import type { Office } from './office';
import { answer, attachment, refuse } from './respond';

/**
 * A parent's request about their own data (GDPR Art. 15, 17, 20; FERPA, COPPA): everything held about an
 * address, as JSON to read or to take away, and its erasure. Each is written to the access log first, by
 * the address's HMAC: an answer the log could not record is not given.
 */

const NOTHING_HELD: NothingHeld = { nothingHeld: true };
/** How long an erase waits for a sender holding one of the address's emails to finish with it. */
const BUSY_WAIT_MS = 2_000;
const BUSY_POLL_MS = 100;

/** The rows an erasure removed: the notices it kept, under the HMAC, are not among them. */
const removedRows = ({ noticesKept: _kept, ...removed }: Record<string, number>) =>
  Object.values(removed).reduce((sum, count) => sum + count, 0);
const heldRows = (data: PersonData) => data.requests.length + (data.subscription ? 1 : 0) + data.emails.length;

async function logged(office: Office, action: AccessAction, email: string, rows: number): Promise<void> {
  await logAccess({ actor: office.actor, action, rows, subject: await addressHmac(email) });
}

async function readPerson(office: Office, action: AccessAction, email: string): Promise<PersonData | null> {
  const data = await personData(email);
  await logged(office, action, email, data ? heldRows(data) : 0);
  return data;
}

export async function showPerson(office: Office, email: string): Promise<Response> {
  const data = await readPerson(office, 'read', email);
  return answer(data ? (data satisfies WirePerson) : NOTHING_HELD);
}

/** The JSON file to hand the parent: the same data, saved under a name that does not hold their address. */
export async function exportPerson(office: Office, email: string): Promise<Response> {
  const data = await readPerson(office, 'export', email);
  if (!data) return answer(NOTHING_HELD);
  const day = new Date().toISOString().slice(0, 10);
  return attachment(JSON.stringify(data satisfies WirePerson, null, 2), 'application/json', `personal-data-${day}.json`);
}

/**
 * Erases the address; while a sender holds one of its emails (its lease), asks again for a moment, so an
 * erase during a send usually waits for it rather than failing, then answers 409 with the lease's end.
 */
async function eraseWhenFree(email: string, hmac: string, actor: string): Promise<Erasure> {
  const deadline = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    const erasure = await erasePerson(email, hmac, actor);
    if (erasure.kind !== 'busy' || Date.now() + BUSY_POLL_MS > deadline) return erasure;
    await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
  }
}

export async function erase(office: Office, email: string): Promise<Response> {
  const hmac = await addressHmac(email);
  const erasure = await eraseWhenFree(email, hmac, office.actor);
  if (erasure.kind === 'busy')
    return refuse(409, 'An email to this address is being sent right now; erase again in a moment.', { busyUntil: erasure.until });
  const rows = erasure.kind === 'erased' ? removedRows(erasure.rows) : 0;
  await logAccess({ actor: office.actor, action: 'erase', rows, subject: hmac });
  return answer(erasure.kind === 'erased' ? ({ rows: erasure.rows } satisfies Erased) : NOTHING_HELD);
}
