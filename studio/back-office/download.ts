/**
 * Saves `blob` as a file named `name`, through a link to an object URL: the answers it comes from need
 * the Authorization header on the hosted path, which a plain link could not send.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download: revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

const FILENAME = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i;

/** The file name a Content-Disposition header gives, or `fallback`. */
export function attachmentName(disposition: string | null, fallback: string): string {
  const match = disposition && FILENAME.exec(disposition);
  if (!match?.[1]) return fallback;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return fallback;
  }
}
