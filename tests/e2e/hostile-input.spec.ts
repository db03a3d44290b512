import path from 'node:path';

import { MAX_BODY_BYTES } from '@school-site/guards';
import { REFUSALS, type Refusal } from '../../lib/http/refusals';
import { LIMITS } from '../../lib/forms/validation';
import { attribute, decodeEntities } from '../../testkit/forms.ts';
import { readStore, withStoreCopy } from '../../testkit/store.ts';
import { REQUEST_SENT, SEED_FORM, seedMessage, SUBSCRIBED } from '../../testkit/seed-copy';
import { expect, test } from '../../testkit/test.ts';

/**
 * Hostile input against the two form actions (support request, subscribe), sent over HTTP the way a
 * browser without JavaScript sends the form: fetch the page, take the form's hidden inputs (React's
 * $ACTION_ fields) and POST multipart/form-data to the page. Every case gets a clear message or is
 * stored verbatim (trimmed), never a 500, stores nothing when refused, and is never echoed unescaped.
 * A few cases go through the browser where the browser matters.
 */

const DATA_DIR = path.resolve(process.cwd(), process.env.DATA_DIR || '.data/e2e');

const SENT_TEXT = REQUEST_SENT;
const MESSAGES = {
  empty: seedMessage({ code: 'empty' }),
  email: seedMessage({ code: 'invalidEmail' }),
  type: seedMessage({ code: 'invalidType' }),
  subject: seedMessage({ code: 'tooLong', field: 'subject', max: LIMITS.subject }),
  message: seedMessage({ code: 'tooLong', field: 'message', max: LIMITS.message }),
  emailLength: seedMessage({ code: 'tooLong', field: 'email', max: LIMITS.email }),
  emailInvisible: seedMessage({ code: 'invisibleEmail' }),
} as const;

// ---------------------------------------------------------------------------------------------------
// The embedded store, read from a copy (the server process owns the directory).

type Row = Record<string, string>;

const readRows = <T = Row>(sql: string, params: unknown[] = []) => readStore<T>(DATA_DIR, sql, params);

type Table = 'support_requests' | 'newsletter_subscribers';
const COLUMNS: Record<Table, string> = {
  support_requests: 'email, subject, message, type, status',
  newsletter_subscribers: 'email',
};

/** Every row written since `since` (tests run one at a time, so: every row this case wrote). */
const rowsSince = (table: Table, since: Date) =>
  readRows<Row>(`select ${COLUMNS[table]} from public.${table} where created_at >= $1 order by created_at`, [since.toISOString()]);

// ---------------------------------------------------------------------------------------------------
// A no-JavaScript form submission.

type Form = { action: string; controls: [string, string][] };

/** The form whose action is `action`, with what a browser would send for it untouched. */
async function loadForm(baseURL: string, pagePath: string, action: string): Promise<Form> {
  const response = await fetch(new URL(pagePath, baseURL));
  expect(response.status).toBe(200);
  const html = await response.text();
  const start = html.indexOf(`action="${action}"`);
  expect(start, `form ${action} on ${pagePath}`).toBeGreaterThan(-1);
  const body = html.slice(start, html.indexOf('</form>', start));
  const controls: [string, string][] = [];
  for (const [tag] of body.matchAll(/<(input|textarea)\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    if (name) controls.push([name, attribute(tag, 'value') ?? '']);
  }
  return { action, controls };
}

function browserHeaders(baseURL: string): Record<string, string> {
  // One client for the whole suite: the main test server's quota is far above what it sends.
  return { origin: new URL(baseURL).origin, accept: 'text/html' };
}

type Answer = { status: number; html: string; region: string; statusText: string; button: string };

/** Cuts the answer down to the part a visitor sees for this form: its dialog (or section) and status line. */
function answerFor(status: number, html: string, target: Target): Answer {
  const marker = target === 'subscribe' ? 'id="stay-updated"' : `id="request-${SUPPORT_FORM}"`;
  const start = html.indexOf(marker);
  const end = target === 'subscribe' ? html.indexOf('</section>', start) : html.indexOf('</dialog>', start);
  const region = start >= 0 ? html.slice(start, end) : '';
  const statusMatch = /role="status"[^>]*>([\s\S]*?)<\/p>/.exec(region);
  const statusText = statusMatch ? decodeEntities(statusMatch[1]!.replace(/<[^>]+>/g, '')).trim() : '';
  const buttonMatch = /<button type="submit"[^>]*>([\s\S]*?)<\/button>/.exec(region);
  return { status, html, region, statusText, button: buttonMatch ? decodeEntities(buttonMatch[1]!.replace(/<[^>]+>/g, '')).trim() : '' };
}

type Target = 'support' | 'subscribe';
const SUPPORT_FORM = 'feedback';
const FORMS: Record<Target, { page: string; action: string }> = {
  support: { page: '/support', action: `/support#request-${SUPPORT_FORM}` },
  subscribe: { page: '/', action: '/#stay-updated' },
};

type Fields = Record<string, string | undefined>;

/** Posts the form with the visitor's fields replaced, added (extra names) or removed (undefined). */
async function postForm(
  baseURL: string,
  target: Target,
  fields: Fields,
  options: { appended?: [string, string][]; keep?: (name: string) => boolean } = {},
) {
  const form = await loadForm(baseURL, FORMS[target].page, FORMS[target].action);
  const data = new FormData();
  const seen = new Set<string>();
  for (const [name, value] of form.controls) {
    if (options.keep && !options.keep(name)) continue;
    if (name in fields) {
      if (seen.has(name)) continue;
      seen.add(name);
      const replacement = fields[name];
      if (replacement !== undefined) data.append(name, replacement);
    } else data.append(name, value);
  }
  for (const [name, value] of Object.entries(fields)) if (!seen.has(name) && value !== undefined) data.append(name, value);
  for (const [name, value] of options.appended ?? []) data.append(name, value);
  const url = new URL(form.action.split('#')[0]!, baseURL);
  const response = await fetch(url, { method: 'POST', body: data, headers: browserHeaders(baseURL), redirect: 'manual' });
  return answerFor(response.status, await response.text(), target);
}

/** Posts a hand-made body to the support page (wrong content types and the like). */
async function postRaw(baseURL: string, body: BodyInit, contentType: string | undefined, extraHeaders: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...browserHeaders(baseURL), ...extraHeaders };
  if (contentType) headers['content-type'] = contentType;
  const response = await fetch(new URL('/support', baseURL), { method: 'POST', body, headers, redirect: 'manual' });
  return answerFor(response.status, await response.text(), 'support');
}

/** The support form's action id, which the page's script sends in the Next-Action header. */
async function supportActionId(baseURL: string): Promise<string> {
  const form = await loadForm(baseURL, FORMS.support.page, FORMS.support.action);
  const bound = form.controls.find(([name]) => /^\$ACTION_\d+:0$/.test(name));
  expect(bound, 'the bound action field of the support form').toBeTruthy();
  return (JSON.parse(bound![1]) as { id: string }).id;
}

/** Form data as a browser encodes it: the bytes and the multipart Content-Type with its boundary. */
async function encodeForm(entries: [string, string][]): Promise<{ body: ArrayBuffer; contentType: string }> {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  const encoded = new Response(data);
  return { body: await encoded.arrayBuffer(), contentType: encoded.headers.get('content-type')! };
}

/** A crafted server-action call: the support action's real id in Next-Action, any body and content type. */
async function postAction(baseURL: string, body: BodyInit, contentType: string | undefined) {
  return postRaw(baseURL, body, contentType, { 'next-action': await supportActionId(baseURL), accept: 'text/x-component' });
}

/** The support form as the no-JavaScript browser sends it, with `fields` and `extra` entries, encoded. */
async function encodedSupportForm(
  baseURL: string,
  fields: Fields,
  keep: (name: string) => boolean = () => true,
  extra: [string, string][] = [],
) {
  const form = await loadForm(baseURL, FORMS.support.page, FORMS.support.action);
  const controls = form.controls.filter(([name]) => keep(name)).map(([name, value]): [string, string] => [name, fields[name] ?? value]);
  for (const [name, value] of Object.entries(fields))
    if (!controls.some(([control]) => control === name) && value !== undefined) controls.push([name, value]);
  return encodeForm([...controls, ...extra]);
}

/** The support form as the page serves it, with the visitor's `fields` in place, as FormData. */
async function supportFormData(baseURL: string, fields: typeof valid) {
  const form = await loadForm(baseURL, '/support', FORMS.support.action);
  const data = new FormData();
  for (const [name, value] of form.controls) data.append(name, value);
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const relabel = (contentType: string, spelling: string) => contentType.replace('multipart/form-data', spelling);

// ---------------------------------------------------------------------------------------------------
// The cases.

const valid = { email: 'hostile@example.com', subject: 'A subject', message: 'A message.' };
const long = (length: number, unit = 'x') => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
/** A valid address of `length` characters: the longest local part (64), then domain labels of at most 63 and ".com". */
function emailOfLength(length: number) {
  const labels: string[] = [];
  let left = length - 64 - '@'.length - '.com'.length;
  for (; left > 63; left -= 64) labels.push('b'.repeat(63));
  if (left < 1) throw new Error(`no address of ${length} characters is built this way`);
  return `${'a'.repeat(64)}@${[...labels, 'c'.repeat(left)].join('.')}.com`;
}
const MEGABYTE = 1024 * 1024;

/** Anything from the input that would be markup if echoed raw: none of it may appear unescaped. */
const DANGEROUS = /<script>alert|<img src=x onerror|<b>bold<\/b>|<\/textarea><script>|<svg onload/;

type Expectation =
  | { stored: Row } // stored verbatim (as trimmed), success shown
  | { message: string } // refused with this message, nothing stored
  | { silent: 'success' } // the answer bots hope for, nothing stored (honeypot)
  | { notAnAction: true } // not a form submission at all: the page or a plain refusal, nothing stored
  | { actionAnswered: true } // past the proxy: the action itself answers, stores nothing
  | { refused: number; says: RegExp }; // refused before the action runs, with this status and a readable page

type Case = {
  name: string;
  target: Target;
  send: (baseURL: string) => Promise<Answer>;
  expect: Expectation;
};

const support = (name: string, fields: Fields, expectation: Expectation, appended?: [string, string][]): Case => ({
  name,
  target: 'support',
  send: (baseURL) => postForm(baseURL, 'support', fields, { appended }),
  expect: expectation,
});
const stored = (fields: Fields, extra: Row = {}): Expectation => ({
  stored: {
    email: (fields.email ?? '').trim(),
    subject: (fields.subject ?? '').trim(),
    message: (fields.message ?? '').trim(),
    type: (fields.type ?? SUPPORT_FORM).trim(),
    status: 'new',
    ...extra,
  },
});
const supportStored = (name: string, fields: Fields, appended?: [string, string][]) =>
  support(name, { ...valid, ...fields }, stored({ ...valid, ...fields }), appended);
const supportRefused = (name: string, fields: Fields, message: string, appended?: [string, string][]) =>
  support(name, { ...valid, ...fields }, { message }, appended);

const subscribe = (name: string, email: string | undefined, expectation: Expectation, appended?: [string, string][]): Case => ({
  name,
  target: 'subscribe',
  send: (baseURL) => postForm(baseURL, 'subscribe', { email }, { appended }),
  expect: expectation,
});

const RUN = Date.now().toString(36);
/** The proxy's page for `refusal`: its status and its message, as the visitor reads it. */
const refusedAs = ({ status, message }: Refusal): Expectation => ({
  refused: status,
  says: new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
});
const TOO_LARGE = refusedAs(REFUSALS.tooLarge);
const NOT_A_FORM = refusedAs(REFUSALS.notAForm);
const SCRIPT = '<script>alert(document.cookie)</script>';
const HTML = '<b>bold</b><img src=x onerror=alert(1)><svg onload=alert(2)>';

const INVISIBLE_IN_EMAIL: [string, string][] = [
  ['U+0085 (next line, C1)', '\u0085'],
  ['U+009B (control sequence introducer, C1)', '\u009b'],
  ['U+0001 (C0)', '\u0001'],
  ['U+001B (escape)', '\u001b'],
  ['U+202E (right-to-left override)', '\u202e'],
  ['U+2066 (left-to-right isolate)', '\u2066'],
  ['U+200F (right-to-left mark)', '\u200f'],
  ['U+061C (Arabic letter mark)', '\u061c'],
  ['U+200B (zero-width space)', '\u200b'],
  ['U+200D (zero-width joiner)', '\u200d'],
  ['U+2060 (word joiner)', '\u2060'],
  ['U+FEFF (byte-order mark)', '\ufeff'],
];

const CASES: Case[] = [
  // Baseline and trimming.
  supportStored('a plain request is stored as sent', { subject: `Plain ${RUN}` }),
  supportStored('surrounding whitespace is trimmed, inner whitespace and newlines kept', {
    email: '  padded@example.com\t',
    subject: `\n  Padded ${RUN}  \n`,
    message: '  line one\r\n\r\n  line two  \n',
  }),

  // Lengths.
  supportStored('a subject of exactly 200 characters is stored', { subject: long(200, `Edge ${RUN} `) }),
  supportRefused('a subject of 201 characters is refused', { subject: long(201) }, MESSAGES.subject),
  supportStored('a message of exactly 5000 characters is stored', { subject: `Long message ${RUN}`, message: long(5000, 'lorem ipsum ') }),
  supportRefused('a message of 5001 characters is refused', { message: long(5001) }, MESSAGES.message),
  supportRefused('an email of 255 characters is refused', { email: emailOfLength(255) }, MESSAGES.emailLength),
  supportStored('an email of exactly 254 characters is stored', { email: emailOfLength(254), subject: `Long email ${RUN}` }),
  // Over Next's server-action body limit (1 MB): refused with a page a person can read, not a 500.
  support('a 1 MB message is refused as too large, not a crash', { ...valid, message: long(MEGABYTE, 'overflow ') }, TOO_LARGE),
  support('a 1 MB subject is refused as too large, not a crash', { ...valid, subject: long(MEGABYTE) }, TOO_LARGE),
  {
    name: 'a 1 MB body without a Content-Length (chunked) is refused, not a crash',
    target: 'support',
    send: async (baseURL) => {
      const data = await supportFormData(baseURL, { ...valid, message: long(MEGABYTE, 'chunked ') });
      const encoded = new Response(data);
      const response = await fetch(new URL('/support', baseURL), {
        method: 'POST',
        body: encoded.body,
        duplex: 'half',
        headers: { ...browserHeaders(baseURL), 'content-type': encoded.headers.get('content-type')! },
        redirect: 'manual',
      } as RequestInit);
      return answerFor(response.status, await response.text(), 'support');
    },
    // Without a Content-Length the proxy reads up to the cap and stops there.
    expect: TOO_LARGE,
  },

  // Unicode.
  supportStored('accents, CJK and combining marks are stored verbatim', {
    subject: `Ünïcödé ${RUN} 日本語 한국어`,
    message: 'Zalgo: Z̷̢͓a̶͎l̵̰g̸̜o̴̡ — e\u0301 vs \u00e9 — ẞ ﬁ ℌ',
  }),
  supportStored('right-to-left text and direction overrides are stored verbatim', {
    subject: `\u202eRTL override ${RUN}\u202c`,
    message: 'مرحبا بالعالم — שלום עולם — \u2067isolate\u2069 \u200fRLM',
  }),
  supportStored('zero-width characters inside the text are stored verbatim', {
    subject: `Zero\u200bwidth\u200c${RUN}\u200d`,
    message: 'join\u2060er and soft\u00adhyphen',
  }),
  supportRefused('a subject made only of a byte-order mark counts as empty', { subject: '\ufeff \ufeff' }, MESSAGES.empty),
  supportStored('emoji, flags and joined sequences are stored verbatim', {
    subject: `Emoji ${RUN} 🎉🇺🇸👩🏽‍💻`,
    message: '👨‍👩‍👧‍👦 family, 🏳️‍🌈 flag, 🧑🏿‍🦱 skin tone, 𝕌𝕟𝕚𝕔𝕠𝕕𝕖 math letters',
  }),
  // The database counts characters (code points), not UTF-16 units: 150 emoji are 150 characters.
  supportStored('150 emoji in the subject are 150 characters, within the 200 limit', { subject: `${RUN}${'😀'.repeat(150 - RUN.length)}` }),
  supportStored('line and paragraph separators are stored verbatim', { subject: `Separators ${RUN}`, message: 'a\u2028b\u2029c' }),
  supportStored('control characters are stored verbatim', {
    subject: `Controls ${RUN}`,
    message: 'bell\u0007 escape\u001b[31m red\u001b[0m',
  }),
  supportRefused(
    'a NUL character gets a clear message',
    { subject: `Nul ${RUN}`, message: 'before\u0000after' },
    'Please remove unsupported characters.',
  ),

  // Markup and injection.
  supportStored('HTML is stored verbatim', { subject: `Html ${RUN} ${HTML}`, message: HTML }),
  supportStored('a script tag is stored verbatim', {
    subject: `Script ${RUN} ${SCRIPT}`,
    message: `${SCRIPT}</textarea><script>alert(1)</script>`,
  }),
  supportRefused(
    'a refused request echoes its script tags escaped only',
    { subject: `${SCRIPT} ${RUN}`, message: '</textarea><script>alert(1)</script>', email: `"><script>alert(1)</script>@x.com` },
    MESSAGES.email,
  ),
  supportStored('SQL metacharacters are stored verbatim', {
    subject: `Robert'); DROP TABLE support_requests;-- ${RUN}`,
    message: `' OR '1'='1' --; SELECT * FROM pg_user; \\x00 $1 $$ E'\\n' /* */ %_`,
  }),
  supportStored('an apostrophe in the email is stored verbatim', { email: "o'brien+tag@example.com", subject: `Apostrophe ${RUN}` }),
  supportRefused(
    'a newline in the email (header injection) is refused',
    { email: 'victim@example.com\r\nBcc: everyone@example.com' },
    MESSAGES.emailInvisible,
  ),
  supportRefused('a bare newline in the email is refused', { email: 'victim@example.com\nX-Injected: 1' }, MESSAGES.emailInvisible),
  // Control, bidirectional and zero-width characters make an address read as another one: refused.
  ...INVISIBLE_IN_EMAIL.map(([name, character]) =>
    supportRefused(
      `an email with ${name} inside is refused`,
      { email: `vic${character}tim@exam${character}ple.com` },
      MESSAGES.emailInvisible,
    ),
  ),
  supportRefused('two addresses in the email are refused', { email: 'a@example.com,b@example.com' }, MESSAGES.email),

  // Missing, unknown and forged fields.
  support('a request without an email field is refused', { ...valid, email: undefined }, { message: MESSAGES.empty }),
  support(
    'a request with no visitor fields at all is refused',
    { email: undefined, subject: undefined, message: undefined, type: undefined },
    { message: MESSAGES.empty },
  ),
  support('a request without a type is refused', { ...valid, type: undefined }, { message: MESSAGES.empty }),
  supportRefused('a type outside issue|feedback|feature is refused', { type: 'admin' }, MESSAGES.type),
  supportRefused('a type that only differs in case is refused', { type: 'Issue' }, MESSAGES.type),
  supportRefused('a SQL type is refused', { type: "issue' OR 1=1 --" }, MESSAGES.type),
  support(
    'a forged status is ignored: the row is new',
    { ...valid, subject: `Forged status ${RUN}`, status: 'resolved' },
    stored({ ...valid, subject: `Forged status ${RUN}` }),
  ),
  support(
    'extra fields (id, created_at, role) are ignored',
    { ...valid, subject: `Extra fields ${RUN}` },
    stored({ ...valid, subject: `Extra fields ${RUN}` }),
    [
      ['id', '00000000-0000-0000-0000-000000000000'],
      ['created_at', '1970-01-01T00:00:00Z'],
      ['role', 'service_role'],
      ['status', 'closed'],
      ['x'.repeat(1000), 'long name'],
    ],
  ),
  support(
    'a second type value after the real one is ignored',
    { ...valid, subject: `Second type ${RUN}` },
    stored({ ...valid, subject: `Second type ${RUN}` }),
    [['type', 'admin']],
  ),
  support(
    'a filled honeypot gets the success answer and nothing is stored',
    { ...valid, website: 'http://spam.example' },
    { silent: 'success' },
  ),

  // Not a real form submission.
  {
    name: 'a urlencoded body (wrong content type) stores nothing',
    target: 'support',
    send: (baseURL) => postRaw(baseURL, new URLSearchParams({ ...valid, type: 'issue' }).toString(), 'application/x-www-form-urlencoded'),
    expect: NOT_A_FORM,
  },
  {
    name: 'a JSON body stores nothing',
    target: 'support',
    send: (baseURL) => postRaw(baseURL, JSON.stringify({ ...valid, type: 'issue' }), 'application/json'),
    expect: NOT_A_FORM,
  },
  {
    name: 'a text/plain body stores nothing',
    target: 'support',
    send: (baseURL) => postRaw(baseURL, `email=${valid.email}\nsubject=x\nmessage=y\ntype=issue`, 'text/plain'),
    expect: NOT_A_FORM,
  },
  {
    name: 'the form sent as Multipart/Form-Data (another letter case) is refused as unreadable',
    target: 'support',
    send: async (baseURL) => {
      const { body, contentType } = await encodedSupportForm(baseURL, { ...valid, subject: `Case ${RUN}` });
      return postRaw(baseURL, body, relabel(contentType, 'Multipart/Form-Data'));
    },
    expect: NOT_A_FORM,
  },

  // Crafted server-action calls, as a script would send them with the action's real id.
  ...(['Multipart/Form-Data', 'MULTIPART/FORM-DATA'] as const).map((spelling): Case => ({
    name: `an action call sent as ${spelling} is refused as unreadable`,
    target: 'support',
    send: async (baseURL) => {
      const { body, contentType } = await encodeForm([
        ['0', JSON.stringify([{ status: 'idle' }, '$K1'])],
        ['1_email', valid.email],
      ]);
      return postAction(baseURL, body, relabel(contentType, spelling));
    },
    expect: NOT_A_FORM,
  })),
  ...(
    [
      ['text/plain', 'text/plain;charset=UTF-8', `email=${valid.email}`],
      ['JSON', 'application/json', JSON.stringify([{ status: 'idle' }, { ...valid, type: 'issue' }])],
      ['urlencoded', 'application/x-www-form-urlencoded', new URLSearchParams({ ...valid, type: 'issue' }).toString()],
      ['urlencoded in capitals', 'Application/X-WWW-Form-Urlencoded', new URLSearchParams({ ...valid, type: 'issue' }).toString()],
      ['no content type', undefined, '["$undefined","$undefined"]'],
      ['JSON that is not an argument list, as text/plain', 'text/plain;charset=UTF-8', JSON.stringify({ ...valid, type: 'issue' })],
    ] as const
  ).map(([name, contentType, body]): Case => ({
    name: `an action call with a ${name} body is refused as unreadable`,
    target: 'support',
    // A Uint8Array body gets no Content-Type from fetch: the case without one stays without one.
    send: (baseURL) => postAction(baseURL, new TextEncoder().encode(body), contentType),
    expect: NOT_A_FORM,
  })),
  {
    name: 'an action call with bytes that are not UTF-8 as text/plain is refused as unreadable',
    target: 'support',
    send: (baseURL) => postAction(baseURL, new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), 'text/plain;charset=UTF-8'),
    expect: NOT_A_FORM,
  },
  {
    name: 'an action call with 2 MB of text/plain is refused as too large',
    target: 'support',
    send: (baseURL) => postAction(baseURL, new TextEncoder().encode(long(2 * MEGABYTE)), 'text/plain'),
    expect: TOO_LARGE,
  },
  // React's own encoding of an action's plain arguments (next-sanity's Live and Presentation callbacks
  // send it): the proxy lets it through, and the support action, given no form, stores nothing.
  ...(
    [
      ['a form state and a string', [{ status: 'idle' }, 'not a form']],
      ['undefined in place of the form', ['$undefined', '$undefined']],
      ['no arguments at all', []],
    ] as const
  ).map(([name, args]): Case => ({
    name: `an action call in React's text/plain encoding with ${name} reaches the action, stores nothing and is no crash`,
    target: 'support',
    send: (baseURL) => postAction(baseURL, JSON.stringify(args), 'text/plain;charset=UTF-8'),
    expect: { actionAnswered: true },
  })),
  {
    name: 'a 2 MB JSON body without an action is refused as unreadable',
    target: 'support',
    send: (baseURL) => postRaw(baseURL, JSON.stringify({ message: long(2 * MEGABYTE) }), 'application/json'),
    expect: NOT_A_FORM,
  },
  ...(
    [
      ['a 2 MB multipart action call', 2 * MEGABYTE],
      ['an action call just over the body cap', MAX_BODY_BYTES],
    ] as const
  ).map(([name, bytes]): Case => ({
    name: `${name} is refused as too large`,
    target: 'support',
    send: async (baseURL) => {
      const { body, contentType } = await encodeForm([
        ['0', JSON.stringify([{ status: 'idle' }, '$K1'])],
        ['1_message', long(bytes)],
      ]);
      return postAction(baseURL, body, contentType);
    },
    expect: TOO_LARGE,
  })),
  ...(
    [
      ['undefined in place of the form', ['$undefined', '$undefined']],
      ['a string in place of the form', [{ status: 'idle' }, 'not a form']],
      ['no arguments at all', []],
    ] as const
  ).map(([name, args]): Case => ({
    name: `an action call with ${name} stores nothing and is no crash`,
    target: 'support',
    send: async (baseURL) => {
      const { body, contentType } = await encodeForm([['0', JSON.stringify(args)]]);
      return postAction(baseURL, body, contentType);
    },
    expect: { notAnAction: true },
  })),
  ...(
    [
      ['naming the action without its bound state', (id: string): [string, string][] => [[`$ACTION_ID_${id}`, '']]],
      [
        'with forged bound arguments',
        (id: string): [string, string][] => [
          ['$ACTION_REF_1', ''],
          ['$ACTION_1:0', JSON.stringify({ id, bound: '$@1' })],
          ['$ACTION_1:1', JSON.stringify([1, 2, 3])],
          ['$ACTION_KEY', 'k'],
        ],
      ],
    ] as const
  ).map(([name, actionFields]): Case => ({
    name: `a no-JavaScript post ${name} stores nothing and is no crash`,
    target: 'support',
    send: async (baseURL) => {
      const extra = actionFields(await supportActionId(baseURL));
      const { body, contentType } = await encodedSupportForm(
        baseURL,
        { ...valid, subject: `Forged action ${RUN}` },
        (field) => !field.startsWith('$ACTION'),
        extra,
      );
      return postRaw(baseURL, body, contentType);
    },
    expect: { notAnAction: true },
  })),
  {
    name: 'a post without an Origin (no page sent it) stores nothing',
    target: 'support',
    send: async (baseURL) => {
      const { body, contentType } = await encodedSupportForm(baseURL, { ...valid, subject: `No origin ${RUN}` });
      const response = await fetch(new URL('/support', baseURL), {
        method: 'POST',
        body,
        headers: { 'content-type': contentType },
        redirect: 'manual',
      });
      return answerFor(response.status, await response.text(), 'support');
    },
    expect: refusedAs(REFUSALS.crossSite),
  },
  {
    name: 'a multipart body without the action fields stores nothing',
    target: 'support',
    send: (baseURL) =>
      postForm(baseURL, 'support', { ...valid, subject: `No action ${RUN}` }, { keep: (name) => !name.startsWith('$ACTION') }),
    expect: { notAnAction: true },
  },
  {
    name: 'a forged action id stores nothing',
    target: 'support',
    send: (baseURL) =>
      postForm(
        baseURL,
        'support',
        { ...valid, subject: `Forged id ${RUN}` },
        { keep: (name) => !name.startsWith('$ACTION'), appended: [['$ACTION_ID_00deadbeef00deadbeef00deadbeef00deadbeef00', '']] },
      ),
    expect: { notAnAction: true },
  },
  {
    name: 'a truncated multipart body is refused as unreadable',
    target: 'support',
    send: (baseURL) =>
      postRaw(
        baseURL,
        '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x\r\nContent-Disp',
        'multipart/form-data; boundary=x',
      ),
    expect: refusedAs(REFUSALS.unreadable),
  },
  {
    name: 'a post from another site (CSRF) stores nothing',
    target: 'support',
    send: async (baseURL) => {
      const data = await supportFormData(baseURL, { ...valid, subject: `CSRF ${RUN}` });
      const response = await fetch(new URL('/support', baseURL), {
        method: 'POST',
        body: data,
        headers: { ...browserHeaders(baseURL), origin: 'https://evil.example' },
        redirect: 'manual',
      });
      return answerFor(response.status, await response.text(), 'support');
    },
    expect: refusedAs(REFUSALS.crossSite),
  },

  // Subscribe.
  subscribe('a plain address subscribes', `plain.${RUN}@example.com`, { stored: { email: `plain.${RUN}@example.com` } }),
  subscribe('an apostrophe and plus sign are stored verbatim', `o'neil+news.${RUN}@example.com`, {
    stored: { email: `o'neil+news.${RUN}@example.com` },
  }),
  subscribe('an international address is stored verbatim', `josé.${RUN}@exämple.com`, { stored: { email: `josé.${RUN}@exämple.com` } }),
  subscribe('a newline in the address (header injection) is refused', `x.${RUN}@example.com\r\nBcc: all@example.com`, {
    message: MESSAGES.emailInvisible,
  }),
  ...INVISIBLE_IN_EMAIL.map(([name, character]) =>
    subscribe(`an address with ${name} inside is refused`, `sub${character}.${RUN}@example.com`, { message: MESSAGES.emailInvisible }),
  ),
  subscribe('markup as an address is refused and echoed escaped', `${SCRIPT}@example.com`, { message: MESSAGES.email }),
  subscribe('SQL as an address is refused', `'; DROP TABLE newsletter_subscribers;--`, { message: MESSAGES.email }),
  subscribe('an address of 255 characters is refused', emailOfLength(255), { message: MESSAGES.emailLength }),
  subscribe('a 1 MB address is refused as too large, not a crash', long(MEGABYTE, 'a'), TOO_LARGE),
  subscribe('a missing address is refused', undefined, { message: MESSAGES.email }),
  subscribe('a whitespace-only address is refused', ' \u00a0 \t', { message: MESSAGES.email }),
  subscribe('extra fields are ignored', `extra.${RUN}@example.com`, { stored: { email: `extra.${RUN}@example.com` } }, [
    ['status', 'confirmed'],
    ['id', '1'],
  ]),
];

const TABLE: Record<Target, Table> = { support: 'support_requests', subscribe: 'newsletter_subscribers' };

/** What one case got back (or why sending it failed), and the rows written while it was being sent. */
type Outcome = { answer: Answer | { failed: string }; rows: Row[] };

/**
 * Sends every case in turn, then reads the store once: a read copies the whole store (about 1.3 s), so
 * reading it per case cost most of this file's time. Cases run one at a time, so each row belongs to the
 * case whose sending window holds its created_at.
 */
async function sendAll(baseURL: string): Promise<Map<Case, Outcome>> {
  const windows: { item: Case; from: number; to: number; answer: Outcome['answer'] }[] = [];
  for (const item of CASES) {
    const from = Date.now();
    const answer = await item.send(baseURL).catch((error: unknown) => ({ failed: String(error) }));
    windows.push({ item, from, to: Date.now() + 1, answer });
  }
  const since = new Date(windows[0]!.from).toISOString();
  const written = await withStoreCopy(DATA_DIR, async (db) => {
    const found: { table: Table; at: number; row: Row }[] = [];
    for (const table of Object.keys(COLUMNS) as Table[]) {
      const { rows } = await db.query<Row & { created_at: Date }>(
        `select created_at, ${COLUMNS[table]} from public.${table} where created_at >= $1 order by created_at`,
        [since],
      );
      for (const { created_at, ...row } of rows) found.push({ table, at: created_at.getTime(), row });
    }
    return found;
  });
  return new Map(
    windows.map(({ item, from, to, answer }) => [
      item,
      {
        answer,
        rows: written.filter(({ table, at }) => table === TABLE[item.target] && at >= from && at <= to).map(({ row }) => row),
      },
    ]),
  );
}

test.describe('hostile input over HTTP, as a browser without JavaScript sends the forms', () => {
  // Sending the whole table takes under a minute here; a beforeAll hook has a limit of its own (the
  // config's), so the describe's is set on the hook too, and the reporter lists the hook's time with it.
  const LIMIT_MS = 180_000;
  test.describe.configure({ timeout: LIMIT_MS });
  let outcomes: Map<Case, Outcome>;
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(LIMIT_MS);
    outcomes = await sendAll(baseURL!);
  });

  for (const item of CASES) {
    test(`${item.target}: ${item.name}`, () => {
      const { answer, rows } = outcomes.get(item)!;
      if ('failed' in answer) throw new Error(`sending the case failed: ${answer.failed}`);

      expect(answer.status, answer.html.slice(0, 500)).toBeLessThan(500);
      expect(answer.html).not.toMatch(DANGEROUS);
      const expectation = item.expect;

      if ('stored' in expectation) {
        expect(answer.status).toBe(200);
        expect(answer.statusText).toBe(item.target === 'support' ? SENT_TEXT : SUBSCRIBED);
        if (item.target === 'support') expect(answer.button).toBe(SEED_FORM.sent);
        expect(rows).toEqual([expectation.stored]);
      } else if ('message' in expectation) {
        expect(answer.status).toBe(200);
        expect(answer.statusText).toBe(expectation.message);
        if (item.target === 'support') expect(answer.button).toBe(SEED_FORM.error);
        expect(rows).toEqual([]);
      } else if ('refused' in expectation) {
        expect(answer.status).toBe(expectation.refused);
        expect(answer.html).toMatch(expectation.says);
        expect(rows).toEqual([]);
      } else if ('silent' in expectation) {
        expect(answer.statusText).toBe(SENT_TEXT);
        expect(rows).toEqual([]);
      } else if ('actionAnswered' in expectation) {
        expect(answer.status).toBe(200);
        expect(rows).toEqual([]);
      } else {
        // Not handled as a submission: no success and no row.
        expect(answer.statusText).not.toBe(SENT_TEXT);
        expect(rows).toEqual([]);
      }
    });
  }

  test('the case table is big enough to mean something', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });
});

test.describe('hostile input through the browser', () => {
  test('markup typed into the form is stored verbatim and never becomes markup on the page', async ({ page }) => {
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/support');
    await page.getByRole('link', { name: /^Report an Issue/ }).click();
    const dialog = page.locator('dialog#request-issue');
    const subject = `<img src=x onerror="window.__pwned=1"> ${RUN} browser`;
    const message = `${SCRIPT}\n👩🏽‍💻 مرحبا \u200b zero-width`;
    const since = new Date();
    await dialog.getByLabel(SEED_FORM.emailLabel).fill('browser@example.com');
    await dialog.getByLabel(SEED_FORM.subjectLabel).fill(subject);
    await dialog.getByLabel(SEED_FORM.messageLabel).fill(message);
    await dialog.locator('button[type="submit"]').click();
    await expect(dialog.locator('button[type="submit"]')).toHaveText(SEED_FORM.sent);
    // Browsers send a textarea's line breaks as CRLF; everything else arrives and is stored as typed.
    const sent = message.replace(/\n/g, '\r\n');
    expect(await rowsSince('support_requests', since)).toEqual([
      { email: 'browser@example.com', subject, message: sent, type: 'issue', status: 'new' },
    ]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(alerts).toEqual([]);
  });

  test('an overlong message is refused in the browser before anything is sent', async ({ page }) => {
    let posts = 0;
    page.on('request', (request) => request.method() === 'POST' && (posts += 1));
    await page.goto('/support');
    await page.getByRole('link', { name: /^Feature Requests/ }).click();
    const dialog = page.locator('dialog#request-feature');
    await dialog.getByLabel(SEED_FORM.emailLabel).fill('long@example.com');
    await dialog.getByLabel(SEED_FORM.subjectLabel).fill('Long');
    await dialog.getByLabel(SEED_FORM.messageLabel).fill(long(6000));
    await dialog.locator('button[type="submit"]').click();
    await expect(dialog.getByRole('status')).toHaveText(MESSAGES.message);
    await expect(dialog.locator('button[type="submit"]')).toHaveText(SEED_FORM.error);
    await expect(dialog.getByLabel(SEED_FORM.messageLabel)).toHaveValue(long(6000));
    expect(posts).toBe(0);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('a refused request echoes hostile values inside the fields only', async ({ page }) => {
      await page.goto('/support#request-issue');
      const dialog = page.locator('dialog#request-issue');
      // Valid for the browser's own email check, refused by the server: the answer echoes every field.
      const email = 'x@localhost';
      const subject = `"><img src=x onerror=alert(1)> ${SCRIPT}`;
      const message = `</textarea><img src=x onerror=alert(2)>${SCRIPT}`;
      const since = new Date();
      await dialog.getByLabel(SEED_FORM.emailLabel).fill(email);
      await dialog.getByLabel(SEED_FORM.subjectLabel).fill(subject);
      await dialog.getByLabel(SEED_FORM.messageLabel).fill(message);
      const answer = page.waitForResponse((response) => response.request().method() === 'POST');
      await dialog.locator('button[type="submit"]').click();
      const html = await (await answer).text();
      await page.waitForLoadState();

      expect(html).not.toMatch(DANGEROUS);
      const after = page.locator('dialog#request-issue');
      await expect(after.getByRole('status')).toHaveText(MESSAGES.email);
      await expect(after.getByLabel(SEED_FORM.emailLabel)).toHaveValue(email);
      await expect(after.getByLabel(SEED_FORM.subjectLabel)).toHaveValue(subject);
      await expect(after.getByLabel(SEED_FORM.messageLabel)).toHaveValue(message);
      await expect(page.locator('img[src="x"]')).toHaveCount(0);
      expect(await rowsSince('support_requests', since)).toEqual([]);
    });
  });
});
