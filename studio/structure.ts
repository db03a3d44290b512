import type { StructureResolver } from 'sanity/structure';

import { POLICY_ID, VERSION_TYPE } from '@/lib/policy/policy-record';
import { schemaTypes, singletonTypes } from '@/schemas';

import { TranslationStatus } from './translation-status';

const VERSIONS_TITLE = 'Privacy policy versions';

/** A singleton's translations: documents of its type with a `language` (Site settings list the languages). */
const translationsTitle = (title: string) => `${title}: translations`;

/**
 * The singletons, each pinned by its fixed id so editors can never create a second one, each with a view
 * of how its languages stand (translation-status.tsx), and followed by its translations (one document per language); under the privacy policy, its versions as the site
 * recorded them (read only), newest first.
 */
export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items(
      schemaTypes
        .filter((type) => singletonTypes.includes(type.name))
        .flatMap((type) => [
          S.listItem()
            .title(type.title ?? type.name)
            .id(type.name)
            .child(
              S.document()
                .schemaType(type.name)
                .documentId(type.name)
                .title(type.title ?? type.name)
                .views([S.view.form(), S.view.component(TranslationStatus).id('translations').title('Translations')]),
            ),
          S.listItem()
            .title(translationsTitle(type.title ?? type.name))
            .id(`${type.name}-translations`)
            .child(
              S.documentList()
                .title(translationsTitle(type.title ?? type.name))
                .schemaType(type.name)
                .filter('_type == $type && defined(language)')
                .params({ type: type.name })
                .defaultOrdering([{ field: 'language', direction: 'asc' }]),
            ),
          ...(type.name === POLICY_ID
            ? [
                S.listItem()
                  .title(VERSIONS_TITLE)
                  .id(VERSION_TYPE)
                  .child(
                    S.documentTypeList(VERSION_TYPE)
                      .title(VERSIONS_TITLE)
                      .defaultOrdering([{ field: 'date', direction: 'desc' }])
                      .initialValueTemplates([]),
                  ),
              ]
            : []),
        ]),
    );
