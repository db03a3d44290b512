/** Time to first byte of a GET, as a browser's first visit pays it: a new connection, no cache. */
import http from 'node:http';

/**
 * Milliseconds from sending GET `url` on a new connection to its status line and headers; the body is
 * read to its end before resolving, so one measurement never overlaps the next.
 *
 * @param {string} url
 * @returns {Promise<{ ms: number, status: number }>}
 */
export function firstByteMs(url) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(
      url,
      {
        agent: false,
        headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' },
        timeout: 60_000,
      },
      (response) => {
        const ms = performance.now() - started;
        response.resume();
        response.on('end', () =>
          resolve({
            ms: Math.round(ms * 10) / 10,
            status: response.statusCode ?? 0,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} within 60 s`)));
    request.on('error', reject);
  });
}
