import type { PolicyLanguages } from '@/lib/content/policy-view';
import type { SiteNoticeView, UpcomingView } from '@/lib/policy/policy-notice-views';
import type { LangAttrs } from '@/lib/shared/text-language';

import { TextLink } from './policy-sections';

const SITE_NOTICE_ID = 'site-notice';

/**
 * The one line above every public page while a new version of the policy is announced: server-rendered,
 * still. A landmark of its own, named by its text, so that a screen reader's list of regions finds it and
 * no content sits outside one; its link underlined, as the only sign of a link in a line of text.
 */
export function SiteNotice({ notice }: { notice: (SiteNoticeView & { lang?: LangAttrs }) | null }) {
  if (!notice) return null;
  return (
    <aside aria-labelledby={SITE_NOTICE_ID} className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-ink">
      <p {...notice.lang} id={SITE_NOTICE_ID} role="note">
        {notice.text} <TextLink {...notice.link} underlined />
      </p>
    </aside>
  );
}

type LanguageLines = {
  governingNote: string | null;
  translationPending: { line: string; earlier: { label: string; href: string } | null } | null;
  /** The page's own words: in the reader's language, or the default's where the policy's translation has none. */
  langOf: Pick<PolicyLanguages, 'versions'>;
};

/**
 * Above a policy in another language than the default: that the governing text governs, when the
 * translation is shown; or, when the version has no translation ready, that the governing text follows,
 * with a link to the translation of an earlier version, which says on its page that it is not in effect.
 */
export function LanguageNotes({ governingNote, translationPending, langOf }: LanguageLines) {
  if (governingNote)
    return (
      <p {...langOf.versions} className="mt-6 text-sm text-muted">
        {governingNote}
      </p>
    );
  if (!translationPending) return null;
  return (
    <aside {...langOf.versions} role="note" className="mt-6 rounded-xl border border-brand-200 bg-brand-50 p-4 text-ink">
      <p>{translationPending.line}</p>
      {translationPending.earlier ? (
        <p className="mt-2">
          <TextLink {...translationPending.earlier} />
        </p>
      ) : null}
    </aside>
  );
}

/** At the top of /privacy meanwhile: when the new version takes effect, what it changes, and where to read it. */
export function UpcomingNotice({ notice }: { notice: (UpcomingView & { lang?: LangAttrs; summaryLang?: LangAttrs }) | null }) {
  if (!notice) return null;
  return (
    <aside {...notice.lang} id={notice.id} role="note" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-ink">
      <p className="font-semibold">{notice.text}</p>
      {notice.summary ? (
        <p className="mt-2">
          <span className="font-semibold">{notice.summary.label}</span> <span {...notice.summaryLang}>{notice.summary.text}</span>
        </p>
      ) : null}
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        {notice.links.map((link) => (
          <TextLink key={link.href} {...link} />
        ))}
      </p>
    </aside>
  );
}
