import { getSettings, getSiteLanguages } from '@/lib/content';
import { localePath } from '@/lib/shared/languages';

/**
 * This page in each of the site's languages, each named in its own language: plain links, so they work
 * without JavaScript, and the reader stays on the same page. None while the site has one language.
 */
export async function LanguageLinks({ path, current }: { path: string; current: string }) {
  const [site, { chrome }] = await Promise.all([getSiteLanguages(), getSettings(current)]);
  if (site.languages.length < 2) return null;
  return (
    <nav {...chrome.langOf.languageNav} aria-label={chrome.languageNav} className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
      <ul className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm">
        {site.languages.map(({ tag, name, direction }) => (
          <li key={tag}>
            <a
              href={localePath(path, tag, site)}
              hrefLang={tag}
              lang={tag}
              dir={direction}
              aria-current={tag === current ? 'page' : undefined}
              className="rounded px-1 py-2 text-brand-700 underline-offset-2 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-ink"
            >
              {name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
