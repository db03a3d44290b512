export { MAX_BODY_BYTES, readBody, REFUSAL_STATUS, type BodyRead, type BodyRefusal } from './read-body.ts';
export { lockStore, StoreLockedError, type LockedThing } from './store-lock.ts';
