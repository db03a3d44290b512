/** What a support request is stored as: the `type` column's CHECK (supabase/migrations), the form's hidden value, the Studio's choice. */
export const REQUEST_TYPES = ['issue', 'feedback', 'feature'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const isRequestType = (value: string): value is RequestType => (REQUEST_TYPES as readonly string[]).includes(value);

/** How the Studio names each type for editors. */
export const REQUEST_TYPE_TITLES: Record<RequestType, string> = { issue: 'Issue', feedback: 'Feedback', feature: 'Feature request' };
