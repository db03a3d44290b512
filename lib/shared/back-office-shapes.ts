/**
 * What the back office's API answers, as JSON (dates as ISO 8601 strings): the shapes the server's route
 * sends and the Studio's tool reads. back-office.ts re-exports them with the paths and the validation.
 */

export const REQUEST_STATUSES = ['new', 'answered'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const ACCESS_ACTIONS = ['read', 'export', 'erase', 'export-notices'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

export type Page<T> = { rows: T[]; next: string | null };
export type Officer = { id: string; name: string };
export type Me = { officer: Officer; admin: boolean };

/** An officer as the access log and a request's "answered by" name them: their name and, to tell two apart, their id. */
export const actorName = ({ name, id }: Officer): string => `${name} (${id})`;
export type OfficeRequest = {
  id: string;
  createdAt: string;
  type: string;
  email: string;
  subject: string;
  message: string;
  language: string;
  status: RequestStatus;
  answeredAt: string | null;
  answeredBy: string | null;
};
export type RequestFilter = { type?: string; language?: string; status?: RequestStatus; email?: string };
export type SubscriberCount = { status: string; language: string; count: number };
export type OfficeSubscriber = { email: string; status: string; language: string; createdAt: string; confirmedAt: string | null };
/** A version's notices by state ('pending': queued or being sent), those of erased subscribers included. */
export type NoticeVersion = {
  date: string;
  announcedAt: string;
  withdrawnAt: string | null;
  told: number;
  pending: number;
  failed: number;
  cancelled: number;
  firstSent: string | null;
  lastSent: string | null;
};
/** `email` is null for someone erased since: the record keeps that they were told, not who they were. */
export type NoticeRecipient = { email: string | null; status: string; sentAt: string | null };
export type Told = { told: boolean; sentAt: string | null; erased: boolean };
export type PersonEmail = { kind: string; ref: string; status: string; sentAt: string | null; createdAt: string };
export type PersonData = { email: string; requests: OfficeRequest[]; subscription: OfficeSubscriber | null; emails: PersonEmail[] };
export type NothingHeld = { nothingHeld: true };
export type Erased = { rows: Record<string, number> };
export type AccessEntry = { at: string; actor: string; action: AccessAction; rows: number; subject: string | null };

/** Every refusal and failure: its HTTP status, and words for the editor. A 409 from erasing says until when. */
export type OfficeFailure = { message: string; busyUntil?: string };
