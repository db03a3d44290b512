import { copyField, copyGroup } from '../fields';

/** {date}, {from} and {to} become dates as the page shows them, e.g. "November 22, 2026"; {page} and {pages}, numbers. */
const DATES = ['date', 'from', 'to'] as const;

/**
 * The words of the policy's versions pages: the line on /privacy, the list at
 * /privacy/versions, a version's own page and its changes; and of a version announced ahead:
 * the line on every page, the notice on the policy, its marks on those pages, the Atom feed. They belong to the policy, so they are
 * edited and published with it; a change to them alone adds no version (the record keeps the policy's
 * title, sections and summary).
 */
export const policyVersionsCopy = copyGroup(
  'versions',
  'Versions pages',
  'The words of /privacy/versions, each version’s page and its changes, and the links to them on the policy.',
  [
    copyField('earlierLink', { title: 'Link to the versions, on the policy', max: 60 }),
    copyField('summaryLabel', { title: 'Label before the summary of changes', max: 40 }),
    copyField('changesLink', { title: 'Link to what changed', max: 60 }),
    copyField('listHeading', { title: 'Heading of the versions list', max: 80 }),
    copyField('listIntro', { title: 'Text under that heading', max: 300, multiline: true }),
    copyField('listDescription', { title: 'Description of the versions list for search engines', max: 160 }),
    copyField('currentLabel', { title: 'Mark of the current version', max: 40 }),
    copyField('inEffectSince', { title: 'When the current version took effect', max: 80, tokens: DATES }),
    copyField('inEffectRange', { title: 'When an earlier version was in effect', max: 80, tokens: DATES }),
    copyField('olderLink', { title: 'Link to the next page of the list (older versions)', max: 40 }),
    copyField('newerLink', { title: 'Link to the previous page of the list (newer versions)', max: 40 }),
    copyField('pageLabel', { title: 'Which page of the list', max: 40, tokens: ['page', 'pages'] }),
    copyField('versionTitle', { title: 'Title of a version’s page', max: 80, tokens: DATES }),
    copyField('notice', { title: 'Notice at the top of an earlier version', max: 200, multiline: true, tokens: DATES }),
    copyField('currentLink', { title: 'Link to the current policy, in that notice', max: 60 }),
    copyField('correctedLabel', { title: 'Line when a version was corrected', max: 80, tokens: DATES }),
    copyField('changesHeading', { title: 'Heading of a version’s changes', max: 80, tokens: DATES }),
    copyField('changesIntro', { title: 'Text under that heading', max: 300, multiline: true, tokens: DATES }),
    copyField('addedSection', { title: 'Mark of an added section', max: 40 }),
    copyField('removedSection', { title: 'Mark of a removed section', max: 40 }),
    copyField('unchangedSection', { title: 'Mark of an unchanged section', max: 40 }),
    copyField('addedWords', { title: 'What screen readers say before added words', max: 40 }),
    copyField('removedWords', { title: 'What screen readers say before removed words', max: 40 }),
    copyField('siteNotice', { title: 'Line on every page while a new version is announced', max: 100, tokens: DATES }),
    copyField('siteNoticeLink', { title: 'Link in that line, to the notice on the policy', max: 40 }),
    copyField('upcomingNotice', { title: 'Notice at the top of the policy while a new version is announced', max: 160, tokens: DATES }),
    copyField('upcomingLink', { title: 'Link to the new version, in that notice', max: 60 }),
    copyField('upcomingChangesLink', { title: 'Link to what changes, in that notice', max: 60 }),
    copyField('upcomingLabel', { title: 'Mark of an announced version in the list', max: 40 }),
    copyField('takesEffect', { title: 'When an announced version takes effect', max: 80, tokens: DATES }),
    copyField('notYetNotice', { title: 'Notice at the top of an announced version', max: 200, multiline: true, tokens: DATES }),
    copyField('withdrawnLabel', { title: 'Line when an announced version was withdrawn', max: 100, tokens: DATES }),
    copyField('feedLink', { title: 'Link to the feed of versions and announcements', max: 60 }),
    copyField('feedTitle', { title: 'Title of that feed', max: 80 }),
    copyField('feedAnnounced', { title: 'Feed entry: a version announced', max: 100, tokens: DATES }),
    copyField('feedInEffect', { title: 'Feed entry: a version in effect', max: 100, tokens: DATES }),
    copyField('feedWithdrawn', { title: 'Feed entry: an announced version withdrawn', max: 100, tokens: DATES }),
    copyField('translationPending', {
      title: 'Line when this language has no text of the version shown',
      description:
        "Above the governing text, when this language's translation of the version is not published yet (or is of its text before a correction): written in this translation's language.",
      max: 200,
      multiline: true,
    }),
    copyField('earlierTranslationLink', {
      title: 'Link to the translation of an earlier version, under that line',
      max: 120,
      tokens: DATES,
    }),
    copyField('governingNote', {
      title: 'Line on a translated policy: which text governs',
      description: 'Shown with the policy in every language but the governing one, in that language.',
      max: 200,
      multiline: true,
    }),
  ],
);
