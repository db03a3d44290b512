import { defineArrayMember, defineField, type StringRule } from 'sanity';

import { isLanguageTag, languageDirection, MAX_LANGUAGES, siteTagProblem, type Direction } from '@/lib/shared/languages';

/** The rule of a tag, in the editor's words. */
const tagProblem = (tag: unknown): true | string =>
  typeof tag === 'string' && isLanguageTag(tag)
    ? true
    : `"${String(tag)}" is not a language tag as BCP 47 writes it: a lowercase language ("es", "vi", "ar"), then a region in capitals or a script ("es-MX", "zh-Hant").`;

/**
 * The language of a translation: set on each document that translates a page or the settings, absent
 * on the default language's own. Checked on every path a publish takes (the schema runs in the lake too).
 */
export const languageField = defineField({
  name: 'language',
  type: 'string',
  readOnly: true,
  hidden: ({ value }) => value === undefined,
  validation: (rule) => rule.custom((tag) => (tag === undefined ? true : tagProblem(tag))),
});

/** The rule of a tag of the site's languages: a tag, under which the site's pages can live, of a language. */
function siteTagRule(tag: unknown): true | string {
  const problem = tagProblem(tag);
  if (problem !== true || typeof tag !== 'string') return problem;
  return siteTagProblem(tag) ?? true;
}

const DIRECTIONS: Readonly<Record<Direction, string>> = { ltr: 'Left to right', rtl: 'Right to left' };

const englishNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A saved direction against the one CLDR gives the language's tag: the site lays its pages out by it. */
function directionProblem(direction: unknown, tag: unknown): true | string {
  if (typeof tag !== 'string' || !isLanguageTag(tag) || direction === undefined) return true;
  const written = languageDirection(tag);
  return direction === written
    ? true
    : `${englishNames.of(tag) ?? tag} (${tag}) is written ${DIRECTIONS[written].toLowerCase()}: choose "${DIRECTIONS[written]}", or its pages are laid out backwards.`;
}

type Settings = { language?: string; languages?: { tag?: string }[]; defaultLanguage?: string };

const settingsOf = (context: { document?: unknown }) => context.document as Settings | undefined;

const isListed = (settings: Settings | undefined, tag: unknown) => !!settings?.languages?.some((language) => language.tag === tag);

const listedTag = (rule: StringRule, what: string) =>
  rule.custom((tag, context) => {
    const settings = settingsOf(context);
    if (settings?.language !== undefined) return true;
    if (typeof tag !== 'string' || tag === '') return `Choose the ${what} from the languages above.`;
    return isListed(settings, tag) ? true : `"${tag}" is not one of the languages above.`;
  });

/**
 * The governing language as the site uses it: the default language's policy is the governing text (the
 * policy's pages and their dates, the line a translation shows, the notice emails), so no other may be named.
 */
function governingProblem(governing: unknown, settings: Settings | undefined): true | string {
  const defaultTag = settings?.defaultLanguage;
  // A translation names neither; one not listed is listedTag's to say.
  if (settings?.language !== undefined || governing === defaultTag || !isListed(settings, governing) || !isListed(settings, defaultTag))
    return true;
  return `The governing language must be the default language ("${defaultTag}"): the site treats the default language's privacy policy as the governing text, on the policy's pages and in their dates, in the line each translation shows saying which text governs, and in the notice emails. Choose "${defaultTag}", or make "${String(governing)}" the default language.`;
}

/** The type of a language of Site settings: the Studio fills in its name and direction as its tag is typed. */
export const SITE_LANGUAGE_TYPE = 'siteLanguage';

/** Site settings' languages: which the site has, the default one (no prefix in its paths), the governing one. */
export const siteLanguageFields = [
  defineField({
    name: 'languages',
    type: 'array',
    description: `The site's languages. Each one listed here and published has its pages at /<tag> within seconds (at most ${MAX_LANGUAGES}).`,
    of: [
      defineArrayMember({
        type: 'object',
        name: SITE_LANGUAGE_TYPE,
        fields: [
          defineField({
            name: 'tag',
            type: 'string',
            description: 'BCP 47: "es", "vi", "ar", "es-MX".',
            validation: (rule) => rule.required().custom(siteTagRule),
          }),
          defineField({
            name: 'name',
            type: 'string',
            description: 'In the language itself: "Español", "Tiếng Việt", "العربية".',
            validation: (rule) => rule.required().max(40),
          }),
          defineField({
            name: 'direction',
            type: 'string',
            description: 'Follows the tag: set when the tag is typed, as Unicode (CLDR) writes the language.',
            options: {
              list: Object.entries(DIRECTIONS).map(([value, title]) => ({ title, value })),
              layout: 'radio',
            },
            initialValue: 'ltr',
            validation: (rule) =>
              rule.required().custom((direction, context) => directionProblem(direction, (context.parent as { tag?: unknown })?.tag)),
          }),
        ],
        preview: { select: { title: 'name', subtitle: 'tag' } },
      }),
    ],
    validation: (rule) =>
      rule.max(MAX_LANGUAGES).custom((languages: { tag?: string }[] | undefined, context) => {
        if (settingsOf(context)?.language !== undefined) return true;
        const tags = (languages ?? []).map((language) => language.tag);
        return new Set(tags).size === tags.length ? true : 'Each language once.';
      }),
  }),
  defineField({
    name: 'defaultLanguage',
    type: 'string',
    description: 'Its pages have no prefix (/support); every other language lives under its tag (/es/support).',
    validation: (rule) => listedTag(rule, 'default language'),
  }),
  defineField({
    name: 'governingLanguage',
    type: 'string',
    description:
      "The language whose text of the privacy policy governs: the default language's, which the site shows as the governing text. A translation says so in its own words.",
    validation: (rule) =>
      listedTag(rule, 'governing language').custom((governing, context) => governingProblem(governing, settingsOf(context))),
  }),
];
