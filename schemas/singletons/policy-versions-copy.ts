import { copyField, copyGroup } from '../fields';

/** {date}, {from} and {to} become dates as the page shows them, e.g. "November 22, 2026"; {page} and {pages}, numbers. */
const DATES = ['date', 'from', 'to'] as const;

/**
 * The words of the policy's versions pages (issue 40): the line on /privacy, the list at
 * /privacy/versions, a version's own page and its changes. They belong to the policy, so they are
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
  ],
);
