import { getLocalPath, getSettings, getSupportPage } from '@/lib/content';
import { ROUTES } from '@/lib/shared/public-pages';

import { BackHome } from '../../_components/back-home';
import { FaqSection } from '../../_components/faq-section';
import { LanguageLinks } from '../../_components/language-links';
import { pageHead, pageLanguage, type LanguageParams } from '../../_components/page-language';
import { SupportCards } from '../../_components/support-cards';

export const generateMetadata = pageHead(ROUTES.support, getSupportPage);

export default async function SupportPage(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const [settings, page] = await Promise.all([getSettings(tag), getSupportPage(tag)]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome language={tag} />
      <div className="paint-whole mt-6 text-center">
        <h1 {...page.langOf.heading} className="text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">
          {page.heading}
        </h1>
        <p {...page.langOf.intro} className="mx-auto mt-4 max-w-2xl text-lg text-muted">
          {page.intro}
        </p>
      </div>

      <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        <SupportCards
          cards={page.cards}
          copy={{ form: page.form, messages: settings.messages, page: { language: tag, path: await getLocalPath(tag, ROUTES.support) } }}
        />
        <section aria-labelledby="contact-heading" className="rounded-2xl bg-brand-50 p-6">
          <h2 {...page.contact.langOf.heading} id="contact-heading" className="text-lg font-semibold text-ink">
            {page.contact.heading}
          </h2>
          <p {...page.contact.langOf.text} className="mt-2 text-muted">
            {page.contact.text}
          </p>
          <dl className="mt-4 flex flex-col gap-3 text-sm">
            <div>
              <dt {...page.contact.langOf.replyTimeLabel} className="font-semibold text-ink">
                {page.contact.replyTimeLabel}
              </dt>
              <dd {...settings.langOf.replyTime} className="text-muted">
                {settings.replyTime}
              </dd>
            </div>
            <div>
              <dt {...page.contact.langOf.hoursLabel} className="font-semibold text-ink">
                {page.contact.hoursLabel}
              </dt>
              <dd {...settings.langOf.supportHours} className="text-muted">
                {settings.supportHours}
              </dd>
            </div>
          </dl>
        </section>
      </div>

      <FaqSection faq={page.faq} className="mt-20" />
      <LanguageLinks path={ROUTES.support} current={tag} />
    </div>
  );
}
