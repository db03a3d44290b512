import type { Metadata } from 'next';
import { stegaClean } from 'next-sanity';

import { getSettings, getSupportPage } from '@/lib/content';

import { BackHome } from '../_components/back-home';
import { FaqSection } from '../_components/faq-section';
import { SupportCards } from '../_components/support-cards';

export async function generateMetadata(): Promise<Metadata> {
  const seo = stegaClean((await getSupportPage()).seo);
  return { title: seo?.title, description: seo?.description, alternates: { canonical: '/support' } };
}

export default async function SupportPage() {
  const [settings, page] = await Promise.all([getSettings(), getSupportPage()]);
  const cards = (page.cards ?? []).map((card) => ({
    _key: card._key,
    title: card.title ?? '',
    text: card.text ?? '',
    modalTitle: card.modalTitle ?? '',
    // The request type becomes a form value and a stored column: never stega-encoded.
    requestType: stegaClean(card.requestType) ?? 'issue',
  }));

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <BackHome />
      <div className="mt-6 text-center">
        <h1 className="text-4xl font-extrabold tracking-tight text-ink sm:text-5xl">{page.heading}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">{page.intro}</p>
      </div>

      <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        <SupportCards cards={cards} />
        <section aria-labelledby="contact-heading" className="rounded-2xl bg-brand-50 p-6">
          <h2 id="contact-heading" className="text-lg font-semibold text-ink">
            {page.contact?.heading}
          </h2>
          <p className="mt-2 text-muted">{page.contact?.text}</p>
          <dl className="mt-4 space-y-3 text-sm">
            <div>
              <dt className="font-semibold text-ink">{page.contact?.replyTimeLabel}</dt>
              <dd className="text-muted">{settings.replyTime}</dd>
            </div>
            <div>
              <dt className="font-semibold text-ink">{page.contact?.hoursLabel}</dt>
              <dd className="text-muted">{settings.supportHours}</dd>
            </div>
          </dl>
        </section>
      </div>

      <FaqSection heading={page.faqHeading} items={page.faq} className="mt-20" />
    </div>
  );
}
