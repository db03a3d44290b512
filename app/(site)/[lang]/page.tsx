import { getLandingPage, getLocalPath, getSettings } from '@/lib/content';
import type { LandingPageView, SettingsView } from '@/lib/content/views';
import { ROUTES } from '@/lib/shared/public-pages';

import { FaqSection } from '../_components/faq-section';
import { Icon } from '../_components/icons';
import { SectionHeading } from '../_components/section-heading';
import { SentenceText } from '../_components/sentence';
import { LanguageLinks } from '../_components/language-links';
import { pageHead, pageLanguage, type LanguageParams } from '../_components/page-language';
import { SubscribeForm, type SubscribeFormProps } from '../_components/subscribe-form';

export const generateMetadata = pageHead(ROUTES.home, getLandingPage);

function StoreButton({ store: { href, label, fallback, langOf } }: { store: LandingPageView['hero']['stores'][number] }) {
  const className = 'inline-flex min-w-40 items-center justify-center rounded-xl px-6 py-3 font-semibold shadow-sm';
  if (!href) {
    // No listing address: the label unlinked, and where to find the app instead (true whether or not it is listed).
    return (
      <span className={`${className} flex-col bg-white/15 text-white outline-1 outline-white/40`}>
        <span {...langOf.label}>{label}</span>
        <span {...langOf.fallback} className="text-xs font-normal">
          <SentenceText sentence={fallback} />
        </span>
      </span>
    );
  }
  return (
    <a {...langOf.label} href={href} rel="noopener noreferrer" className={`${className} bg-white text-brand-700 hover:bg-brand-50`}>
      {label}
    </a>
  );
}

function Hero({ hero }: { hero: LandingPageView['hero'] }) {
  return (
    <section className="paint-whole bg-hero text-white">
      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-28">
        <h1 {...hero.langOf.headline} className="text-4xl font-extrabold tracking-tight sm:text-6xl">
          {hero.headline}
        </h1>
        <p {...hero.langOf.text} className="mt-6 max-w-2xl text-lg text-brand-100 sm:text-xl">
          {hero.text}
        </p>
        <div className="mt-10 flex flex-col gap-4 sm:flex-row">
          {hero.stores.map((store) => (
            <StoreButton key={store.key} store={store} />
          ))}
        </div>
        {/* Circled by an outline-1 (app/globals.css says why): on keyboard focus, the browser's own focus indicator, as every link has. */}
        <a
          {...hero.langOf.scrollLabel}
          href="#features"
          aria-label={hero.scrollLabel}
          className="mt-14 inline-flex h-12 w-12 items-center justify-center rounded-full outline-1 outline-white/50 hover:bg-white/10 focus-visible:[outline:revert]"
        >
          <Icon name="arrowDown" className="h-6 w-6" />
        </a>
      </div>
    </section>
  );
}

function Features({ features }: { features: LandingPageView['features'] }) {
  return (
    <section
      {...features.lang}
      id="features"
      aria-labelledby="features-heading"
      className="below-fold mx-auto max-w-6xl px-4 py-20 sm:px-6"
    >
      <SectionHeading id="features-heading" heading={features.heading} intro={features.intro} langOf={features.langOf} />
      <ul {...features.langOf.cards} className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {features.cards.map((card) => (
          <li key={card._key} className="rounded-2xl border border-gray-200 p-6 shadow-sm">
            <Icon name={card.icon} className="h-10 w-10 rounded-lg bg-brand-50 p-2 text-brand-700" />
            <h3 className="mt-4 text-lg font-semibold text-ink">{card.title}</h3>
            <p className="mt-2 text-muted">{card.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Experience({ experience }: { experience: LandingPageView['experience'] }) {
  return (
    <section {...experience.lang} id="experience" aria-labelledby="experience-heading" className="below-fold bg-gray-50">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <SectionHeading id="experience-heading" heading={experience.heading} intro={experience.intro} langOf={experience.langOf} />
        <ol {...experience.langOf.steps} className="mt-12 grid gap-6 md:grid-cols-3">
          {experience.steps.map((step, index) => (
            <li key={step._key} className="rounded-2xl bg-white p-6 shadow-sm">
              <span
                className="inline-flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white"
                aria-hidden="true"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
              <p className="mt-2 text-muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

type StayUpdatedProps = {
  stayUpdated: LandingPageView['stayUpdated'];
  messages: SettingsView['messages'];
  page: SubscribeFormProps['page'];
};

function StayUpdated({ stayUpdated, messages, page }: StayUpdatedProps) {
  return (
    <section id="stay-updated" aria-labelledby="stay-updated-heading" className="below-fold bg-brand-700 text-white">
      <div className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-6">
        <h2 {...stayUpdated.langOf.heading} id="stay-updated-heading" className="text-3xl font-bold tracking-tight">
          {stayUpdated.heading}
        </h2>
        <p {...stayUpdated.langOf.text} className="mt-3 text-brand-100">
          {stayUpdated.text}
        </p>
        <SubscribeForm copy={stayUpdated} messages={messages} page={page} />
      </div>
    </section>
  );
}

export default async function HomePage(props: LanguageParams) {
  const { tag } = await pageLanguage(props);
  const [{ hero, features, experience, faq, stayUpdated }, settings, path] = await Promise.all([
    getLandingPage(tag),
    getSettings(tag),
    getLocalPath(tag, ROUTES.home),
  ]);

  return (
    <>
      <Hero hero={hero} />
      <Features features={features} />
      <Experience experience={experience} />
      <FaqSection faq={faq} className="px-4 py-20 sm:px-6" />
      <StayUpdated stayUpdated={stayUpdated} messages={settings.messages} page={{ language: tag, path }} />
      <LanguageLinks path={ROUTES.home} current={tag} />
    </>
  );
}
