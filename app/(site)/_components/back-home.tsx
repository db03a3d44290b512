import { getSettings } from '@/lib/content';

/** The way back to the home page in the page's language, in the settings' words; its arrow points back in either direction. */
export async function BackHome({ language }: { language: string }) {
  const { chrome, home } = await getSettings(language);
  return (
    <a href={home.href} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
      <span aria-hidden="true" className="points-inline">
        ←
      </span>{' '}
      {/* Marked on its own: the arrow keeps the page's direction, and so points back. */}
      <span {...chrome.langOf.backHome}>{chrome.backHome}</span>
    </a>
  );
}
