import type { StructureResolver } from 'sanity/structure';

import { schemaTypes, singletonTypes } from '@/schemas';

/** Every document here is a singleton, pinned by its fixed id so editors can never create a second one. */
export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items(
      schemaTypes
        .filter((type) => singletonTypes.includes(type.name))
        .map((type) =>
          S.listItem()
            .title(type.title ?? type.name)
            .id(type.name)
            .child(
              S.document()
                .schemaType(type.name)
                .documentId(type.name)
                .title(type.title ?? type.name),
            ),
        ),
    );
