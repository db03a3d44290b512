import { readFileSync } from 'node:fs';

import type { SanityDocument, ValidationMarker } from 'sanity';
import { describe, expect, it } from 'vitest';

import { parseNdjson } from '@school-site/content-lake';
import { markerPath, problemsByType, validateContent } from '@/lib/content/schema-check';
import { FIELD_NAMES, MESSAGE_CODES } from '@/lib/forms/messages';
import { SEED_FILE as SEED } from '@/testkit/paths';

/**
 * The schema's validation rules, run by Sanity's own engine (lib/content/schema-check.ts) in the
 * 'cli' environment, which also warns about fields the schema does not know.
 */

type Doc = SanityDocument & Record<string, any>;

const seed = parseNdjson(readFileSync(SEED, 'utf8'), SEED) as Doc[];

function seedDocument(id: string): Doc {
  const found = seed.find((doc) => doc._id === id);
  if (!found) throw new Error(`${id} is missing from the seed`);
  return structuredClone(found);
}

/** The seed's settings with both store links filled in, which leaves them nothing to warn about. */
const settingsWithStores = (): Doc => ({
  ...seedDocument('siteSettings'),
  appStoreUrl: 'https://apps.apple.com/app/id1',
  playStoreUrl: 'https://play.google.com/store/apps/details?id=x',
});

async function validate(document: Doc): Promise<ValidationMarker[]> {
  return validateContent(document);
}

/** Markers of one level as [path, message]. */
const markersAt = (markers: ValidationMarker[], level: ValidationMarker['level']) =>
  markers.filter((marker) => marker.level === level).map((marker) => [markerPath(marker), marker.message]);

const errorsOf = (markers: ValidationMarker[]) => markersAt(markers, 'error');
const warningsOf = (markers: ValidationMarker[]) => markersAt(markers, 'warning');

describe('the seed dataset', () => {
  it("holds the four singletons, their Spanish translations and the policy's first version, of the policy's own date", () => {
    expect(seed.map((doc) => doc._id).sort()).toEqual([
      'landingPage',
      'landingPage-es',
      'privacyPolicy',
      'privacyPolicy-es',
      'privacyPolicyVersion-2026-11-22',
      'siteSettings',
      'siteSettings-es',
      'supportPage',
      'supportPage-es',
    ]);
    expect(seedDocument('privacyPolicy').lastUpdated).toBe('2026-11-22');
  });

  it.each(seed.filter((doc) => doc._type !== 'siteSettings').map((doc) => [doc._id, doc] as const))(
    '%s validates with no errors or warnings',
    async (_id, doc) => {
      expect(await validate(doc)).toEqual([]);
    },
  );

  it('siteSettings validates with no errors, and warns only that the store links are empty (they are not known yet)', async () => {
    const markers = await validate(seedDocument('siteSettings'));
    expect(errorsOf(markers)).toEqual([]);
    expect(warningsOf(markers)).toEqual([
      ['appStoreUrl', 'Without a URL the App Store button is plain text, with the line below instead of a link.'],
      ['playStoreUrl', 'Without a URL the Play Store button is plain text, with the line below instead of a link.'],
    ]);
  });

  it('siteSettings with both store links has no warnings', async () => {
    expect(await validate(settingsWithStores())).toEqual([]);
  });

  it('siteSettings-es validates with no errors, and warns only of the store links, which the default settings keep', async () => {
    const markers = await validate(seedDocument('siteSettings-es'));
    expect(errorsOf(markers)).toEqual([]);
    expect(warningsOf(markers).map(([path]) => path)).toEqual(['appStoreUrl', 'playStoreUrl']);
  });
});

describe('languages', () => {
  const language = (tag: string, direction = 'ltr') => ({ _key: tag.toLowerCase(), _type: 'siteLanguage', tag, name: tag, direction });
  const withLanguages = (...languages: ReturnType<typeof language>[]) => ({ ...settingsWithStores(), languages });
  /** The errors of the seed's settings with English and `added`, at `added`'s `field`. */
  const errorsAt = async (added: ReturnType<typeof language>, field: string) =>
    errorsOf(await validate(withLanguages(language('en'), added)))
      .filter(([path]) => path === `languages[_key=="${added._key}"].${field}`)
      .map(([, message]) => message);

  it.each(['ES', 'es_MX', 'es-mx', 'english', 'x-klingon', 'es-ZZZ', ''])('refuses "%s" as a language of the site', async (tag) => {
    const settings = { ...settingsWithStores(), languages: [language('en'), language(tag)] };
    expect(errorsOf(await validate(settings)).map(([path]) => path)).toContain(`languages[_key=="${tag.toLowerCase()}"].tag`);
  });

  it("refuses a tag that is the start of the site's own addresses, though it is a tag", async () => {
    expect(await errorsAt(language('api'), 'tag')).toEqual([
      `"api" is the start of the site's own addresses (/api/…): a language's pages cannot live there too, so no language of the site may have this tag.`,
    ]);
  });

  it.each([
    ['und', 'an undetermined language'],
    ['zxx', 'no linguistic content'],
    ['mul', 'several languages'],
    ['mis', 'a language it has no code for'],
  ])('refuses "%s", which names no language, with or without a script or region', async (code, meaning) => {
    const message = `"${code}" names no language (ISO 639 keeps it for ${meaning}): browsers, screen readers and search engines could not tell which language the pages are in. Use the language's own tag.`;
    expect(await errorsAt(language(code), 'tag')).toEqual([message]);
    expect(await errorsAt(language(`${code}-Arab`, 'rtl'), 'tag')).toEqual([message]);
  });

  it('refuses a direction the tag contradicts, and takes the one it gives', async () => {
    expect(await errorsAt(language('ar'), 'direction')).toEqual([
      'Arabic (ar) is written right to left: choose "Right to left", or its pages are laid out backwards.',
    ]);
    expect(await errorsAt(language('es', 'rtl'), 'direction')).toEqual([
      'Spanish (es) is written left to right: choose "Left to right", or its pages are laid out backwards.',
    ]);
    const agreeing = withLanguages(
      language('en'),
      language('ar', 'rtl'),
      language('he', 'rtl'),
      language('es'),
      language('az-Arab', 'rtl'),
    );
    expect(await validate(agreeing)).toEqual([]);
  });

  it('refuses a governing language other than the default, saying why', async () => {
    const settings = { ...withLanguages(language('en'), language('es')), defaultLanguage: 'en', governingLanguage: 'es' };
    expect(errorsOf(await validate(settings))).toEqual([
      [
        'governingLanguage',
        `The governing language must be the default language ("en"): the site treats the default language's privacy policy as the governing text, on the policy's pages and in their dates, in the line each translation shows saying which text governs, and in the notice emails. Choose "en", or make "es" the default language.`,
      ],
    ]);
    expect(await validate({ ...settings, defaultLanguage: 'es' })).toEqual([]);
  });

  it('takes tags as BCP 47 writes them, each once, and a default and governing language among them', async () => {
    const settings = withLanguages(...['en', 'es-MX', 'zh-Hant', 'vi'].map((tag) => language(tag)), language('ar', 'rtl'));
    expect(await validate(settings)).toEqual([]);
    const twice = { ...settings, languages: [language('en'), language('en'), language('es')], defaultLanguage: 'fr' };
    expect(
      errorsOf(await validate(twice))
        .map(([path]) => path)
        .sort(),
    ).toEqual(['defaultLanguage', 'languages']);
  });

  it('refuses a translation whose language is not a tag', async () => {
    const translation = { ...seedDocument('landingPage-es'), language: 'Spanish' };
    expect(errorsOf(await validate(translation)).map(([path]) => path)).toEqual(['language']);
  });

  it('lets a translation lack a field the default document must have: the page shows the default words there', async () => {
    const { hero, ...rest } = seedDocument('landingPage-es');
    const translation = { ...rest, hero: { ...(hero as object), text: undefined } } as Doc;
    expect(await problemsByType([translation], ['landingPage'], false)).toEqual(new Map());
    const { hero: english, ...others } = seedDocument('landingPage');
    const problems = await problemsByType(
      [{ ...others, hero: { ...(english as object), text: undefined } } as Doc],
      ['landingPage'],
      false,
    );
    expect(problems.get('landingPage')).toEqual(['hero.text: Required']);
  });

  it('checks what a translation holds, however little: a headline alone passes, one too long does not', async () => {
    const begun = (headline: string) => ({ _id: 'landingPage-ar', _type: 'landingPage', language: 'ar', hero: { headline } });
    expect(await problemsByType([begun('تواصل')], ['landingPage'], false)).toEqual(new Map());
    expect((await problemsByType([begun('x'.repeat(81))], ['landingPage'], false)).get('landingPage')).toEqual([
      'hero.headline: Must be at most 80 characters long',
    ]);
    const settings = { _id: 'siteSettings-ar', _type: 'siteSettings', language: 'ar', notFound: { heading: 'الصفحة غير موجودة' } };
    expect(await problemsByType([settings], ['siteSettings'], false)).toEqual(new Map());
  });
});

const LINK_ERROR = 'Start with /, https:// or mailto:';

type Case = [string, () => Doc, Array<[string, string]>];

/** Deletes `path` (dot-separated) from a copy of the seed document `id`. */
function without(id: string, path: string): () => Doc {
  return () => {
    const doc = seedDocument(id);
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce((value, key) => value[key], doc);
    delete parent[keys.at(-1)!];
    return doc;
  };
}

/** Sets `path` (dot-separated) in a copy of the seed document `id`. */
function withValue(id: string, path: string, value: unknown): () => Doc {
  return () => {
    const doc = seedDocument(id);
    const keys = path.split('.');
    keys.slice(0, -1).reduce((parent, key) => parent[key], doc)[keys.at(-1)!] = value;
    return doc;
  };
}

/** Every visible text is required, and a misspelt {token} is an error. */
function copyCases(): Case[] {
  const required: Array<[string, string]> = [
    ['siteSettings', 'appStoreFallback'],
    ['siteSettings', 'playStoreFallback'],
    ...['skipLink', 'rightsReserved', 'backHome', 'shareImageAlt'].map((field): [string, string] => ['siteSettings', `chrome.${field}`]),
    ...['label', 'heading', 'text', 'description', 'homeLink', 'supportLink'].map((field): [string, string] => [
      'siteSettings',
      `notFound.${field}`,
    ]),
    ...['label', 'heading', 'text', 'retry', 'homeLink'].map((field): [string, string] => ['siteSettings', `errorPage.${field}`]),
    ...MESSAGE_CODES.map((code): [string, string] => ['siteSettings', `formMessages.${code}`]),
    ...FIELD_NAMES.map((field): [string, string] => ['siteSettings', `fieldNames.${field}`]),
    ...['emailLabel', 'subjectLabel', 'messageLabel', 'cancel', 'send', 'sending', 'sent', 'error', 'success'].map(
      (field): [string, string] => ['supportPage', `form.${field}`],
    ),
    ['landingPage', 'stayUpdated.emailLabel'],
    ['landingPage', 'stayUpdated.pendingLabel'],
    ['privacyPolicy', 'lastUpdatedLabel'],
  ];
  return [
    ...required.map(([id, path]): Case => [`${id} without ${path}`, without(id, path), [[path, 'Required']]]),
    ...(['chrome', 'notFound', 'errorPage', 'formMessages', 'fieldNames'] as const).map((group): Case => [
      `siteSettings without the ${group} group`,
      without('siteSettings', group),
      // Sanity reports each required field of a missing object.
      Object.keys(seedDocument('siteSettings')[group]).map((field) => [`${group}.${field}`, 'Required']),
    ]),
    [
      'siteSettings with a misspelt token in a message',
      withValue('siteSettings', 'formMessages.tooLong', '{feild} must be at most {max} characters.'),
      [['formMessages.tooLong', 'Unknown token {feild}. This text may use {field}, {max}.']],
    ],
    [
      'siteSettings with a token in a message that has none',
      withValue('siteSettings', 'formMessages.failed', 'Sending {field} failed.'),
      [['formMessages.failed', 'Unknown token {field}. This text uses no tokens.']],
    ],
    [
      'siteSettings with a store line naming {product}',
      withValue('siteSettings', 'appStoreFallback', 'Search “{product}” in the App Store'),
      [['appStoreFallback', 'Unknown token {product}. This text may use {productName}.']],
    ],
    [
      'a button label over 20 characters',
      withValue('supportPage', 'form.send', 'x'.repeat(21)),
      [['form.send', 'Must be at most 20 characters long']],
    ],
  ];
}

describe('invalid documents get errors', () => {
  const cases: Case[] = [
    [
      'siteSettings without radiusMiles',
      () => {
        const doc = seedDocument('siteSettings');
        delete doc.radiusMiles;
        return doc;
      },
      [['radiusMiles', 'Required']],
    ],
    [
      'siteSettings with a negative radius',
      () => ({ ...seedDocument('siteSettings'), radiusMiles: -1 }),
      [['radiusMiles', expect.stringMatching(/^Must be greater than/)]],
    ],
    [
      'siteSettings with a radius over 50',
      () => ({ ...seedDocument('siteSettings'), radiusMiles: 51 }),
      [['radiusMiles', 'Must be lower than or equal to 50']],
    ],
    [
      'siteSettings without the days support requests are kept',
      () => {
        const doc = seedDocument('siteSettings');
        delete doc.answeredRequestDays;
        delete doc.unansweredRequestDays;
        return doc;
      },
      [
        ['answeredRequestDays', 'Required'],
        ['unansweredRequestDays', 'Required'],
      ],
    ],
    [
      'siteSettings keeping answered requests 0 days and the others half a day',
      () => ({ ...seedDocument('siteSettings'), answeredRequestDays: 0, unansweredRequestDays: 0.5 }),
      [
        ['answeredRequestDays', 'Must be greater than or equal to 1'],
        ['unansweredRequestDays', 'Must be an integer'],
      ],
    ],
    [
      'siteSettings keeping requests over ten years',
      () => ({ ...seedDocument('siteSettings'), unansweredRequestDays: 3651 }),
      [['unansweredRequestDays', 'Must be lower than or equal to 3650']],
    ],
    [
      'siteSettings without productName and replyTime',
      () => {
        const doc = seedDocument('siteSettings');
        delete doc.productName;
        delete doc.replyTime;
        return doc;
      },
      [
        ['productName', 'Required'],
        ['replyTime', 'Required'],
      ],
    ],
    [
      'siteSettings with a header link that is not a path or https URL',
      () => {
        const doc = seedDocument('siteSettings');
        doc.headerLinks[0].href = 'javascript:alert(1)';
        return doc;
      },
      [['headerLinks[_key=="k0001"].href', LINK_ERROR]],
    ],
    [
      'siteSettings with an http App Store URL',
      () => ({ ...seedDocument('siteSettings'), appStoreUrl: 'http://apps.apple.com/app/x' }),
      [['appStoreUrl', 'Does not match allowed protocols/schemes']],
    ],
    [
      'landingPage with 3 feature cards',
      () => {
        const doc = seedDocument('landingPage');
        doc.features.cards = doc.features.cards.slice(0, 3);
        return doc;
      },
      [['features.cards', 'The layout shows exactly four feature cards.']],
    ],
    [
      'landingPage with 5 feature cards',
      () => {
        const doc = seedDocument('landingPage');
        doc.features.cards.push({ ...doc.features.cards[0], _key: 'extra' });
        return doc;
      },
      [['features.cards', 'The layout shows exactly four feature cards.']],
    ],
    [
      'landingPage without a hero headline',
      () => {
        const doc = seedDocument('landingPage');
        delete doc.hero.headline;
        return doc;
      },
      [['hero.headline', 'Required']],
    ],
    [
      'landingPage with an icon outside the list',
      () => {
        const doc = seedDocument('landingPage');
        doc.features.cards[1].icon = 'rocket';
        return doc;
      },
      [['features.cards[_key=="k0018"].icon', 'Value "rocket" did not match any allowed values']],
    ],
    [
      'landingPage without the stayUpdated section',
      () => {
        const doc = seedDocument('landingPage');
        delete doc.stayUpdated;
        return doc;
      },
      [
        ['stayUpdated.heading', 'Required'],
        ['stayUpdated.text', 'Required'],
        ['stayUpdated.emailLabel', 'Required'],
        ['stayUpdated.placeholder', 'Required'],
        ['stayUpdated.buttonLabel', 'Required'],
        ['stayUpdated.pendingLabel', 'Required'],
        ['stayUpdated.successMessage', 'Required'],
      ],
    ],
    [
      'supportPage with two cards of the same request type',
      () => {
        const doc = seedDocument('supportPage');
        doc.cards[2].requestType = 'issue';
        return doc;
      },
      [['cards', 'Each card needs its own request type.']],
    ],
    [
      'supportPage with two cards',
      () => {
        const doc = seedDocument('supportPage');
        doc.cards = doc.cards.slice(0, 2);
        return doc;
      },
      [['cards', 'Must have exactly 3 items']],
    ],
    [
      'supportPage with an unknown request type',
      () => {
        const doc = seedDocument('supportPage');
        doc.cards[0].requestType = 'complaint';
        return doc;
      },
      [['cards[_key=="k0028"].requestType', 'Value "complaint" did not match any allowed values']],
    ],
    [
      'privacyPolicy with 6 sections',
      () => {
        const doc = seedDocument('privacyPolicy');
        doc.sections = doc.sections.slice(0, 6);
        return doc;
      },
      [['sections', 'The policy has exactly 7 sections.']],
    ],
    [
      'privacyPolicy with 8 sections',
      () => {
        const doc = seedDocument('privacyPolicy');
        doc.sections.push({ ...doc.sections[6], _key: 'extra' });
        return doc;
      },
      [['sections', 'The policy has exactly 7 sections.']],
    ],
    [
      'privacyPolicy without lastUpdated',
      () => {
        const doc = seedDocument('privacyPolicy');
        delete doc.lastUpdated;
        return doc;
      },
      [['lastUpdated', 'Required']],
    ],
    [
      'privacyPolicy with a section without text',
      () => {
        const doc = seedDocument('privacyPolicy');
        doc.sections[0].body = [];
        return doc;
      },
      [['sections[_key=="k0038"].body', 'Must have at least 1 blocks']],
    ],
    [
      'privacyPolicy with a link that is not a path or https URL',
      () => {
        const doc = seedDocument('privacyPolicy');
        doc.sections[6].body[0].markDefs[0].href = 'support';
        return doc;
      },
      [['sections[_key=="k0095"].body[_key=="k0094"].markDefs[_key=="supportlink2"].href', LINK_ERROR]],
    ],
    ...copyCases(),
  ];

  it.each(cases)('%s', async (_case, build, expected) => {
    const errors = errorsOf(await validate(build()));
    expect(errors).toEqual(expect.arrayContaining(expected));
    // No error elsewhere. (Sanity may add more messages at the same path, e.g. min/max beside "Required".)
    expect(new Set(errors.map(([path]) => path))).toEqual(new Set(expected.map(([path]) => path)));
  });
});

describe('privacyPolicy lastUpdated against _updatedAt', () => {
  const WARNING = 'The policy was edited on 2026-11-22, after this date. Set "Last updated" to the day the change takes effect.';

  it.each([
    ['a day earlier than the edit: warns', '2026-11-21', '2026-11-22T09:00:00Z', [['lastUpdated', WARNING]]],
    ['the day of the edit: fine', '2026-11-22', '2026-11-22T09:00:00Z', []],
    ['the day of a late-evening (UTC) edit: fine', '2026-11-22', '2026-11-22T23:59:59Z', []],
    ['later than the edit (a future effective date): fine', '2026-12-01', '2026-11-22T09:00:00Z', []],
  ])('%s', async (_case, lastUpdated, updatedAt, expectedWarnings) => {
    const markers = await validate({ ...seedDocument('privacyPolicy'), lastUpdated, _updatedAt: updatedAt });
    expect(warningsOf(markers)).toEqual(expectedWarnings);
    // A warning, never an error: it must not block publishing.
    expect(errorsOf(markers)).toEqual([]);
  });
});

describe('warnings that do not block publishing', () => {
  it('a search description over 160 characters', async () => {
    const doc = seedDocument('landingPage');
    doc.seo.description = 'x'.repeat(161);
    const markers = await validate(doc);
    expect(warningsOf(markers)).toEqual([['seo.description', 'Search engines cut descriptions past about 160 characters.']]);
    expect(errorsOf(markers)).toEqual([]);
  });

  it('a field the schema does not know', async () => {
    const markers = await validate({ ...settingsWithStores(), radiusKm: 5 });
    expect(warningsOf(markers)).toEqual([['radiusKm', "Field 'radiusKm' does not exist on type 'siteSettings'"]]);
  });
});

describe('edge cases', () => {
  it('a radius of 0 is rejected', async () => {
    expect(errorsOf(await validate({ ...seedDocument('siteSettings'), radiusMiles: 0 }))).not.toEqual([]);
  });

  it('a missing search description is an error, not a warning', async () => {
    const doc = seedDocument('privacyPolicy');
    delete doc.seo.description;
    expect(errorsOf(await validate(doc))).toEqual([['seo.description', 'Required']]);
  });
});
