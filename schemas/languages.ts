import { defineArrayMember, defineField, type StringRule } from 'sanity';

import { isLanguageTag, MAX_LANGUAGES } from '@/lib/shared/languages';

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

type Settings = { language?: string; languages?: { tag?: string }[] };

const listedTag = (rule: StringRule, what: string) =>
  rule.custom((tag, context) => {
    const settings = context.document as Settings | undefined;
    if (settings?.language !== undefined) return true;
    if (typeof tag !== 'string' || tag === '') return `Choose the ${what} from the languages above.`;
    return settings?.languages?.some((language) => language.tag === tag) ? true : `"${tag}" is not one of the languages above.`;
  });

/** Site settings' languages: which the site has, the default one (no prefix in its paths), the governing one. */
export const siteLanguageFields = [
  defineField({
    name: 'languages',
    type: 'array',
    description: `The site's languages. Each one listed here and published has its pages at /<tag> within seconds (at most ${MAX_LANGUAGES}).`,
    of: [
      defineArrayMember({
        type: 'object',
        name: 'siteLanguage',
        fields: [
          defineField({
            name: 'tag',
            type: 'string',
            description: 'BCP 47: "es", "vi", "ar", "es-MX".',
            validation: (rule) => rule.required().custom(tagProblem),
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
            options: {
              list: [
                { title: 'Left to right', value: 'ltr' },
                { title: 'Right to left', value: 'rtl' },
              ],
              layout: 'radio',
            },
            initialValue: 'ltr',
            validation: (rule) => rule.required(),
          }),
        ],
        preview: { select: { title: 'name', subtitle: 'tag' } },
      }),
    ],
    validation: (rule) =>
      rule.max(MAX_LANGUAGES).custom((languages: { tag?: string }[] | undefined, context) => {
        if ((context.document as Settings | undefined)?.language !== undefined) return true;
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
    description: 'The language whose text of the privacy policy governs. A translation says so in its own words.',
    validation: (rule) => listedTag(rule, 'governing language'),
  }),
];
