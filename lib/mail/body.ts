import type { Language } from '@/lib/shared/languages';

/** `textIn`: the language of a labelled text where it may be another than the email's (the record's summary). */
type Labelled = { label: string; text: string; textIn?: Pick<Language, 'tag' | 'direction'> };

/**
 * An email's body as a few blocks, written once and rendered twice: the plain-text part and the HTML
 * part say the same, link for link. Every text is the editor's (Site settings → Subscription) or the
 * reviewer's summary, escaped in the HTML; every link is the site's own.
 */
export type Block = { paragraph: string } | Labelled | { link: string; href: string };

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

/**
 * Text escaped, with each of `names` (the product's name, an address) in <bdi> where it stands as a
 * whole word: a name in another script than its sentence keeps its own order (an English name in an
 * Arabic line), and the punctuation after it stays with the sentence.
 */
function isolating(names: readonly string[]): (text: string) => string {
  const words = names.filter(Boolean).map((name) => escapeHtml(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return escapeHtml;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.sort((a, b) => b.length - a.length).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  return (text) => escapeHtml(text).replace(pattern, (name) => `<bdi>${name}</bdi>`);
}

/** `text` in an element of its own language where that is not the email's: it then reads and is spoken as itself. */
const inLanguage = (text: string, of: Labelled, writtenIn: HtmlPart['writtenIn']) =>
  of.textIn && of.textIn.tag !== writtenIn.tag
    ? `<span lang="${escapeHtml(of.textIn.tag)}" dir="${of.textIn.direction}">${text}</span>`
    : text;

const htmlBlock = (text: (value: string) => string, writtenIn: HtmlPart['writtenIn']) => (block: Block) => {
  if ('paragraph' in block) return `<p>${text(block.paragraph).replace(/\n/g, '<br>')}</p>`;
  if ('label' in block) return `<p><strong>${text(block.label)}</strong> ${inLanguage(text(block.text), block, writtenIn)}</p>`;
  return `<p><a href="${escapeHtml(block.href)}" style="${LINK_STYLE}">${text(block.link)}</a></p>`;
};

/** What the HTML part says of itself: its title, the language it is written in, and the names its sentences hold. */
export type HtmlPart = { title: string; writtenIn: Pick<Language, 'tag' | 'direction'>; names: readonly string[] };

/** A whole document, inline styles only (mail clients drop stylesheets), readable at any width. */
export function renderHtml({ main, footer }: Body, { title, writtenIn, names }: HtmlPart): string {
  const block = htmlBlock(isolating(names), writtenIn);
  const language = `lang="${escapeHtml(writtenIn.tag)}" dir="${writtenIn.direction}"`;
  return [
    '<!doctype html>',
    `<html ${language}>`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,Segoe UI,sans-serif;line-height:1.5;color:#111827">',
    // Again on the content, aligned to its start: a webmail that shows the body inside its own page drops <html>.
    `<div ${language} style="max-width:560px;margin:0 auto;text-align:start">`,
    ...main.map(block),
    '<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">',
    `<div style="font-size:13px;color:#4b5563">${footer.map(block).join('')}</div>`,
    '</div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
