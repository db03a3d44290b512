/**
 * An email's body as a few blocks, written once and rendered twice: the plain-text part and the HTML
 * part say the same, link for link. Every text is the editor's (Site settings → Subscription) or the
 * reviewer's summary, escaped in the HTML; every link is the site's own.
 */
export type Block = { paragraph: string } | { label: string; text: string } | { link: string; href: string };

export type Body = { main: Block[]; footer: Block[] };

const textBlock = (block: Block): string => {
  if ('paragraph' in block) return block.paragraph;
  if ('label' in block) return `${block.label} ${block.text}`;
  return `${block.link}: ${block.href}`;
};

/** Paragraphs apart, and the footer after the signature separator mail clients know ("-- "). */
export const renderText = ({ main, footer }: Body): string =>
  `${main.map(textBlock).join('\n\n')}\n\n-- \n${footer.map(textBlock).join('\n')}\n`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

const LINK_STYLE = 'color:#3451d1;font-weight:600';

function htmlBlock(block: Block): string {
  if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph).replace(/\n/g, '<br>')}</p>`;
  if ('label' in block) return `<p><strong>${escapeHtml(block.label)}</strong> ${escapeHtml(block.text)}</p>`;
  return `<p><a href="${escapeHtml(block.href)}" style="${LINK_STYLE}">${escapeHtml(block.link)}</a></p>`;
}

/** A whole document, inline styles only (mail clients drop stylesheets), readable at any width. */
export const renderHtml = ({ main, footer }: Body, title: string): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,Segoe UI,sans-serif;line-height:1.5;color:#111827">',
    '<div style="max-width:560px;margin:0 auto">',
    ...main.map(htmlBlock),
    '<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">',
    `<div style="font-size:13px;color:#4b5563">${footer.map(htmlBlock).join('')}</div>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
