import http from 'node:http';

/**
 * The site's forms posted over HTTP as a browser without JavaScript posts them: load the page, keep the
 * form's hidden inputs (React's $ACTION_ fields), send multipart/form-data to the page.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

export const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    return ENTITIES[entity] ?? whole;
  });

export const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name.replace(/\$/g, '\\$')}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]!) : undefined;
};

/** The forms of the site: the page each is on and its `action` attribute. */
export const FORMS = {
  support: { page: '/support', action: '/support#request-feedback', region: 'id="request-feedback"', end: '</dialog>' },
  subscribe: { page: '/', action: '/#stay-updated', region: 'id="stay-updated"', end: '</section>' },
} as const;
export type FormName = keyof typeof FORMS;

const loaded = new Map<string, Promise<[string, string][]>>();

/** The controls of form `name` as the page serves them: [name, value] in document order (read once per server). */
export function formControls(baseURL: string, name: FormName): Promise<[string, string][]> {
  const key = `${new URL(baseURL).origin} ${name}`;
  if (!loaded.has(key)) loaded.set(key, readControls(baseURL, name));
  return loaded.get(key)!;
}

async function readControls(baseURL: string, name: FormName): Promise<[string, string][]> {
  const { page, action } = FORMS[name];
  const response = await fetch(new URL(page, baseURL));
  const html = await response.text();
  const start = html.indexOf(`action="${action}"`);
  if (response.status !== 200 || start < 0) throw new Error(`no form ${action} on ${page} (HTTP ${response.status})`);
  const body = html.slice(start, html.indexOf('</form>', start));
  const controls: [string, string][] = [];
  for (const [tag] of body.matchAll(/<(input|textarea)\b[^>]*>/g)) {
    const control = attribute(tag, 'name');
    if (control) controls.push([control, attribute(tag, 'value') ?? '']);
  }
  return controls;
}

export type FormAnswer = { status: number; html: string; statusText: string };

/** The status line a visitor sees in form `name`'s part of the answered page. */
export function statusLine(html: string, name: FormName): string {
  const { region, end } = FORMS[name];
  const start = html.indexOf(region);
  const part = start >= 0 ? html.slice(start, html.indexOf(end, start)) : '';
  const match = /role="status"[^>]*>([\s\S]*?)<\/p>/.exec(part);
  return match ? decodeEntities(match[1]!.replace(/<[^>]+>/g, '')).trim() : '';
}

type PostOptions = { headers?: Record<string, string>; localAddress?: string };

/**
 * Posts form `name` with the visitor's `fields` in place of the page's values. `localAddress` sends
 * from another loopback address (127.0.0.0/8 all reaches this machine): a distinct real TCP peer.
 */
export async function postForm(baseURL: string, name: FormName, fields: Record<string, string>, options: PostOptions = {}): Promise<FormAnswer> {
  const data = new FormData();
  for (const [control, value] of await formControls(baseURL, name)) if (!(control in fields)) data.append(control, value);
  for (const [control, value] of Object.entries(fields)) data.append(control, value);
  const encoded = new Response(data);
  const body = Buffer.from(await encoded.arrayBuffer());
  const url = new URL(FORMS[name].page, baseURL);
  const headers = {
    origin: url.origin,
    accept: 'text/html',
    'content-type': encoded.headers.get('content-type')!,
    'content-length': String(body.length),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers, localAddress: options.localAddress }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const html = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, html, statusText: statusLine(html, name) });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}
